// Server-rendered checkout HTML. Every value from a session, a merchant or a request goes
// through escapeHtml (text and attribute values alike) or, for the page's configuration, through
// jsonForScript (a JSON block that is data, never executed). No inline script or style: the CSP
// (./security.ts) allows only the same-origin assets under /checkout/assets/.
import escapeHtml from 'escape-html';
import type { CheckoutLocale, Messages } from './i18n';

/** JSON inside <script type="application/json">: nothing in it can close the element or start markup. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export const ASSET_VERSION = '1';

function layout(opts: { locale: CheckoutLocale; title: string; body: string; config?: unknown; script?: boolean }): string {
  const config = opts.config === undefined ? '' : `\n<script type="application/json" id="checkout-config">${jsonForScript(opts.config)}</script>`;
  const script = opts.script === false ? '' : `\n<script src="/checkout/assets/checkout.js?v=${ASSET_VERSION}" defer></script>`;
  return `<!doctype html>
<html lang="${escapeHtml(opts.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(opts.title)}</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css?v=${ASSET_VERSION}">${script}
</head>
<body>
${opts.body}${config}
</body>
</html>
`;
}

export interface CheckoutView {
  locale: CheckoutLocale;
  t: Messages;
  merchantName: string;
  amountLabel: string;
  description: string | null;
  testMode: boolean;
  card: boolean;
  wallets: Array<'apple_pay' | 'google_pay'>;
  customerEmail: string | null;
  offerSave: boolean;
  cancelUrl: string | null;
}

const WALLET_LABEL: Record<'apple_pay' | 'google_pay', string> = { apple_pay: 'Apple Pay', google_pay: 'Google Pay' };

function summary(v: CheckoutView): string {
  return `<section class="summary" aria-labelledby="merchant-name">
  <div class="merchant">
    <span class="merchant-mark" aria-hidden="true" id="merchant-initial">${escapeHtml(Array.from(v.merchantName.trim())[0]?.toUpperCase() ?? '')}</span>
    <h1 id="merchant-name">${escapeHtml(v.merchantName)}</h1>
  </div>
  <span class="badge" id="test-badge"${v.testMode ? '' : ' hidden'} data-i18n="test_mode">${escapeHtml(v.t.test_mode)}</span>
  <p class="description" id="description"${v.description ? '' : ' hidden'}>${escapeHtml(v.description ?? '')}</p>
  <div class="total"><span data-i18n="total">${escapeHtml(v.t.total)}</span><strong id="amount">${escapeHtml(v.amountLabel)}</strong></div>
</section>`;
}

function walletButtons(v: CheckoutView, all: boolean): string {
  const list: Array<'apple_pay' | 'google_pay'> = all ? ['apple_pay', 'google_pay'] : v.wallets;
  if (list.length === 0) return '';
  const buttons = list
    .map(
      (w) => `<button type="button" class="wallet wallet-${w}" id="pay-${w}" data-wallet="${w}"${v.wallets.includes(w) ? '' : ' hidden'}>${escapeHtml(WALLET_LABEL[w])}</button>`,
    )
    .join('\n      ');
  return `<div class="wallets" id="wallets"${v.wallets.length ? '' : ' hidden'}>
      ${buttons}
      <p class="divider" id="or-card"${v.card ? '' : ' hidden'}><span data-i18n="or_card">${escapeHtml(v.t.or_card)}</span></p>
    </div>
    <div class="wallet-sheet" id="wallet-sheet" role="dialog" aria-labelledby="wallet-sheet-title" hidden>
      <h2 id="wallet-sheet-title" data-i18n="wallet_sheet_title">${escapeHtml(v.t.wallet_sheet_title)}</h2>
      <p class="wallet-name" id="wallet-name"></p>
      <label for="wallet-card" data-i18n="wallet_sheet_help">${escapeHtml(v.t.wallet_sheet_help)}</label>
      <select id="wallet-card">
        <option value="4242424242424242" data-i18n="wallet_card_ok">${escapeHtml(v.t.wallet_card_ok)}</option>
        <option value="4000000000000002" data-i18n="wallet_card_declined">${escapeHtml(v.t.wallet_card_declined)}</option>
        <option value="4000000000009995" data-i18n="wallet_card_funds">${escapeHtml(v.t.wallet_card_funds)}</option>
      </select>
      <div class="sheet-actions">
        <button type="button" class="secondary" id="wallet-back" data-i18n="wallet_back">${escapeHtml(v.t.wallet_back)}</button>
        <button type="button" class="primary" id="wallet-confirm" data-i18n="wallet_confirm">${escapeHtml(v.t.wallet_confirm)}</button>
      </div>
    </div>`;
}

function field(id: string, labelKey: keyof Messages, t: Messages, input: string): string {
  return `<div class="field" id="field-${id}">
        <label for="${id}" data-i18n="${labelKey}">${escapeHtml(t[labelKey])}</label>
        ${input}
        <p class="field-error" id="${id}-error" role="alert" hidden></p>
      </div>`;
}

/**
 * The payment form. `all` renders every optional part (hidden as needed) for the embedded page,
 * whose script shows the parts its session enables once it has loaded the session.
 */
function paymentForm(v: CheckoutView, all: boolean): string {
  const t = v.t;
  // No name attributes and no action: the card data is never submitted as a form (the CSP's
  // form-action 'none' blocks it too), only sent by the script as JSON.
  const email = field(
    'email',
    'email',
    t,
    `<input id="email" type="email" autocomplete="email" inputmode="email" maxlength="254" value="${escapeHtml(v.customerEmail ?? '')}" required>`,
  );
  const card =
    !v.card && !all
      ? ''
      : `<form id="card-form" class="card-form" novalidate autocomplete="on"${v.card ? '' : ' hidden'}>
      ${field('card-number', 'card_number', t, `<input id="card-number" autocomplete="cc-number" inputmode="numeric" maxlength="23" placeholder="1234 1234 1234 1234" required>`)}
      <div class="row">
      ${field('card-expiry', 'expiry', t, `<input id="card-expiry" autocomplete="cc-exp" inputmode="numeric" maxlength="7" placeholder="MM/YY" required>`)}
      ${field('card-cvc', 'cvc', t, `<input id="card-cvc" autocomplete="cc-csc" inputmode="numeric" maxlength="4" placeholder="123" required>`)}
      </div>
      ${field('card-name', 'name', t, `<input id="card-name" autocomplete="cc-name" maxlength="100">`)}
      ${v.offerSave || all ? `<label class="save" id="save-row"${v.offerSave ? '' : ' hidden'}><input type="checkbox" id="save-card"> <span data-i18n="save_card">${escapeHtml(t.save_card)}</span></label>` : ''}
      <button type="submit" class="primary pay" id="pay-button"><span id="pay-label" data-i18n="pay">${escapeHtml(t.pay)}</span> <span id="pay-amount">${escapeHtml(v.amountLabel)}</span></button>
    </form>`;
  return `<section class="pay-panel" id="pay-panel">
    ${email}
    ${walletButtons(v, all)}
    ${card}
    <p class="form-error" id="form-error" role="alert" hidden></p>
    <p class="secure" data-i18n="secure_note">${escapeHtml(t.secure_note)}</p>
    ${v.cancelUrl ? `<a class="cancel" id="cancel-link" href="${escapeHtml(v.cancelUrl)}" data-i18n="cancel">${escapeHtml(t.cancel)}</a>` : ''}
  </section>
  <section class="done" id="done" hidden>
    <div class="done-mark" aria-hidden="true">✓</div>
    <h2 data-i18n="complete_title">${escapeHtml(t.complete_title)}</h2>
    <p id="done-text" data-i18n="complete_body">${escapeHtml(t.complete_body)}</p>
  </section>`;
}

export function hostedCheckoutPage(v: CheckoutView, config: unknown): string {
  const body = `<main class="checkout" id="checkout" data-state="ready">
  ${summary(v)}
  ${paymentForm(v, false)}
</main>`;
  return layout({ locale: v.locale, title: `${v.t.title} · ${v.merchantName}`, body, config });
}

/** The embedded element's page: an empty shell until the mounting script hands over the client secret. */
export function embeddedCheckoutPage(v: CheckoutView, config: unknown): string {
  const body = `<main class="checkout embedded" id="checkout" data-state="loading">
  <p class="loading" id="loading" data-i18n="loading">${escapeHtml(v.t.loading)}</p>
  <div id="content" hidden>
  ${summary(v)}
  ${paymentForm(v, true)}
  </div>
  <section class="notice" id="notice" hidden><h2 id="notice-title"></h2><p id="notice-body"></p></section>
</main>`;
  return layout({ locale: v.locale, title: v.t.title, body, config });
}

/** Complete, expired, closed and not-found pages (no script needed). */
export function statusPage(opts: {
  locale: CheckoutLocale;
  t: Messages;
  kind: 'complete' | 'expired' | 'closed' | 'not_found';
  merchantName?: string;
  link?: { href: string; label: string } | null;
}): string {
  const { t } = opts;
  const [title, text] =
    opts.kind === 'complete'
      ? [t.complete_title, t.complete_body]
      : opts.kind === 'expired'
        ? [t.expired_title, t.expired_body]
        : opts.kind === 'closed'
          ? [t.closed_title, t.closed_body]
          : [t.not_found_title, t.not_found_body];
  const merchant = opts.merchantName ? `<p class="merchant-line">${escapeHtml(opts.merchantName)}</p>` : '';
  const link = opts.link ? `<a class="primary button" id="status-link" href="${escapeHtml(opts.link.href)}">${escapeHtml(opts.link.label)}</a>` : '';
  const body = `<main class="checkout status status-${opts.kind}" id="checkout" data-state="${opts.kind}">
  <section class="notice">
    ${merchant}
    ${opts.kind === 'complete' ? '<div class="done-mark" aria-hidden="true">✓</div>' : ''}
    <h1>${escapeHtml(title)}</h1>
    <p>${escapeHtml(text)}</p>
    ${link}
  </section>
</main>`;
  return layout({ locale: opts.locale, title, body, script: false });
}
