// Tables of billing objects shared by several pages (a customer's page shows the same invoice
// table as the invoices page). People first: each row leads with the customer's name (or e-mail),
// the plan and the amount; ids are secondary (small, selectable to copy).
import { invoiceDueDate } from '../../../src/billing/invoice-due';
import type { Customer, Invoice, Payment, Price, Product, Subscription, SubscriptionItem } from '../../../src/generated/prisma/client';
import type { TenantDb } from '../../../src/db/tenancy';
import { amountRemaining } from '../../../src/billing/invoice-amounts';
import { IdText, Status, Table, day, money, when } from './ui';

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

export function InvoicesTable({ rows, names, empty }: { rows: Invoice[]; names: CustomerNames; empty?: string }) {
  return (
    <Table<Invoice>
      caption="Invoices"
      rows={rows}
      empty={empty ?? 'No invoices.'}
      columns={[
        { label: 'Invoice', role: 'title', cell: (i) => <a href={`/dashboard/invoices/${i.id}`}>{i.number ?? 'Draft'}</a> },
        { label: 'Customer', cell: (i) => <CustomerCell id={i.customerId} names={names} /> },
        { label: 'Status', role: 'status', cell: (i) => <Status value={i.status} /> },
        { label: 'Total', num: true, role: 'amount', cell: (i) => money(i.total, i.currency) },
        { label: 'Due', num: true, cell: (i) => money(amountRemaining(i), i.currency) },
        {
          label: 'Collection',
          cell: (i) => (i.collectionMethod === 'send_invoice' ? 'bank claim' : i.collectionMethod === 'charge_automatically' ? 'card' : (i.collectionMethod ?? 'payment')),
        },
        { label: 'Due date', nowrap: true, cell: (i) => day(invoiceDueDate(i)) },
        { label: 'Created', nowrap: true, cell: (i) => when(i.createdAt) },
        { label: 'Id', role: 'id', cell: (i) => <IdText id={i.id} /> },
      ]}
    />
  );
}

export function PaymentsTable({ rows, names }: { rows: Payment[]; names: CustomerNames }) {
  return (
    <Table<Payment>
      caption="Payments"
      rows={rows}
      empty="No payments."
      columns={[
        {
          label: 'Customer',
          role: 'title',
          cell: (p) => (p.customerId ? <CustomerCell id={p.customerId} names={names} /> : <a href={`/dashboard/payments/${p.id}`}>{p.description ?? 'Payment'}</a>),
        },
        { label: 'Amount', num: true, role: 'amount', cell: (p) => <a href={`/dashboard/payments/${p.id}`}>{money(p.amount, p.currency)}</a> },
        { label: 'Status', role: 'status', cell: (p) => <Status value={p.status} /> },
        { label: 'Refunded', num: true, cell: (p) => (p.amountRefunded > 0n ? money(p.amountRefunded, p.currency) : '—') },
        { label: 'Description', cell: (p) => p.description ?? '—' },
        { label: 'Failure', cell: (p) => p.failureMessage ?? '—' },
        { label: 'Created', nowrap: true, cell: (p) => when(p.createdAt) },
        {
          label: 'Id',
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
function periodAmount(s: SubscriptionRow, prices: PlanPrices): string {
  let sum = 0n;
  let usage = false;
  for (const i of s.items) {
    const p = prices.get(i.priceId);
    if (!p || p.unitAmount === null || p.recurringUsageType === 'metered') usage = true;
    else sum += p.unitAmount * BigInt(i.quantity);
  }
  const every = `${s.subscription.intervalCount > 1 ? `${s.subscription.intervalCount} ` : ''}${s.subscription.interval}${s.subscription.intervalCount > 1 ? 's' : ''}`;
  return `${money(sum, s.subscription.currency)} / ${every}${usage ? ' + usage' : ''}`;
}

export function SubscriptionsTable({ rows, names, prices }: { rows: SubscriptionRow[]; names: CustomerNames; prices: PlanPrices }) {
  return (
    <Table
      caption="Subscriptions"
      rows={rows}
      empty="No subscriptions."
      columns={[
        { label: 'Customer', role: 'title', cell: (s) => <CustomerCell id={s.subscription.customerId} names={names} /> },
        { label: 'Status', role: 'status', cell: (s) => <Status value={s.subscription.status} /> },
        { label: 'Amount', num: true, role: 'amount', cell: (s) => periodAmount(s, prices) },
        { label: 'Plan', cell: (s) => <a href={`/dashboard/subscriptions/${s.subscription.id}`}>{planOf(s, prices)}</a> },
        { label: 'Current period', cell: (s) => `${day(s.subscription.currentPeriodStart)} – ${day(s.subscription.currentPeriodEnd)}` },
        { label: 'Cancels', cell: (s) => (s.subscription.cancelAtPeriodEnd ? 'at period end' : '—') },
        {
          label: 'Id',
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
