// Tables of billing objects shared by several pages (a customer's page shows the same invoice
// table as the invoices page).
import type { Invoice, Payment, Subscription, SubscriptionItem } from '../../../src/generated/prisma/client';
import { amountRemaining } from '../../../src/billing/invoice-amounts';
import { Status, Table, day, money, when } from './ui';

export function InvoicesTable({ rows }: { rows: Invoice[] }) {
  return (
    <Table<Invoice>
      caption="Invoices"
      rows={rows}
      empty="No invoices."
      columns={[
        { label: 'Invoice', cell: (i) => <a href={`/dashboard/invoices/${i.id}`}>{i.number ?? i.id}</a> },
        { label: 'Status', cell: (i) => <Status value={i.status} /> },
        { label: 'Total', num: true, cell: (i) => money(i.total, i.currency) },
        { label: 'Due', num: true, cell: (i) => money(amountRemaining(i), i.currency) },
        {
          label: 'Collection',
          cell: (i) => (i.collectionMethod === 'send_invoice' ? 'bank claim' : i.collectionMethod === 'charge_automatically' ? 'card' : (i.collectionMethod ?? 'payment')),
        },
        { label: 'Due date', nowrap: true, cell: (i) => day(i.dueDate) },
        { label: 'Created', nowrap: true, cell: (i) => when(i.createdAt) },
      ]}
    />
  );
}

export function PaymentsTable({ rows }: { rows: Payment[] }) {
  return (
    <Table<Payment>
      caption="Payments"
      rows={rows}
      empty="No payments."
      columns={[
        {
          label: 'Payment',
          cell: (p) => (
            <a href={`/dashboard/payments/${p.id}`} class="mono">
              {p.id}
            </a>
          ),
        },
        { label: 'Amount', num: true, cell: (p) => money(p.amount, p.currency) },
        { label: 'Refunded', num: true, cell: (p) => (p.amountRefunded > 0n ? money(p.amountRefunded, p.currency) : '—') },
        { label: 'Status', cell: (p) => <Status value={p.status} /> },
        { label: 'Description', cell: (p) => p.description ?? '—' },
        { label: 'Failure', cell: (p) => p.failureMessage ?? '—' },
        { label: 'Created', nowrap: true, cell: (p) => when(p.createdAt) },
      ]}
    />
  );
}

export function SubscriptionsTable({ rows }: { rows: Array<{ subscription: Subscription; items: SubscriptionItem[] }> }) {
  return (
    <Table
      caption="Subscriptions"
      rows={rows}
      empty="No subscriptions."
      columns={[
        {
          label: 'Subscription',
          cell: (s) => (
            <a href={`/dashboard/subscriptions/${s.subscription.id}`} class="mono">
              {s.subscription.id}
            </a>
          ),
        },
        {
          label: 'Customer',
          cell: (s) => (
            <a href={`/dashboard/customers/${s.subscription.customerId}`} class="mono">
              {s.subscription.customerId}
            </a>
          ),
        },
        { label: 'Status', cell: (s) => <Status value={s.subscription.status} /> },
        { label: 'Items', num: true, cell: (s) => s.items.length },
        {
          label: 'Every',
          cell: (s) => `${s.subscription.intervalCount > 1 ? `${s.subscription.intervalCount} ` : ''}${s.subscription.interval}${s.subscription.intervalCount > 1 ? 's' : ''}`,
        },
        { label: 'Current period', cell: (s) => `${day(s.subscription.currentPeriodStart)} – ${day(s.subscription.currentPeriodEnd)}` },
        { label: 'Cancels', cell: (s) => (s.subscription.cancelAtPeriodEnd ? 'at period end' : '—') },
      ]}
    />
  );
}
