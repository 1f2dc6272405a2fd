// The developer, settings, team, account and sign-in pages' texts (api/dashboard/messages-settings.ts):
// Icelandic has every English key, no text is empty or left in English by mistake, the
// placeholders agree, the dashboard's merged messages carry them, api/dashboard/pages/l10n-settings.tsx
// translates the API messages it knows, and the shared words these pages use (roles, status words,
// moments: api/dashboard/views/ui.tsx) speak both languages.
import assert from 'node:assert/strict';
import { SETTINGS_MESSAGES } from '../../../api/dashboard/messages-settings';
import { DASHBOARD_MESSAGES } from '../../../api/dashboard/i18n';
import { errorText } from '../../../api/dashboard/pages/l10n-settings';
import { roleWord, statusWord, when } from '../../../api/dashboard/views/ui';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('settings pages messages (en, is)', () => {
  const en = SETTINGS_MESSAGES.en as Record<string, string>;
  const is = SETTINGS_MESSAGES.is as Record<string, string>;

  it('Icelandic has every English key and no other', () => {
    assert.deepEqual(Object.keys(is).sort(), Object.keys(en).sort());
    assert.ok(Object.keys(en).length > 250, `${Object.keys(en).length} keys`);
  });

  it('no text is empty, and each keeps the same placeholders', () => {
    for (const [k, v] of Object.entries(en)) {
      assert.ok(v.trim() !== '' && (is[k] ?? '').trim() !== '', k);
      assert.deepEqual(placeholders(is[k]!), placeholders(v), k);
    }
  });

  it('Icelandic texts differ from English except names, codes and words the same in both', () => {
    const same = Object.keys(en).filter((k) => en[k] === is[k]);
    // Kennitala, a placeholder-only status word and the like may be equal; a sentence may not.
    assert.deepEqual(
      same.filter((k) => en[k]!.split(' ').length > 2),
      [],
      `left in English: ${same.join(', ')}`,
    );
  });

  it('the dashboard messages carry them in both languages', () => {
    for (const locale of ['en', 'is'] as const) {
      const t = DASHBOARD_MESSAGES[locale] as Record<string, string>;
      for (const [k, v] of Object.entries(SETTINGS_MESSAGES[locale])) assert.equal(t[k], v, `${locale}.${k}`);
    }
    assert.equal(DASHBOARD_MESSAGES.is.nav_team, 'Teymi', 'the frame keeps its own texts');
  });

  it('role names, status words and dates by language', () => {
    assert.equal(roleWord('owner', DASHBOARD_MESSAGES.is), 'Eigandi');
    assert.equal(roleWord('read_only', DASHBOARD_MESSAGES.en), 'Read-only');
    assert.equal(statusWord('succeeded', DASHBOARD_MESSAGES.is), 'tókst');
    assert.equal(statusWord('publishable', DASHBOARD_MESSAGES.is), 'birtingarlykill', 'a settings page status word in the shared set');
    assert.equal(statusWord('something_new', DASHBOARD_MESSAGES.is), 'something new', 'an unknown value as it is');
    const d = new Date('2026-11-28T14:05:09Z');
    const plain = (s: string) => s.replace(/\u00a0/g, ' ');
    assert.equal(plain(when(d, 'en')), '28 Nov 2026, 14:05 UTC');
    assert.equal(plain(when(d, 'is')), '28. nóv. 2026 kl. 14:05 UTC');
    assert.equal(plain(when(new Date('2027-03-01T09:00:00Z'), 'is')), '1. mars 2027 kl. 09:00 UTC');
    assert.equal(when(null, 'is'), '—');
  });

  it('translates the API messages it knows, with their values, and leaves others as they came', () => {
    assert.equal(errorText('Wrong e-mail or password.', 'is'), 'Rangt netfang eða lykilorð.');
    assert.equal(errorText('Wrong e-mail or password.', 'en'), 'Wrong e-mail or password.');
    assert.equal(
      errorText('Too many failed sign-ins for this e-mail: it is locked for 15 minutes, until 14:20 UTC. Wait, or ask an owner to check the account.', 'is'),
      'Of margar misheppnaðar innskráningar á þetta netfang: því er læst í 15 mínútur, til kl. 14:20 UTC. Bíddu, eða biddu eiganda að athuga aðganginn.',
    );
    assert.equal(errorText('A dashboard user with the e-mail a@b.is already exists', 'is'), 'Notandi stjórnborðsins með netfangið a@b.is er þegar til');
    assert.equal(errorText('url must be an https URL', 'is'), 'url must be an https URL');
  });
});
