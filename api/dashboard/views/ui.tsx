// Building blocks of the dashboard pages (Preact components rendered to strings on the server;
// every text and attribute value is escaped by the renderer). Forms post to the dashboard with
// the session's CSRF token; an API error that names a field is shown next to that field.
import { randomBytes } from 'node:crypto';
import { createContext, type ComponentChildren, type JSX } from 'preact';
import { useContext } from 'preact/hooks';
import { displayStyleOf, formatMoney, isSupportedCurrency, minorUnitExponent } from '../../../src/billing/currency';
import { formatCalendarDay, formatMonth } from '../../../src/billing/calendar-day';
import { DASHBOARD_MESSAGES, fillText, type DashboardLocale, type DashboardMessages } from '../i18n';

/**
 * The page's language, provided around every page by sendPage (render.tsx), so the shared views
 * (tables, status words, pagination, …) speak it without each page passing it down.
 */
export const LocaleContext = createContext<DashboardLocale>('en');

/** The page's language and its texts, inside a component rendered by sendPage. */
export function useLocale(): { locale: DashboardLocale; t: DashboardMessages } {
  const locale = useContext(LocaleContext);
  return { locale, t: DASHBOARD_MESSAGES[locale] };
}

export interface FormState {
  values?: Record<string, string | string[] | undefined>;
  /** Messages by field name (the API's `param`). */
  errors?: Record<string, string>;
  /** An error that names no field on this form. */
  formError?: string;
}

export function money(amount: bigint | number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined) return '—';
  return formatMoney(amount, currency);
}

/**
 * A UTC calendar day, one form per language: "28 Nov 2026" (formatCalendarDay's English) and
 * "28. nóv. 2026" (the day before the dashboard's month, formatMonth's "nóv. 2026": short enough
 * for a table column; documents write "28. nóvember 2026"). Exports keep ISO 8601.
 */
export function day(d: Date | null | undefined, locale: DashboardLocale = 'en'): string {
  if (!d) return '—';
  return locale === 'is' ? `${d.getUTCDate()}. ${formatMonth(d, 'is')}` : formatCalendarDay(d, 'en');
}

/**
 * A moment: "28 Nov 2026, 14:05 UTC", "28. nóv. 2026 kl. 14:05 UTC". The day and the time each
 * stay on one line (no-break spaces; `at_time` has one after "kl."), so a narrow column wraps a
 * moment in two lines, not four.
 */
export function when(d: Date | null | undefined, locale: DashboardLocale = 'en'): string {
  if (!d) return '—';
  const nb = (x: string) => x.replace(/ /g, '\u00a0');
  return fillText(DASHBOARD_MESSAGES[locale].at_time, { day: nb(day(d, locale)), time: nb(`${d.toISOString().slice(11, 16)} UTC`) });
}

/** "28 Nov 2026 – 28 Dec 2026": a period of days. */
export function period(start: Date | null | undefined, end: Date | null | undefined, locale: DashboardLocale = 'en'): string {
  return `${day(start, locale)} – ${day(end, locale)}`;
}

/** A status word in the page's language (e.g. for a select's options). */
export function statusWord(value: string, t: DashboardMessages): string {
  const key = `st_${value}` as keyof DashboardMessages;
  return key in t ? t[key] : value.replace(/_/g, ' ');
}

/** A dashboard role in the page's language (the account bar, Team, an invitation). */
export function roleWord(role: string, t: DashboardMessages): string {
  const key = `role_${role}` as keyof DashboardMessages;
  return key in t ? t[key] : role.replace(/_/g, ' ');
}

const GOOD = new Set(['succeeded', 'paid', 'active', 'enabled', 'complete', 'issued', 'ok', 'trialing', 'on', 'yes']);
const WARN = new Set(['pending', 'open', 'draft', 'past_due', 'paused', 'requires_payment_method', 'processing', 'advancing', 'disabled']);
const BAD = new Set(['failed', 'canceled', 'void', 'uncollectible', 'unpaid', 'denied', 'expired', 'revoked', 'error', 'disconnected']);

/** A status badge: the word in the page's language, the API's value in `data-status`. */
export function Status({ value }: { value: string | null | undefined }) {
  const { t } = useLocale();
  const v = value ?? '—';
  const tone = GOOD.has(v) ? 'ok' : WARN.has(v) ? 'warn' : BAD.has(v) ? 'bad' : '';
  return (
    <span class={`badge ${tone}`} data-status={value ?? undefined}>
      {value ? statusWord(v, t) : v}
    </span>
  );
}

export function Panel({ title, children, id }: { title?: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="panel" id={id} aria-labelledby={title && id ? `${id}-title` : undefined}>
      {title ? <h2 id={id ? `${id}-title` : undefined}>{title}</h2> : null}
      {children}
    </section>
  );
}

export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
  num?: boolean;
  /** Keep the cell on one line (dates, times). */
  nowrap?: boolean;
  /**
   * What the cell is, for the phone layout (cards): `title` names the row (a person, a number),
   * `status` and `amount` come first on the card; `id` cells are secondary.
   */
  role?: 'title' | 'status' | 'amount' | 'id';
}

/**
 * A table on a laptop; below 800 px each row becomes a card (dashboard.css) whose title, status
 * and amount come first and whose other cells carry their column's name (`data-label`).
 */
export function Table<T>({ columns, rows, empty, caption }: { columns: Column<T>[]; rows: T[]; empty: string; caption?: string }) {
  const { t } = useLocale();
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    // A region that may scroll sideways on narrow laptops: focusable, so a keyboard can scroll it.
    <div class="table-wrap" tabIndex={0} role="region" aria-label={caption ?? t.table}>
      <table class="cards">
        {caption ? <caption class="skip">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" class={c.num ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>
              {columns.map((c) => (
                <td
                  class={[c.num ? 'num' : c.nowrap ? 'nowrap' : '', c.role ? `cell-${c.role}` : ''].filter(Boolean).join(' ') || undefined}
                  data-label={c.label}
                  data-cell={c.role}
                >
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An id shown second to a name: small, monospace, selectable as a whole (to copy). */
export function IdText({ id }: { id: string }) {
  return <span class="mono id-text">{id}</span>;
}

/** "Next page" with the last row's id as starting_after (or `param`, for a second list on a page), keeping the page's other filters. */
export function Pager({
  basePath,
  query,
  hasMore,
  lastId,
  param = 'starting_after',
  label,
}: {
  basePath: string;
  query: Record<string, string | undefined>;
  hasMore: boolean;
  lastId: string | undefined;
  param?: string;
  label?: string;
}) {
  const { t } = useLocale();
  const first = Boolean(query[param]);
  if (!hasMore && !first) return null;
  const build = (extra: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...query, ...extra })) if (v) p.set(k, v);
    const s = p.toString();
    return s ? `${basePath}?${s}` : basePath;
  };
  return (
    <nav class="pager" aria-label={label ?? t.pages}>
      {first ? <a href={build({ [param]: undefined })}>{t.first_page}</a> : null}
      {hasMore && lastId ? (
        <a href={build({ [param]: lastId })} rel="next">
          {t.next_page}
        </a>
      ) : null}
    </nav>
  );
}

export function Csrf({ token }: { token: string }) {
  return <input type="hidden" name="_csrf" value={token} />;
}

export function FormErrors({ state }: { state?: FormState }) {
  if (!state?.formError) return null;
  return (
    <div class="form-error" role="alert" id="form-error">
      {state.formError}
    </div>
  );
}

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'name' | 'label' | 'value'>;

function valueOf(state: FormState | undefined, name: string, fallback?: string | null): string {
  const v = state?.values?.[name];
  if (v !== undefined) return Array.isArray(v) ? (v[0] ?? '') : v;
  return fallback ?? '';
}

/** The id of a field's input, and the ids that describe it (its hint, its error). */
function fieldIds(name: string, hint: string | undefined, error: string | undefined): { id: string; describedBy: string | undefined } {
  const id = `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return { id, describedBy: [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined };
}

function Hint({ id, hint }: { id: string; hint?: string }) {
  return hint ? (
    <span class="hint" id={`${id}-hint`}>
      {hint}
    </span>
  ) : null;
}

/** The API's message for this field (its `param`), read by the tests through data-field. */
function FieldError({ id, name, error }: { id: string; name: string; error?: string }) {
  return error ? (
    <p class="field-error" id={`${id}-error`} data-field={name}>
      {error}
    </p>
  ) : null;
}

export function Field({
  name,
  label,
  state,
  value,
  hint,
  type = 'text',
  input,
}: {
  name: string;
  label: string;
  state?: FormState;
  value?: string | null;
  hint?: string;
  type?: string;
  input?: InputProps;
}) {
  const error = state?.errors?.[name];
  const { id, describedBy } = fieldIds(name, hint, error);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <Hint id={id} hint={hint} />
      <input
        id={id}
        name={name}
        type={type}
        value={type === 'password' ? '' : valueOf(state, name, value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      <FieldError id={id} name={name} error={error} />
    </div>
  );
}

export function TextArea({ name, label, state, value, hint }: { name: string; label: string; state?: FormState; value?: string | null; hint?: string }) {
  const error = state?.errors?.[name];
  const { id, describedBy } = fieldIds(name, hint, error);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <Hint id={id} hint={hint} />
      <textarea id={id} name={name} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy}>
        {valueOf(state, name, value)}
      </textarea>
      <FieldError id={id} name={name} error={error} />
    </div>
  );
}

export function Select({
  name,
  label,
  options,
  state,
  value,
  hint,
}: {
  name: string;
  label: string;
  options: Array<[string, string]>;
  state?: FormState;
  value?: string;
  hint?: string;
}) {
  const error = state?.errors?.[name];
  const { id, describedBy } = fieldIds(name, hint, error);
  const current = valueOf(state, name, value);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <Hint id={id} hint={hint} />
      <select id={id} name={name} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy}>
        {options.map(([v, l]) => (
          <option value={v} selected={v === current}>
            {l}
          </option>
        ))}
      </select>
      <FieldError id={id} name={name} error={error} />
    </div>
  );
}

export function Checkbox({ name, label, checked, state, hint }: { name: string; label: string; checked: boolean; state?: FormState; hint?: string }) {
  const error = state?.errors?.[name];
  const { id, describedBy } = fieldIds(name, hint, error);
  // A form sent back with an error keeps what was ticked (an unticked box is not sent at all).
  const on = state?.values ? state.values[name] === 'true' : checked;
  return (
    <div class="field check">
      <input id={id} name={name} type="checkbox" value="true" checked={on} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy} />
      <label for={id}>{label}</label>
      <Hint id={id} hint={hint} />
      <FieldError id={id} name={name} error={error} />
    </div>
  );
}

/** A one-button form for an action on an object. */
export function ActionButton({
  action,
  csrf,
  label,
  confirm,
  danger,
  busy,
  hidden,
  id,
}: {
  action: string;
  csrf: string;
  label: string;
  confirm?: string;
  danger?: boolean;
  busy?: string;
  hidden?: Record<string, string>;
  id?: string;
}) {
  return (
    <form method="post" action={action} class="inline" data-confirm={confirm} data-busy={busy}>
      <Csrf token={csrf} />
      <input type="hidden" name="_idem" value={randomBytes(16).toString('base64url')} />
      {Object.entries(hidden ?? {}).map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
      <button type="submit" class={danger ? 'danger' : 'secondary'} id={id}>
        {label}
      </button>
    </form>
  );
}

export function Props({ rows }: { rows: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="props">
      {rows.map(([k, v]) => (
        <>
          <dt>{k}</dt>
          <dd>{v ?? '—'}</dd>
        </>
      ))}
    </dl>
  );
}

/** "2026-11" → "Nov 2026": the dashboard's month labels (documents and the portal write "nóv. 2026"). */
export function month(m: string, locale: 'is' | 'en' = 'en'): string {
  return formatMonth(m, locale);
}

/**
 * A chart drawn by dashboard.js from the JSON block (no inline script: it is data, not code).
 * Amounts are given in minor units and drawn in major units with the currency's own style, the
 * one `money()` writes; the text alternative lists every value written by `money()` too.
 */
export function Chart({
  id,
  title,
  spec,
  emptyText,
}: {
  id: string;
  title: string;
  emptyText?: string;
  spec: { type?: 'bar' | 'line'; labels: string[]; series: Array<{ label: string; data: number[] }>; currency?: string };
}) {
  const { t } = useLocale();
  const c = spec.currency?.toUpperCase();
  const style = c && isSupportedCurrency(c) ? displayStyleOf(c) : undefined;
  const scale = c && isSupportedCurrency(c) ? 10 ** minorUnitExponent(c) : 1;
  const allZero = spec.series.every((s) => s.data.every((v) => v === 0));
  const drawn = {
    type: spec.type,
    labels: spec.labels,
    series: spec.series.map((s) => ({ label: s.label, data: s.data.map((v) => v / scale) })),
    money: style,
    // An empty chart keeps a readable scale (not 0–1 kr.).
    suggestedMax: allZero ? (style ? 1000 : 5) : undefined,
  };
  const json = JSON.stringify(drawn).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  const summary = spec.series.map((s) => `${s.label}: ${s.data.map((v, i) => `${spec.labels[i]} ${c ? money(v, c) : v}`).join(', ')}`).join('; ');
  return (
    <figure class="chart">
      <div class="chart-box">
        <canvas id={id} role="img" aria-label={`${title}. ${summary}`}></canvas>
      </div>
      {allZero ? (
        <figcaption class="muted chart-empty" id={`${id}-empty`}>
          {emptyText ?? t.nothing_yet}
        </figcaption>
      ) : null}
      <script type="application/json" data-chart={id} dangerouslySetInnerHTML={{ __html: json }}></script>
    </figure>
  );
}

export function SecretOnce({ label, value, id }: { label: string; value: string; id: string }) {
  const { t } = useLocale();
  return (
    <div class="secret-once" role="status">
      <strong>{label}</strong>
      <code id={id}>{value}</code>
      <span class="muted">{t.copy_now}</span>
    </div>
  );
}
