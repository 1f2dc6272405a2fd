// void_invoice: an open, draft or uncollectible invoice becomes void (rules in
// src/contracts/subscription-commands.ts); dunning stops and its bank claim is cancelled after commit.
import { errors } from '../../../errors';
import { invoiceActionVerdict } from '../../../contracts/subscription-commands';
import { recordInvoiceVoided } from '../../invoices/invoice-voided-event';
import { postInvoiceVoided } from '../../ledger/invoice-postings';
import { refreshCollectionStatus } from '../collection-status';
import { refusalError } from '../command-refusal';
import type { CommandContext } from './command-context';

export async function voidSubscriptionInvoice(ctx: CommandContext, invoiceId: string): Promise<void> {
  const { tx, tenant, sub, now } = ctx;
  const inv = await tx.invoice.findFirst({ where: { id: invoiceId, subscriptionId: sub.id } });
  if (!inv) throw errors.resourceMissing(`No such invoice: '${invoiceId}'`, 'id');
  const verdict = invoiceActionVerdict('void', inv.status);
  if (verdict === 'unchanged') return;
  if (verdict !== 'apply') throw refusalError(verdict);
  const voided = await tx.invoice.update({ where: { id: inv.id }, data: { status: 'void', voidedAt: now, nextPaymentAttemptAt: null } });
  await postInvoiceVoided(tx, tenant, inv, now);
  ctx.outcome.events.push(await recordInvoiceVoided(tx, tenant, voided));
  const claim = await tx.invoiceBankClaim.findFirst({ where: { invoiceId: inv.id } });
  if (claim) ctx.outcome.claimToCancel = { invoiceId: inv.id, claimId: claim.claimId };
  const r = await refreshCollectionStatus(tx, tenant, sub, now);
  ctx.outcome.events.push(...r.events);
}
