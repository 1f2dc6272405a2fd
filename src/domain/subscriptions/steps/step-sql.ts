// What the billing steps share (src/domain/subscriptions/steps/, one file per step): their
// deps and outcome, and the statements more than one step runs — the invoice locked and read (with
// its lines and payment), the invoice's event, the collection-status refresh after an invoice
// changes, the next attempt moved with its event. Raw SQL filters every table by merchant and
// mode explicitly (src/db/tenancy.ts); rows come back typed by src/db/raw-rows.ts.
import type { Db } from '../../../db/client';
import type { Tenant, TenantDb } from '../../../db/tenancy';
import { Prisma, type Invoice, type InvoiceLine, type Payment } from '../../../generated/prisma/client';
import { recordEvent, type RecordedEvent } from '../../../events';
import { camelRow, jsonRow, jsonRows } from '../../../db/raw-rows';
import type { GatewayRefusal, ModeGateways } from '../../../gateways';
import type { InvoiceStepInput, SubscriptionRef, SubscriptionView } from '../../../contracts/subscriptions';
import { presentInvoice } from '../../../objects/invoices';
import { refreshCollectionStatus } from '../collection-status';

export interface StepOutcome {
  events: RecordedEvent[];
  /**
   * The subscription's view after the step, read in the step's own last statement when it could
   * be (a charge attempt that left the subscription's status alone; a finalization with a write of
   * its subscription alongside); otherwise undefined, and the caller reads it after commit.
   */
  view?: SubscriptionView | null;
}

/** What the steps that call an outside system need: the root client (never a transaction) and the gateways. */
export interface BillingStepDeps {
  db: Db;
  gateways: ModeGateways;
}

export function tenantOf(input: InvoiceStepInput): Tenant {
  return { merchantId: input.merchantId, mode: input.mode };
}

/** A write of one subscription row (an UPDATE filtered by id, merchant and mode, `RETURNING *`) that a step's statement runs too. */
export interface SubscriptionWrite {
  ref: SubscriptionRef;
  update: Prisma.Sql;
}

/** Locks the invoice and reads it, in one statement (src/db/raw-rows.ts). */
export async function lockInvoice(tx: TenantDb, tenant: Tenant, id: string): Promise<Invoice | null> {
  const rows = await tx.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM invoices
    WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR UPDATE`;
  return rows[0] ? camelRow<Invoice>(rows[0]) : null;
}

/**
 * Locks the invoice and reads it with its lines and its payment (if any), in one statement: what
 * a finalization or a charge outcome needs before it writes (src/db/raw-rows.ts jsonRows).
 */
export async function lockInvoiceForStep(tx: TenantDb, tenant: Tenant, id: string): Promise<{ invoice: Invoice; lines: InvoiceLine[]; payment: Payment | null } | null> {
  const rows = await tx.$queryRaw<Array<Record<string, unknown>>>`SELECT i.*,
      (SELECT json_agg(to_jsonb(l) ORDER BY l.position) FROM invoice_lines l
        WHERE l.merchant_id = i.merchant_id AND l.mode = i.mode AND l.invoice_id = i.id) AS step_lines,
      (SELECT to_jsonb(p) FROM payments p WHERE p.merchant_id = i.merchant_id AND p.mode = i.mode AND p.id = i.payment_id) AS step_payment
    FROM invoices i
    WHERE i.id = ${id} AND i.merchant_id = ${tenant.merchantId} AND i.mode = ${tenant.mode}::"Mode" FOR UPDATE`;
  const row = rows[0];
  if (!row) return null;
  const { step_lines: lines, step_payment: payment, ...invoice } = row;
  return {
    invoice: camelRow<Invoice>(invoice),
    lines: jsonRows<InvoiceLine>('InvoiceLine', lines as Array<Record<string, unknown>> | null),
    payment: jsonRow<Payment | null>('Payment', (payment ?? null) as Record<string, unknown> | null),
  };
}

/** The statement's WITH clause: the parts that are there, comma-separated. */
export function withClause(parts: Array<Prisma.Sql | null>): Prisma.Sql {
  return Prisma.join(
    parts.filter((p): p is Prisma.Sql => p !== null),
    ',',
  );
}

export async function invoiceEvent(
  tx: TenantDb,
  tenant: Tenant,
  type: 'invoice.finalized' | 'invoice.paid' | 'invoice.payment_failed' | 'invoice.updated',
  inv: Invoice,
  known?: InvoiceLine[],
): Promise<RecordedEvent> {
  const lines = known ?? (await tx.invoiceLine.findMany({ where: { invoiceId: inv.id }, orderBy: { position: 'asc' } }));
  return recordEvent(tx, tenant, { type, data: presentInvoice(inv, lines) });
}

/** The columns that record a failed collection attempt on the invoice (API `last_payment_error`). */
export function paymentError(refusal: GatewayRefusal, now: Date) {
  return { lastPaymentErrorCode: refusal.code, lastPaymentErrorMessage: refusal.message, lastPaymentErrorAt: now };
}

export async function afterInvoiceChange(tx: TenantDb, tenant: Tenant, inv: Invoice, now: Date, events: RecordedEvent[]): Promise<void> {
  if (!inv.subscriptionId) return;
  const sub = await tx.subscription.findFirst({ where: { id: inv.subscriptionId } });
  if (!sub) return;
  const r = await refreshCollectionStatus(tx, tenant, sub, now);
  events.push(...r.events);
}

/**
 * The invoice and its customer's default payment method (attached), in one statement: what a
 * charge attempt reads before it calls the acquirer.
 */
export async function invoiceToCharge(
  db: TenantDb,
  tenant: Tenant,
  invoiceId: string,
): Promise<{ invoice: Invoice | null; paymentMethod: { id: string; acquirerToken: string | null } | null }> {
  const rows = await db.$queryRaw<Array<Record<string, unknown>>>`
    SELECT i.*, pm.id AS charge_pm_id, pm.acquirer_token AS charge_pm_token
    FROM invoices i
    LEFT JOIN customers c ON c.merchant_id = i.merchant_id AND c.mode = i.mode AND c.id = i.customer_id
    LEFT JOIN payment_methods pm ON pm.merchant_id = i.merchant_id AND pm.mode = i.mode AND pm.id = c.default_payment_method_id AND pm.detached_at IS NULL
    WHERE i.id = ${invoiceId} AND i.merchant_id = ${tenant.merchantId} AND i.mode = ${tenant.mode}::"Mode"`;
  const row = rows[0];
  if (!row) return { invoice: null, paymentMethod: null };
  const { charge_pm_id: pmId, charge_pm_token: pmToken, ...invoice } = row;
  return { invoice: camelRow<Invoice>(invoice), paymentMethod: pmId ? { id: pmId as string, acquirerToken: (pmToken as string | null) ?? null } : null };
}

/**
 * Moves an open invoice's next collection attempt (a bank claim's next check) and, when it
 * changes, records `invoice.updated` in the same transaction: next_payment_attempt never
 * changes without an event (docs/events.md).
 */
export async function moveNextAttempt(tx: TenantDb, tenant: Tenant, locked: Invoice, next: Date | null): Promise<RecordedEvent[]> {
  if ((locked.nextPaymentAttemptAt?.getTime() ?? null) === (next?.getTime() ?? null)) return [];
  const updated = await tx.invoice.update({ where: { id: locked.id }, data: { nextPaymentAttemptAt: next } });
  return [await invoiceEvent(tx, tenant, 'invoice.updated', updated)];
}
