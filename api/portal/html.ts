// Server-rendered portal pages. Everything from the database or the request is escaped
// (escapeHtml) or goes into the page's JSON configuration block (jsonForScript), exactly as on
// the checkout pages; no inline script or style: the CSP (api/checkout/security.ts, shared)
// allows only /portal/assets/portal.{js,css}. Forms carry no name attributes and no action:
// the page's script sends each action as JSON with the CSRF token and the form's one-time key.
import { invoiceDueDate } from '../../src/billing/invoice-due';
import { amountRemaining } from '../../src/billing/invoice-amounts';
import { customerMayPayInvoice } from '../../src/domain/invoices/invoice-payability';
import { randomToken } from '../../src/ids';
import type { PortalOverview, PortalSubscription } from '../../src/domain/customer-portals/load-portal-overview';
import { formatDocumentDate as formatDate } from '../../src/documents/format';
import { formatMoney } from '../../src/billing/currency';
import esc from 'escape-html';
import { jsonForScript } from '../checkout/html';
import { fill, PORTAL_MESSAGES, type PortalLocale, type PortalMessageKey, type PortalMessages } from './i18n';

export const PORTAL_ASSET_VERSION = '1';

/** Messages the script needs (validation and outcomes). */
const SCRIPT_MESSAGES: PortalMessageKey[] = ['err_number', 'err_expiry', 'err_expired', 'err_cvc', 'error_generic', 'session_ended', 'working', 'saved', 'done'];

function layout(opts: { locale: PortalLocale; title: string; body: string; config?: unknown; script?: boolean }): string {
  const config = opts.config === undefined ? '' : `\n<script type="application/json" id="portal-config">${jsonForScript(opts.config)}</script>`;
  const script = opts.script === false ? '' : `\n<script src="/portal/assets/portal.js?v=${PORTAL_ASSET_VERSION}" defer></script>`;
  return `<!doctype html>
<html lang="${opts.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(opts.title)}</title>
<link rel="stylesheet" href="/portal/assets/portal.css?v=${PORTAL_ASSET_VERSION}">${config}${script}
</head>
<body>
${opts.body}
</body>
</html>`;
}

/** A form the script sends as one action; `nonce` makes a double submit the same request. */
function actionForm(opts: { url: string; label: string; id: string; confirm?: string; cls?: string; fields?: string }): string {
  return `<form class="action" id="${esc(opts.id)}" data-action="${esc(opts.url)}" data-nonce="${randomToken(24)}"${opts.confirm ? ` data-confirm="${esc(opts.confirm)}"` : ''} novalidate>
        ${opts.fields ?? ''}<button type="submit" class="${opts.cls ?? 'secondary'}">${esc(opts.label)}</button>
        <p class="form-error" role="alert" hidden></p>
      </form>`;
}

function statusLabel(t: PortalMessages, status: string): string {
  return (t as Record<string, string>)[`status_${status}`] ?? status;
}

function subscriptionCard(ps: PortalSubscription, o: PortalOverview, t: PortalMessages, locale: PortalLocale): string {
  const s = ps.subscription;
  const date = (d: Date) => formatDate(d, locale);
  const items = ps.items.map((i) => `<li>${esc(i.description)}${i.quantity !== 1 ? ` × ${i.quantity}` : ''}</li>`).join('');
  const facts: string[] = [];
  if (s.status === 'canceled') facts.push(fill(t.canceled_on, { date: date(s.endedAt ?? s.canceledAt ?? s.updatedAt) }));
  else {
    facts.push(`${esc(t.current_period)}: ${esc(date(s.currentPeriodStart))} – ${esc(date(s.currentPeriodEnd))}`);
    if (s.status === 'trialing' && s.trialEnd) facts.push(esc(fill(t.trial_ends, { date: date(s.trialEnd) })));
    if (s.cancelAtPeriodEnd) facts.push(`<strong class="cancels" id="cancels-${esc(s.id)}">${esc(fill(t.cancels_on, { date: date(s.currentPeriodEnd) }))}</strong>`);
  }
  const preview = ps.preview
    ? `<p class="next-invoice" id="next-invoice-${esc(s.id)}"><span>${esc(fill(t.next_invoice, { date: date(ps.preview.issuesAt) }))}:</span> <strong class="amount" data-amount="${ps.preview.total}">${esc(formatMoney(ps.preview.total, ps.preview.currency))}</strong></p>`
    : s.status !== 'canceled'
      ? `<p class="next-invoice none" id="next-invoice-${esc(s.id)}">${esc(t.next_invoice_none)}</p>`
      : '';
  let action = '';
  if (o.settings.allowCancel && s.status !== 'canceled') {
    action = s.cancelAtPeriodEnd
      ? actionForm({ url: `/portal/api/subscriptions/${s.id}/uncancel`, label: t.uncancel, id: `uncancel-${s.id}`, cls: 'primary' })
      : actionForm({ url: `/portal/api/subscriptions/${s.id}/cancel`, label: t.cancel, id: `cancel-${s.id}`, confirm: t.cancel_confirm });
  }
  return `<article class="card subscription" id="subscription-${esc(s.id)}" data-status="${esc(s.status)}">
      <header><ul class="items">${items}</ul><span class="badge status-${esc(s.status)}">${esc(statusLabel(t, s.status))}</span></header>
      ${facts.map((f) => `<p class="fact">${f}</p>`).join('')}
      ${preview}
      ${action}
    </article>`;
}

/** The invoice's due date (invoiceDueDate: the issue date for a card, the claim's for a bank invoice). */
function dueOn(inv: Parameters<typeof invoiceDueDate>[0], t: PortalMessages, locale: PortalLocale): string {
  const due = invoiceDueDate(inv);
  return due ? `<br /><span class="hint">${esc(fill(t.due_on, { date: formatDate(due, locale) }))}</span>` : '';
}

function invoicesSection(o: PortalOverview, t: PortalMessages, locale: PortalLocale): string {
  if (!o.settings.showInvoiceHistory) return '';
  const canPay = o.settings.allowPayInvoices;
  const hasDefaultCard = o.paymentMethods.some((pm) => pm.id === o.defaultPaymentMethodId && pm.type !== 'bank_invoice');
  const rows = o.invoices
    .map((inv) => {
      const remaining = amountRemaining(inv);
      let pay = '';
      if (canPay && customerMayPayInvoice(inv)) {
        pay = hasDefaultCard
          ? actionForm({ url: `/portal/api/invoices/${inv.id}/pay`, label: t.pay_now, id: `pay-${inv.id}`, cls: 'primary small' })
          : `<span class="hint">${esc(t.pay_needs_card)}</span>`;
      }
      return `<tr id="invoice-${esc(inv.id)}" data-status="${esc(inv.status)}">
        <td data-label="${esc(t.invoice_number)}">${esc(inv.number ?? inv.id)}</td>
        <td data-label="${esc(t.date)}">${esc(formatDate(inv.finalizedAt ?? inv.createdAt, locale))}</td>
        <td data-label="${esc(t.status)}"><span class="badge inv-${esc(inv.status)}">${esc((t as Record<string, string>)[`inv_${inv.status}`] ?? inv.status)}</span></td>
        <td class="num" data-label="${esc(t.total)}">${esc(formatMoney(Number(inv.total), inv.currency))}</td>
        <td class="num" data-label="${esc(t.due)}">${inv.status === 'open' ? `${esc(formatMoney(remaining, inv.currency))}${dueOn(inv, t, locale)}` : ''}</td>
        <td class="docs" data-label="${esc(t.documents)}"><a href="/portal/invoices/${esc(inv.id)}" target="_blank" rel="noopener">${esc(t.view)}</a> <a class="pdf" href="/portal/invoices/${esc(inv.id)}/pdf" download>${esc(t.pdf)}</a></td>
        <td>${pay}</td>
      </tr>`;
    })
    .join('');
  const table = o.invoices.length
    ? `<table class="list" id="invoice-list"><thead><tr><th>${esc(t.invoice_number)}</th><th>${esc(t.date)}</th><th>${esc(t.status)}</th><th class="num">${esc(t.total)}</th><th class="num">${esc(t.due)}</th><th>${esc(t.documents)}</th><th><span class="vh">${esc(t.actions)}</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="empty">${esc(t.no_invoices)}</p>`;
  const notes = o.creditNotes.length
    ? `<h3>${esc(t.credit_notes)}</h3><table class="list" id="credit-note-list"><tbody>${o.creditNotes
        .map(
          (
            cn,
          ) => `<tr id="credit-note-${esc(cn.id)}"><td>${esc(fill(t.credit_note_for, { number: cn.invoiceNumber ?? cn.invoiceId }))}</td><td>${esc(formatDate(cn.createdAt, locale))}</td>
        <td class="num">${esc(formatMoney(-Number(cn.amount), cn.currency))}</td>
        <td class="docs"><a href="/portal/credit_notes/${esc(cn.id)}" target="_blank" rel="noopener">${esc(t.view)}</a> <a class="pdf" href="/portal/credit_notes/${esc(cn.id)}/pdf" download>${esc(t.pdf)}</a></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  return `<section class="panel" id="invoices"><h2>${esc(t.invoices)}</h2>${table}${notes}</section>`;
}

function field(id: string, label: string, input: string): string {
  return `<div class="field" id="field-${id}"><label for="${id}">${esc(label)}</label>${input}<p class="field-error" id="${id}-error" role="alert" hidden></p></div>`;
}

function paymentMethodsSection(o: PortalOverview, t: PortalMessages, locale: PortalLocale): string {
  const edit = o.settings.allowUpdatePaymentMethods;
  const items = o.paymentMethods
    .map((pm) => {
      const isDefault = pm.id === o.defaultPaymentMethodId;
      const label = pm.type === 'bank_invoice' ? t.bank_invoice : `${(pm.brand ?? pm.type).toUpperCase()} •••• ${pm.last4 ?? ''}`;
      const exp = pm.expMonth && pm.expYear ? fill(t.expires, { date: `${String(pm.expMonth).padStart(2, '0')}/${String(pm.expYear).slice(-2)}` }) : '';
      const actions =
        edit && !isDefault && pm.type !== 'bank_invoice'
          ? `<div class="row-actions">${actionForm({ url: `/portal/api/payment_methods/${pm.id}/default`, label: t.make_default, id: `default-${pm.id}`, cls: 'secondary small' })}${actionForm({ url: `/portal/api/payment_methods/${pm.id}/remove`, label: t.remove, id: `remove-${pm.id}`, cls: 'danger small', confirm: t.remove_confirm })}</div>`
          : '';
      return `<li class="pm" id="pm-${esc(pm.id)}" data-default="${isDefault}"><span class="pm-label">${esc(label)}</span> <span class="pm-exp">${esc(exp)}</span>${isDefault ? ` <span class="badge default">${esc(t.default)}</span>` : ''}${actions}</li>`;
    })
    .join('');
  const list = o.paymentMethods.length ? `<ul class="pms" id="pm-list">${items}</ul>` : `<p class="empty">${esc(t.no_payment_methods)}</p>`;
  void locale;
  const form = edit
    ? `<details class="add-card" id="add-card"${o.paymentMethods.length ? '' : ' open'}><summary>${esc(t.add_card)}</summary>
      <form id="card-form" class="card-form" data-action="/portal/api/payment_methods" data-nonce="${randomToken(24)}" novalidate autocomplete="on">
        ${field('card-number', t.card_number, '<input id="card-number" autocomplete="cc-number" inputmode="numeric" maxlength="23" placeholder="1234 1234 1234 1234" required>')}
        <div class="row">
        ${field('card-expiry', t.expiry, '<input id="card-expiry" autocomplete="cc-exp" inputmode="numeric" maxlength="7" placeholder="MM/YY" required>')}
        ${field('card-cvc', t.cvc, '<input id="card-cvc" autocomplete="cc-csc" inputmode="numeric" maxlength="4" placeholder="123" required>')}
        </div>
        ${field('card-name', t.name_on_card, '<input id="card-name" autocomplete="cc-name" maxlength="100">')}
        <label class="check"><input type="checkbox" id="card-default" checked> ${esc(t.set_default)}</label>
        <button type="submit" class="primary" id="save-card">${esc(t.save_card)}</button>
        <p class="form-error" id="card-form-error" role="alert" hidden></p>
      </form></details>`
    : '';
  return `<section class="panel" id="payment-methods"><h2>${esc(t.payment_methods)}</h2>${list}${form}</section>`;
}

function billingSection(o: PortalOverview, t: PortalMessages): string {
  const c = o.customer;
  const input = (id: string, value: string | null, attrs = '') => `<input id="${id}" data-field="${id.replace(/^bd-/, '')}" value="${esc(value ?? '')}" ${attrs}>`;
  if (!o.settings.allowUpdateBillingDetails) {
    const lines = [
      c.email,
      c.billingAddressLine1,
      c.billingAddressLine2,
      [c.billingPostalCode, c.billingCity].filter((x) => x).join(' '),
      c.billingCountry,
      c.vatNumber ? `${t.vat_number}: ${c.vatNumber}` : null,
    ].filter((x) => x);
    return `<section class="panel" id="billing-details"><h2>${esc(t.billing_details)}</h2>${lines.map((l) => `<p>${esc(l)}</p>`).join('')}</section>`;
  }
  return `<section class="panel" id="billing-details"><h2>${esc(t.billing_details)}</h2>
    <form class="action details" id="details-form" data-action="/portal/api/billing_details" data-nonce="${randomToken(24)}" data-notice="saved" novalidate>
      ${field('bd-email', t.email, input('bd-email', c.email, 'type="email" autocomplete="email" maxlength="254" required'))}
      ${field('bd-billing_address_line1', t.address_line1, input('bd-billing_address_line1', c.billingAddressLine1, 'autocomplete="address-line1" maxlength="200"'))}
      ${field('bd-billing_address_line2', t.address_line2, input('bd-billing_address_line2', c.billingAddressLine2, 'autocomplete="address-line2" maxlength="200"'))}
      <div class="row">
      ${field('bd-billing_postal_code', t.postal_code, input('bd-billing_postal_code', c.billingPostalCode, 'autocomplete="postal-code" maxlength="20"'))}
      ${field('bd-billing_city', t.city, input('bd-billing_city', c.billingCity, 'autocomplete="address-level2" maxlength="100"'))}
      </div>
      ${field('bd-billing_country', t.country, input('bd-billing_country', c.billingCountry, 'autocomplete="country" maxlength="2"'))}
      ${field('bd-vat_number', t.vat_number, input('bd-vat_number', c.vatNumber, 'maxlength="40"'))}
      <button type="submit" class="primary">${esc(t.save)}</button>
      <p class="form-error" role="alert" hidden></p>
    </form></section>`;
}

export interface PortalPageContext {
  locale: PortalLocale;
  csrfToken: string;
  testMode: boolean;
  notice: string | null;
}

export function portalPage(o: PortalOverview, ctx: PortalPageContext): string {
  const t = PORTAL_MESSAGES[ctx.locale];
  const other: PortalLocale = ctx.locale === 'is' ? 'en' : 'is';
  const subs = o.subscriptions.length ? o.subscriptions.map((s) => subscriptionCard(s, o, t, ctx.locale)).join('\n') : `<p class="empty">${esc(t.no_subscriptions)}</p>`;
  const back = o.settings.returnUrl ? `<a class="back" id="return-link" href="${esc(o.settings.returnUrl)}">${esc(fill(t.back_to, { name: o.merchant.name }))}</a>` : '';
  const support = o.merchant.supportEmail ? `<p>${esc(fill(t.support, { email: o.merchant.supportEmail }))}</p>` : '';
  const body = `<div class="portal" id="portal">
  <header class="top">
    <div><p class="merchant" id="merchant-name">${esc(o.merchant.name)}</p><h1>${esc(fill(t.hello, { name: o.customer.name ?? o.customer.email }))}</h1></div>
    <nav>${ctx.testMode ? `<span class="badge test" id="test-badge">${esc(t.test_mode)}</span>` : ''}<a href="/portal?lang=${other}" id="lang-link" hreflang="${other}">${esc(t.language)}</a>
    ${actionForm({ url: '/portal/api/sign_out', label: t.sign_out, id: 'sign-out', cls: 'link' })}</nav>
  </header>
  <p class="notice" id="notice" role="status"${ctx.notice ? '' : ' hidden'}>${esc(ctx.notice ?? '')}</p>
  <main>
    <section class="panel" id="subscriptions"><h2>${esc(t.subscriptions)}</h2>${subs}</section>
    ${invoicesSection(o, t, ctx.locale)}
    ${paymentMethodsSection(o, t, ctx.locale)}
    ${billingSection(o, t)}
  </main>
  <footer>${back}${support}</footer>
</div>`;
  const messages = Object.fromEntries(SCRIPT_MESSAGES.map((k) => [k, t[k]]));
  return layout({ locale: ctx.locale, title: `${t.title} · ${o.merchant.name}`, body, config: { csrf: ctx.csrfToken, messages } });
}

export type PortalStatusKind = 'opening' | 'expired' | 'revoked' | 'consumed' | 'unknown' | 'no_session' | 'signed_out' | 'not_found';

/** The pages shown instead of the portal (no script), and the one that follows a link's opening. */
export function portalStatusPage(kind: PortalStatusKind, locale: PortalLocale, merchantName: string | null = null): string {
  const t = PORTAL_MESSAGES[locale];
  const merchant = merchantName ?? (locale === 'is' ? 'seljandann' : 'the seller');
  const title = t[`${kind}_title` as PortalMessageKey];
  const text = kind === 'opening' ? t.opening_body : fill(t[`${kind}_body` as PortalMessageKey], { merchant });
  const link = kind === 'opening' ? ` <a class="primary button" id="continue-link" href="/portal">${esc(t.continue)}</a>` : '';
  const refresh = kind === 'opening' ? '\n<meta http-equiv="refresh" content="0;url=/portal">' : '';
  const body = `<main class="status status-${kind}" id="portal-status" data-kind="${kind}">
  <section class="notice-card">
    ${merchantName ? `<p class="merchant">${esc(merchantName)}</p>` : ''}
    <h1>${esc(title)}</h1>
    <p>${esc(text)}${link}</p>
  </section>
</main>`;
  return layout({ locale, title, body, script: false }).replace('<meta name="referrer" content="no-referrer">', `<meta name="referrer" content="no-referrer">${refresh}`);
}
