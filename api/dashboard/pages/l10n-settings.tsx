// What only the developer, settings, team, account and sign-in pages need (issue 31): the API's
// English messages shown on their forms, in the page's language (texts: ../messages-settings.ts
// `err_…`). Status words, roles, dates, notices, the pager and the shown-once secret are the shared
// ones of ../views/ui.tsx and ../render.tsx (texts: ../messages-billing.ts).
import type { DashboardLocale } from '../i18n';
import { SETTINGS_MESSAGES } from '../messages-settings';
import type { FormState } from '../views/ui';

/** The English messages these pages show, as patterns (`{x}` takes any text), with their keys. */
const KNOWN_ERRORS: Array<{ key: keyof typeof SETTINGS_MESSAGES.en; pattern: RegExp; names: string[] }> = Object.entries(SETTINGS_MESSAGES.en)
  .filter(([k]) => k.startsWith('err_') || k === 'wh_choose_event' || k === 'wh_overlap_choose')
  .map(([key, text]) => {
    const names: string[] = [];
    const source = text
      .split(/(\{\w+\})/)
      .map((part) => {
        const m = /^\{(\w+)\}$/.exec(part);
        if (m) {
          names.push(m[1]!);
          return '(.+?)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    return { key: key as keyof typeof SETTINGS_MESSAGES.en, pattern: new RegExp(`^${source}$`), names };
  });

/** An API message in the page's language when it is one these pages know; else as it came. */
export function errorText(message: string, locale: DashboardLocale): string {
  if (locale === 'en') return message;
  for (const e of KNOWN_ERRORS) {
    const m = e.pattern.exec(message);
    if (!m) continue;
    return e.names.reduce((out, name, i) => out.replace(`{${name}}`, m[i + 1]!), SETTINGS_MESSAGES.is[e.key]);
  }
  return message;
}

/** A form's state with its messages in the page's language. */
export function localState(state: FormState | undefined, locale: DashboardLocale): FormState | undefined {
  if (!state || locale === 'en') return state;
  const errors = state.errors ? Object.fromEntries(Object.entries(state.errors).map(([k, v]) => [k, errorText(v, locale)])) : undefined;
  return { ...state, errors, formError: state.formError === undefined ? undefined : errorText(state.formError, locale) };
}
