// The billing step `check_bank_claim` (send_invoice invoices): issues the bank claim, then reads
// it on each check. The bank is called OUTSIDE our transactions with the key
// `${invoiceId}:claim` (claimKey), then one transaction records the outcome. A refusal (the bank
// refuses the claim, the payer's account is closed, no kennitala) is recorded on the invoice
// (`last_payment_error`, automatic collection stopped), never thrown (docs/subscriptions.md).
import type { Db } from '../../../db/client';
import { scopedDb, type Tenant } from '../../../db/tenancy';
import type { Invoice, InvoiceBankClaim } from '../../../generated/prisma/client';
import { datingEventsAt, type RecordedEvent } from '../../../events';
import { gatewayRefusal, type BankClaim, type BankClaims, type GatewayRefusal } from '../../../gateways';
import type { InvoiceStepInput } from '../../../contracts/subscriptions';
import { claimExpiresAt, nextClaimCheckAt } from '../dunning';
import { STEP_TX } from '../lock-subscription';
import { postInvoicePaid, postInvoiceWrittenOff } from '../../ledger/invoice-postings';
import { formatCalendarDay } from '../../../billing/calendar-day';
import { afterInvoiceChange, invoiceEvent, lockInvoice, moveNextAttempt, paymentError, tenantOf, type BillingStepDeps, type StepOutcome } from './step-sql';

/**
 * A send_invoice invoice that cannot be collected automatically (no claim could be issued, or
 * the bank dropped it): recorded once per attempt, with the invoice locked. The invoice stays
 * open and waits for the merchant (fix the customer and pay by hand, or void).
 */
async function recordClaimRefusal(db: Db, tenant: Tenant, invoiceId: string, attempt: number, refusal: GatewayRefusal, now: Date, dropClaim: boolean): Promise<StepOutcome> {
  return scopedDb(db, tenant).$transaction(async (tx) => {
    const events: RecordedEvent[] = [];
    const locked = await lockInvoice(tx, tenant, invoiceId);
    if (!locked || locked.status !== 'open' || locked.attemptCount >= attempt) return { events };
    if (dropClaim) await tx.invoiceBankClaim.deleteMany({ where: { invoiceId } });
    const updated = await tx.invoice.update({
      where: { id: locked.id },
      data: { attemptCount: attempt, nextPaymentAttemptAt: null, ...paymentError(refusal, now) },
    });
    events.push(await invoiceEvent(tx, tenant, 'invoice.payment_failed', updated));
    await afterInvoiceChange(tx, tenant, updated, now, events);
    return { events };
  }, STEP_TX);
}

/** The bank-claim idempotency key of claim attempt n (the first keeps the original form). */
export function claimKey(invoiceId: string, attempt: number): string {
  return attempt <= 1 ? `${invoiceId}:claim` : `${invoiceId}:claim:${attempt}`;
}

/**
 * send_invoice: issues the bank claim (first step after finalizing), then reads it on each
 * check: paid → invoice paid; still open → next check (overdue after the due date makes the
 * subscription past_due); expired → uncollectible, subscription unpaid.
 */
export async function checkInvoiceBankClaim(deps: BillingStepDeps, input: InvoiceStepInput): Promise<StepOutcome> {
  // Its events are dated at the step's time (the clock's on a test clock), whoever calls it.
  return datingEventsAt(new Date(input.now), () => checkInvoiceBankClaimAt(deps, input));
}

async function checkInvoiceBankClaimAt({ db, gateways }: BillingStepDeps, input: InvoiceStepInput): Promise<StepOutcome> {
  const tenant = tenantOf(input);
  const now = new Date(input.now);
  const scoped = scopedDb(db, tenant);
  const inv = await scoped.invoice.findFirst({ where: { id: input.invoiceId } });
  if (!inv || inv.status !== 'open' || (inv.nextPaymentAttemptAt === null && input.force !== true)) return { events: [] };
  const step: ClaimStep = { db, bank: gateways.bankClaims(tenant.mode), tenant, inv, now };
  const row = await scoped.invoiceBankClaim.findFirst({ where: { invoiceId: inv.id } });
  return row ? readBankClaim(step, row) : issueBankClaim(step);
}

/** What the claim step's parts share: the invoice as read before the bank is called. */
interface ClaimStep {
  db: Db;
  bank: BankClaims;
  tenant: Tenant;
  inv: Invoice;
  now: Date;
}

/** No claim yet: issue it (attempt n + 1), then record it and the next check in one transaction. */
async function issueBankClaim({ db, bank, tenant, inv, now }: ClaimStep): Promise<StepOutcome> {
  const scoped = scopedDb(db, tenant);
  const dueDate = inv.dueDate ?? now;
  const expiresAt = claimExpiresAt(dueDate);
  const attempt = inv.attemptCount + 1;
  const customer = inv.customerId ? await scoped.customer.findFirst({ where: { id: inv.customerId } }) : null;
  if (!customer?.kennitala) {
    // Nothing to claim against (the kennitala was removed): the merchant must act.
    const refusal = {
      code: 'customer_kennitala_missing',
      message: 'No bank claim could be issued: the customer has no kennitala. Add one to the customer, then pay the invoice by hand.',
    };
    return recordClaimRefusal(db, tenant, inv.id, attempt, refusal, now, false);
  }
  let claim;
  try {
    claim = await bank.createClaim({
      merchantId: tenant.merchantId,
      kennitala: customer.kennitala,
      amount: Number(inv.amountDue),
      currency: inv.currency,
      dueDate,
      expiresAt,
      reference: inv.number ?? inv.id,
      idempotencyKey: claimKey(inv.id, attempt),
      now,
    });
  } catch (err) {
    const refusal = gatewayRefusal(err);
    if (refusal === null) throw err; // transient (retried with the same key) or our bug
    return recordClaimRefusal(db, tenant, inv.id, attempt, refusal, now, false);
  }
  return scoped.$transaction(async (tx) => {
    const exists = await tx.invoiceBankClaim.findFirst({ where: { invoiceId: inv.id } });
    if (!exists) {
      await tx.invoiceBankClaim.create({
        data: { merchantId: tenant.merchantId, mode: tenant.mode, invoiceId: inv.id, claimId: claim.claimId, bankReference: claim.bankReference, dueDate, expiresAt },
      });
    }
    const locked = await lockInvoice(tx, tenant, inv.id);
    if (!locked || locked.status !== 'open') return { events: [] };
    return { events: await moveNextAttempt(tx, tenant, locked, nextClaimCheckAt(now, dueDate, expiresAt)) };
  }, STEP_TX);
}

/** A claim exists: read it at the bank, then record what it says (a claim the bank lost or cancelled is a refusal). */
async function readBankClaim({ db, bank, tenant, inv, now }: ClaimStep, row: InvoiceBankClaim): Promise<StepOutcome> {
  let claim;
  try {
    claim = await bank.getClaim({ merchantId: tenant.merchantId, claimId: row.claimId, now });
  } catch (err) {
    const refusal = gatewayRefusal(err);
    if (refusal === null) throw err;
    // The claim is forgotten; should the bank still hold it, it is cancelled there first, so a
    // new claim (paying by hand) never stands beside an old one that could be paid too.
    try {
      await bank.cancelClaim({ merchantId: tenant.merchantId, claimId: row.claimId, idempotencyKey: `${inv.id}:claim:cancel`, now });
    } catch (cancelErr) {
      if (gatewayRefusal(cancelErr) === null) throw cancelErr; // transient: retry the step
    }
    return recordClaimRefusal(db, tenant, inv.id, inv.attemptCount + 1, refusal, now, true);
  }
  if (claim.status === 'cancelled') {
    // Cancelled by the bank, not by us (our void makes the invoice void first): the claim is gone.
    const refusal = {
      code: 'claim_cancelled',
      message: `The bank cancelled the claim ${row.bankReference}; it can no longer be paid. Pay the invoice by hand to issue a new claim, or void it.`,
    };
    return recordClaimRefusal(db, tenant, inv.id, inv.attemptCount + 1, refusal, now, true);
  }
  return recordClaimStatus(db, tenant, inv.id, row, claim, now);
}

/** The claim's status (paid, expired, still open) recorded on the locked invoice, in one transaction. */
async function recordClaimStatus(db: Db, tenant: Tenant, invoiceId: string, row: InvoiceBankClaim, claim: BankClaim, now: Date): Promise<StepOutcome> {
  return scopedDb(db, tenant).$transaction(async (tx) => {
    const events: RecordedEvent[] = [];
    const locked = await lockInvoice(tx, tenant, invoiceId);
    if (!locked || locked.status !== 'open') return { events };
    let updated: Invoice;
    if (claim.status === 'paid') {
      updated = await tx.invoice.update({
        where: { id: locked.id },
        data: { status: 'paid', amountPaid: locked.amountDue, paidAt: claim.paidAt ?? now, nextPaymentAttemptAt: null },
      });
      await postInvoicePaid(tx, tenant, locked, { method: 'bank_claim', amount: locked.amountDue - locked.amountPaid, occurredAt: claim.paidAt ?? now });
      events.push(await invoiceEvent(tx, tenant, 'invoice.paid', updated));
    } else if (claim.status === 'expired') {
      const refusal = { code: 'claim_expired', message: `The bank claim ${row.bankReference} expired unpaid on ${formatCalendarDay(row.expiresAt, 'en')}.` };
      updated = await tx.invoice.update({
        where: { id: locked.id },
        data: { status: 'uncollectible', uncollectibleAt: now, nextPaymentAttemptAt: null, ...paymentError(refusal, now) },
      });
      await postInvoiceWrittenOff(tx, tenant, locked, now);
      events.push(await invoiceEvent(tx, tenant, 'invoice.payment_failed', updated));
    } else {
      events.push(...(await moveNextAttempt(tx, tenant, locked, nextClaimCheckAt(now, row.dueDate, row.expiresAt))));
      updated = (await tx.invoice.findFirst({ where: { id: locked.id } })) ?? locked;
    }
    await afterInvoiceChange(tx, tenant, updated, now, events);
    return { events };
  }, STEP_TX);
}
