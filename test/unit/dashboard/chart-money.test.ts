// The charts' money formatter (the text dashboard.js is served with) is the server's own
// formatMinorUnits and writes every amount exactly as formatAmount does: "10.000 kr." on an ISK
// axis, not "10000 kr.". Evaluated here with nothing but its own text in scope, as in a browser.
import assert from 'node:assert/strict';
import { CHART_MONEY_JS, DASHBOARD_JS } from '../../../api/dashboard/assets/dashboard-js';
import { SUPPORTED_CURRENCIES, displayStyleOf, formatAmount, minorUnitExponent } from '../../../src/billing/currency';
import { formatMinorUnits } from '../../../src/billing/money-format';

type Style = ReturnType<typeof displayStyleOf>;
const money = new Function(`${CHART_MONEY_JS}; return money;`)() as (v: number, style: Style) => string;

describe('chart money formatter', () => {
  it('is the served script’s own text', () => {
    assert.ok(DASHBOARD_JS.includes(CHART_MONEY_JS));
    assert.ok(CHART_MONEY_JS.includes(formatMinorUnits.toString()), 'the server’s formatter, not a copy');
    assert.doesNotThrow(() => new Function(DASHBOARD_JS), 'the whole served script parses with the function embedded');
    assert.ok(DASHBOARD_JS.includes('/\\B(?=(\\d{3})+$)/g'), 'the backslashes survive into the served script');
  });

  it('agrees with formatAmount for every currency, axis steps and odd amounts', () => {
    assert.equal(money(10_000, displayStyleOf('ISK')), '10.000 kr.');
    assert.equal(money(4990, displayStyleOf('ISK')), '4.990 kr.');
    assert.equal(money(19.9, displayStyleOf('EUR')), '€19.90');
    const amounts = [0, 1, 5, 99, 100, 999, 1000, 4990, 10_000, 12_345, 250_000, 1_000_000, 123_456_789, -4990, -1];
    for (const c of SUPPORTED_CURRENCIES) {
      const scale = 10 ** minorUnitExponent(c);
      for (const minor of amounts) assert.equal(money(minor / scale, displayStyleOf(c)), formatAmount(minor, c), `${c} ${minor}`);
    }
  });
});
