// Tables of billing objects shared by several pages (a customer's page shows the same invoice
// table as the invoices page). People first: each row leads with the customer's name (or e-mail),
// the plan and the amount; ids are secondary (small, selectable to copy).
import { invoiceDueDate } from '../../../src/billing/invoice-due';
import type { Customer, Invoice, Payment, Price, Product, Subscription, SubscriptionItem } from '../../../src/generated/prisma/client';
import type { TenantDb } from '../../../src/db/tenancy';
import { amountRemaining } from '../../../src/billing/invoice-amounts';
import type { DashboardMessages } from '../i18n';
import { IdText, Status, Table, day, money, period, useLocale, when } from './ui';

export type CustomerNames = Map<string, Pick<Customer, 'id' | 'name' | 'email'>>;

/** The names of the customers the rows name (one query for a page of rows). */
export async function customerNames(db: TenantDb, ids: Array<string | null | undefined>): Promise<CustomerNames> {
  const wanted = [...new Set(ids.filter((i): i is string => typeof i === 'string'))];
  if (wanted.length === 0) return new Map();
  const rows = await db.customer.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true, email: true } });
  return new Map(rows.map((c) => [c.id, c]));
}

/** The customer as a person: name (or e-mail) linked to their page, e-mail beneath. */
export function CustomerCell({ id, names }: { id: string | null; names: CustomerNames }) {
  if (!id) return <span class="muted">—</span>;
  const c = names.get(id);
  return (
    <span class="person">
      <a href={`/dashboard/customers/${id}`}>{c?.name || c?.email || id}</a>
      {c?.name ? <span class="muted sub">{c.email}</span> : null}
    </span>
  );
}

/** How an invoice is collected: card, bank claim, or (an invoice of a one-off payment) payment. */
export function collectionWord(method: string | null, t: DashboardMessages): string {
  return method === 'send_invoice' ? t.coll_bank : method === 'charge_automatically' ? t.coll_card : method === null ? t.coll_payment : method;
}

/** A payment's failure in the page's language when the acquirer's code is known, else its message. */
export function failureText(p: Pick<Payment, 'failureCode' | 'failureMessage'>, t: DashboardMessages): string | null {
  const key = `fail_${p.failureCode ?? ''}` as keyof DashboardMessages;
  return p.failureCode && key in t ? t[key] : p.failureMessage;
}

/** "Invoice INV-000002", the description the service writes on an invoice's payment, in the page's language. */
export function paymentDescription(description: string | null, t: DashboardMessages): string | null {
  const m = description ? /^Invoice (\S+)$/.exec(description) : null;
  return m ? t.invoice_description.replace('{number}', m[1]!) : description;
}

export function InvoicesTable({ rows, names, empty }: { rows: Invoice[]; names: CustomerNames; empty?: string }) {
  const { t, locale } = useLocale();
  return (
    <Table<Invoice>
      caption={t.invoices}
      rows={rows}
      empty={empty ?? t.no_invoices}
      columns={[
        { label: t.col_invoice, role: 'title', cell: (i) => <a href={`/dashboard/invoices/${i.id}`}>{i.number ?? t.draft_number}</a> },
        { label: t.col_customer, cell: (i) => <CustomerCell id={i.customerId} names={names} /> },
        { label: t.status, role: 'status', cell: (i) => <Status value={i.status} /> },
        { label: t.col_total, num: true, role: 'amount', cell: (i) => money(i.total, i.currency) },
        { label: t.col_due, num: true, cell: (i) => money(amountRemaining(i), i.currency) },
        { label: t.col_collection, cell: (i) => collectionWord(i.collectionMethod, t) },
        { label: t.col_due_date, nowrap: true, cell: (i) => day(invoiceDueDate(i), locale) },
        // The time may wrap under the day: the list keeps its id column on a laptop.
        { label: t.col_created, cell: (i) => when(i.createdAt, locale) },
        { label: t.col_id, role: 'id', cell: (i) => <IdText id={i.id} /> },
      ]}
    />
  );
}

export function PaymentsTable({ rows, names }: { rows: Payment[]; names: CustomerNames }) {
  const { t, locale } = useLocale();
  return (
    <Table<Payment>
      caption={t.payments}
      rows={rows}
      empty={t.no_payments}
      columns={[
        {
          label: t.col_customer,
          role: 'title',
          cell: (p) =>
            p.customerId ? (
              <CustomerCell id={p.customerId} names={names} />
            ) : (
              <a href={`/dashboard/payments/${p.id}`}>{paymentDescription(p.description, t) ?? t.payment_fallback}</a>
            ),
        },
        { label: t.col_amount, num: true, role: 'amount', cell: (p) => <a href={`/dashboard/payments/${p.id}`}>{money(p.amount, p.currency)}</a> },
        { label: t.status, role: 'status', cell: (p) => <Status value={p.status} /> },
        { label: t.col_refunded, num: true, cell: (p) => (p.amountRefunded > 0n ? money(p.amountRefunded, p.currency) : '—') },
        { label: t.col_description, cell: (p) => paymentDescription(p.description, t) ?? '—' },
        { label: t.col_failure, cell: (p) => failureText(p, t) ?? '—' },
        { label: t.col_created, cell: (p) => when(p.createdAt, locale) },
        {
          label: t.col_id,
          role: 'id',
          cell: (p) => (
            <a href={`/dashboard/payments/${p.id}`} class="mono id-text">
              {p.id}
            </a>
          ),
        },
      ]}
    />
  );
}

export type SubscriptionRow = { subscription: Subscription; items: SubscriptionItem[] };
export type PlanPrices = Map<string, Pick<Price, 'id' | 'unitAmount' | 'currency' | 'recurringUsageType'> & { product: Pick<Product, 'name'> }>;

/** The prices (with their products' names) of the rows' items (one query for a page of rows). */
export async function planPrices(db: TenantDb, rows: SubscriptionRow[]): Promise<PlanPrices> {
  const ids = [...new Set(rows.flatMap((r) => r.items.map((i) => i.priceId)))];
  if (ids.length === 0) return new Map();
  const prices = await db.price.findMany({
    where: { id: { in: ids } },
    select: { id: true, unitAmount: true, currency: true, recurringUsageType: true, product: { select: { name: true } } },
  });
  return new Map(prices.map((p) => [p.id, p]));
}

/** "Pro ×2, Support": the products of the items. */
function planOf(s: SubscriptionRow, prices: PlanPrices): string {
  const names = s.items.map((i) => `${prices.get(i.priceId)?.product.name ?? i.priceId}${i.quantity > 1 ? ` ×${i.quantity}` : ''}`);
  return names.length ? names.join(', ') : '—';
}

/** The list price of a period: fixed-price items' unit amount × quantity (usage is billed on top). */
function periodAmount(s: SubscriptionRow, prices: PlanPrices, t: DashboardMessages): string {
  let sum = 0n;
  let usage = false;
  for (const i of s.items) {
    const p = prices.get(i.priceId);
    if (!p || p.unitAmount === null || p.recurringUsageType === 'metered') usage = true;
    else sum += p.unitAmount * BigInt(i.quantity);
  }
  return `${money(sum, s.subscription.currency)} / ${everyInterval(s.subscription.interval, s.subscription.intervalCount, t)}${usage ? ` ${t.plus_usage}` : ''}`;
}

/** "month", "3 months" ("mán.", "3 mán."): the unit after "4.990 kr. /". */
export function everyInterval(interval: string, count: number, t: DashboardMessages): string {
  const key = `per_${interval}${count > 1 ? 's' : ''}` as keyof DashboardMessages;
  const word = key in t ? t[key] : `${interval}${count > 1 ? 's' : ''}`;
  return count > 1 ? `${count} ${word}` : word;
}

export function SubscriptionsTable({ rows, names, prices }: { rows: SubscriptionRow[]; names: CustomerNames; prices: PlanPrices }) {
  const { t, locale } = useLocale();
  return (
    <Table
      caption={t.subscriptions}
      rows={rows}
      empty={t.no_subscriptions}
      columns={[
        { label: t.col_customer, role: 'title', cell: (s) => <CustomerCell id={s.subscription.customerId} names={names} /> },
        { label: t.status, role: 'status', cell: (s) => <Status value={s.subscription.status} /> },
        { label: t.col_amount, num: true, role: 'amount', cell: (s) => periodAmount(s, prices, t) },
        { label: t.col_plan, cell: (s) => <a href={`/dashboard/subscriptions/${s.subscription.id}`}>{planOf(s, prices)}</a> },
        { label: t.col_current_period, cell: (s) => period(s.subscription.currentPeriodStart, s.subscription.currentPeriodEnd, locale) },
        { label: t.col_cancels, cell: (s) => (s.subscription.cancelAtPeriodEnd ? t.at_period_end : '—') },
        {
          label: t.col_id,
          role: 'id',
          cell: (s) => (
            <a href={`/dashboard/subscriptions/${s.subscription.id}`} class="mono id-text">
              {s.subscription.id}
            </a>
          ),
        },
      ]}
    />
  );
}
