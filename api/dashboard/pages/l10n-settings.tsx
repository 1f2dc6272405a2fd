// Language helpers of the developer, settings, team, account and sign-in pages (issue 31): role
// names, status badges (the translated word shown, the raw value kept in data-status), dates and
// times in one form per language, the notices after a redirect, the API's messages shown on a
// form, the shown-once secret and the pager — each in the page's language, with texts from
// ../messages-settings.ts.
import type { AppContext } from '../../context';
import type { DashboardRole } from '../../../src/generated/prisma/client';
import { formatMonth } from '../../../src/billing/calendar-day';
import { DASHBOARD_MESSAGES, type DashboardLocale, type DashboardMessages } from '../i18n';
import { SETTINGS_MESSAGES } from '../messages-settings';
import { noticeOf } from '../render';
import type { FormState } from '../views/ui';

export function roleLabel(t: DashboardMessages, role: DashboardRole): string {
  return t[`role_${role}`];
}

/**
 * A moment as people read it, with the month as the charts write it (formatMonth):
 * "28 Nov 2026, 14:05 UTC" / "28. nóv. 2026 kl. 14:05 UTC" (short, so a table column stays narrow).
 */
export function whenL(d: Date | null | undefined, locale: DashboardLocale): string {
  if (!d) return '—';
  const time = d.toISOString().slice(11, 16);
  const day = d.getUTCDate();
  return locale === 'is' ? `${day}. ${formatMonth(d, 'is')} kl. ${time} UTC` : `${day} ${formatMonth(d, 'en')}, ${time} UTC`;
}

const GOOD = new Set(['succeeded', 'active', 'enabled', 'on', 'yes']);
const WARN = new Set(['pending', 'disabled']);
const BAD = new Set(['failed', 'denied', 'error', 'disconnected', 'revoked']);

/** A status word in the page's language (a known one; else the raw value), the raw value in data-status. */
export function statusWord(t: DashboardMessages, value: string): string {
  const key = `sv_${value}` as keyof DashboardMessages;
  return key in t ? t[key] : value.replace(/_/g, ' ');
}

export function StatusBadge({ t, value }: { t: DashboardMessages; value: string | null | undefined }) {
  const v = value ?? '—';
  const tone = GOOD.has(v) ? 'ok' : WARN.has(v) ? 'warn' : BAD.has(v) ? 'bad' : '';
  return (
    <span class={`badge ${tone}`} data-status={v}>
      {value ? statusWord(t, v) : '—'}
    </span>
  );
}

/** The notice named by `?notice=` in the page's language (fixed texts, never reflected from the URL). */
export function pageNotice(ctx: AppContext, t: DashboardMessages): string | null {
  const key = ctx.query.notice;
  if (typeof key !== 'string' || !/^[a-z_]+$/.test(key)) return noticeOf(ctx);
  const k = `notice_${key}` as keyof DashboardMessages;
  return k in t ? t[k] : noticeOf(ctx);
}

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

/** The texts of a page without a session (sign-in, two-step, invitation). */
export function bareMessages(locale: DashboardLocale): DashboardMessages {
  return DASHBOARD_MESSAGES[locale];
}

export function SecretShown({ t, label, value, id }: { t: DashboardMessages; label: string; value: string; id: string }) {
  return (
    <div class="secret-once" role="status">
      <strong>{label}</strong>
      <code id={id}>{value}</code>
      <span class="muted">{t.c_copy_once}</span>
    </div>
  );
}

/** "Next page" with the last row's id as the cursor (`param`), keeping the page's other filters. */
export function PagerL({
  t,
  basePath,
  query,
  hasMore,
  lastId,
  param = 'starting_after',
  label,
}: {
  t: DashboardMessages;
  basePath: string;
  query: Record<string, string | undefined>;
  hasMore: boolean;
  lastId: string | undefined;
  param?: string;
  label?: string;
}) {
  const first = Boolean(query[param]);
  if (!hasMore && !first) return null;
  const build = (extra: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...query, ...extra })) if (v) p.set(k, v);
    const s = p.toString();
    return s ? `${basePath}?${s}` : basePath;
  };
  return (
    <nav class="pager" aria-label={label ?? t.c_pages}>
      {first ? <a href={build({ [param]: undefined })}>{t.c_first_page}</a> : null}
      {hasMore && lastId ? (
        <a href={build({ [param]: lastId })} rel="next">
          {t.c_next_page}
        </a>
      ) : null}
    </nav>
  );
}
