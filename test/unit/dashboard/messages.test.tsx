// The dashboard's Icelandic texts (issue 31): every English key has an Icelandic text, none is
// left in English but for words that are the same in both languages, placeholders survive the
// translation; the shared views speak the page's language (status words with the API value kept
// in data-status, dates in one form per language).
import assert from 'node:assert/strict';
import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import { DASHBOARD_MESSAGES } from '../../../api/dashboard/i18n';
import { LocaleContext, Pager, Status, day, when } from '../../../api/dashboard/views/ui';
import { everyInterval } from '../../../api/dashboard/views/tables';
import { NOTICES, noticeOf } from '../../../api/dashboard/render';
import type { AppContext } from '../../../api/context';

/** Texts that are the same in Icelandic and English (a name, an abbreviation): keep this list short. */
const SAME_IN_BOTH = new Set(['col_kennitala', 'set_f_kennitala']);

describe('dashboard messages (en, is)', () => {
  const { en, is } = DASHBOARD_MESSAGES;

  it('has an Icelandic text for every English key, and no Icelandic key without an English one', () => {
    const missing = Object.keys(en).filter((k) => !(k in is) || (is as Record<string, string>)[k]!.trim() === '');
    assert.deepEqual(missing, []);
    assert.deepEqual(
      Object.keys(is).filter((k) => !(k in en)),
      [],
    );
  });

  it('leaves no Icelandic text equal to the English one, except the allow-list', () => {
    const same = Object.entries(en)
      .filter(([k, v]) => (is as Record<string, string>)[k] === v && !SAME_IN_BOTH.has(k))
      .map(([k, v]) => `${k}: ${v}`);
    assert.deepEqual(same, []);
    for (const k of SAME_IN_BOTH) assert.ok(k in en, `${k} is still a key (drop it from the allow-list otherwise)`);
  });

  it('keeps every {placeholder} of the English text', () => {
    const lost: string[] = [];
    for (const [k, v] of Object.entries(en)) {
      for (const p of v.match(/\{\w+\}/g) ?? []) if (!(is as Record<string, string>)[k]!.includes(p)) lost.push(`${k}: ${p}`);
    }
    assert.deepEqual(lost, []);
  });
});

describe('shared views in the page language', () => {
  const inIcelandic = (node: ComponentChildren) => render(<LocaleContext.Provider value="is">{node}</LocaleContext.Provider>);

  it('writes a status word in Icelandic and keeps the API value in data-status', () => {
    const html = inIcelandic(<Status value="past_due" />);
    assert.match(html, /data-status="past_due"/);
    assert.match(html, />í vanskilum</);
    assert.match(render(<Status value="past_due" />), />past due</, 'English outside a provider');
    assert.match(inIcelandic(<Status value="something_new" />), />something new</, 'an unknown status stays readable');
  });

  it('writes days and moments in one form per language', () => {
    const at = new Date('2026-11-28T14:05:09.000Z');
    assert.equal(day(at, 'is'), '28. nóv. 2026');
    assert.equal(day(at, 'en'), '28 Nov 2026');
    assert.equal(when(at, 'is'), '28.\u00a0nóv.\u00a02026 kl.\u00a014:05\u00a0UTC', 'wraps only before "kl."');
    assert.equal(day(new Date('2027-03-01T00:00:00.000Z'), 'is'), '1. mars 2027');
    assert.equal(when(at, 'en'), '28\u00a0Nov\u00a02026, 14:05\u00a0UTC', 'wraps only after the comma');
    assert.equal(when(null, 'is'), '—');
  });

  it('writes intervals and pagination in Icelandic', () => {
    assert.equal(everyInterval('month', 1, DASHBOARD_MESSAGES.is), 'mán.');
    assert.equal(everyInterval('month', 3, DASHBOARD_MESSAGES.is), '3 mán.');
    assert.equal(everyInterval('year', 2, DASHBOARD_MESSAGES.en), '2 years');
    const pager = inIcelandic(<Pager basePath="/dashboard/invoices" query={{ starting_after: 'in_1' }} hasMore={true} lastId="in_2" />);
    assert.match(pager, /« Fyrsta síða/);
    assert.match(pager, /Næsta síða »/);
    assert.match(pager, /aria-label="Síður"/);
  });

  it('looks notices up by key in the page language, and never reflects an unknown key', () => {
    const ctx = (notice: string) => ({ query: { notice } }) as unknown as AppContext;
    assert.equal(noticeOf(ctx('invoice_voided'), 'is'), 'Reikningurinn var ógiltur.');
    assert.equal(noticeOf(ctx('invoice_voided'), 'en'), 'The invoice was voided.');
    assert.equal(noticeOf(ctx('<script>'), 'is'), null);
    assert.equal(noticeOf(ctx('toString'), 'is'), null);
    for (const [key, text] of Object.entries(NOTICES)) assert.equal(noticeOf(ctx(key), 'en'), text, `${key} has its n_${key} text`);
  });
});
