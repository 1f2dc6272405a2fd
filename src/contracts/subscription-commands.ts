// The allowed state changes of a subscription and its invoices: which command may apply to a
// subscription in which state, and what a manual "pay now" or "void" does to an invoice in each
// status. Written once and read by the workflow's update validator (deterministic code), by the
// command code that applies a command inside its transaction, and by the path that answers for
// a subscription whose workflow has finished. Pure: no I/O, safe inside workflow code.
import type { CommandErrorType, SubscriptionCommand } from './subscriptions';
import type { Refusal } from './refusal';

/** What the rules look at: the subscription's status and whether a cancellation is pending. */
export interface CommandState {
  status: string;
  cancelAtPeriodEnd: boolean;
}

/** A refused command: the API error code of the same name, its message and parameter (the typed form of src/contracts/refusal.ts). */
export type CommandRefusal = Refusal;

type Kind = SubscriptionCommand['kind'];
type Rule<K extends Kind> = (state: CommandState, cmd: Extract<SubscriptionCommand, { kind: K }>) => CommandRefusal | null;

const refuse = (code: CommandErrorType, message: string): CommandRefusal => ({ code, message, param: 'id' });
const itemsFrozen = (s: CommandState) => (s.status === 'canceled' ? refuse('invalid_state', 'The subscription is canceled; its items cannot change') : null);

/** For each command: null when it may apply to a subscription in this state, else the refusal. */
export const COMMAND_RULES: { [K in Kind]: Rule<K> } = {
  // Canceling twice changes nothing (the command code makes it a no-op).
  cancel: () => null,
  uncancel: (s) => {
    if (s.status === 'canceled') return refuse('cannot_uncancel', 'The subscription is canceled; there is no pending cancellation to undo');
    return s.cancelAtPeriodEnd ? null : refuse('cannot_uncancel', 'The subscription has no pending cancellation to undo');
  },
  pause: (s) =>
    s.status === 'active' || s.status === 'trialing' ? null : refuse('cannot_pause', `Only an active or trialing subscription can be paused; this one is ${s.status}`),
  resume: (s) => (s.status === 'paused' ? null : refuse('not_paused', `Only a paused subscription can be resumed; this one is ${s.status}`)),
  update: (s, cmd) =>
    s.status === 'canceled' && Object.keys(cmd.changes).some((k) => k !== 'metadata')
      ? refuse('invalid_state', 'The subscription is canceled; only its metadata can change')
      : null,
  add_item: itemsFrozen,
  update_item: itemsFrozen,
  delete_item: itemsFrozen,
  // Invoice actions follow the invoice's status (INVOICE_ACTION_RULES), not the subscription's:
  // a canceled subscription's open invoice is still collected or voided.
  pay_invoice: () => null,
  void_invoice: () => null,
};

/** The refusal of `cmd` for a subscription in `state`, or null when the command may apply. */
export function commandRefusal(state: CommandState, cmd: SubscriptionCommand): CommandRefusal | null {
  return (COMMAND_RULES[cmd.kind] as Rule<Kind>)(state, cmd as never);
}

export type InvoiceAction = 'pay' | 'void';
/** `apply`: do it; `unchanged`: already done, answer with the invoice as it is; or the refusal. */
export type InvoiceActionVerdict = 'apply' | 'unchanged' | CommandRefusal;

/** For each manual invoice action: what it does to an invoice of each status. */
export const INVOICE_ACTION_RULES: Record<InvoiceAction, Record<string, InvoiceActionVerdict>> = {
  pay: {
    draft: refuse('invalid_state', 'The invoice is not finalized yet; it is collected as soon as it is'),
    open: 'apply',
    uncollectible: 'apply',
    paid: 'unchanged',
    void: refuse('invalid_state', 'A void invoice cannot be paid'),
  },
  void: {
    draft: 'apply',
    open: 'apply',
    uncollectible: 'apply',
    paid: refuse('invalid_state', 'A paid invoice cannot be voided (refund its payment instead)'),
    void: 'unchanged',
  },
};

export function invoiceActionVerdict(action: InvoiceAction, invoiceStatus: string): InvoiceActionVerdict {
  return INVOICE_ACTION_RULES[action][invoiceStatus] ?? refuse('invalid_state', `The invoice is ${invoiceStatus}`);
}

/** What a manual "pay now" does: read the bank claim (send_invoice), or one more charge attempt. */
export type ManualCollectionStep = { kind: 'check_bank_claim' } | { kind: 'charge'; attempt: number };

export function manualCollectionStep(invoice: { collectionMethod: string | null; attemptCount: number }): ManualCollectionStep {
  return invoice.collectionMethod === 'send_invoice' ? { kind: 'check_bank_claim' } : { kind: 'charge', attempt: invoice.attemptCount + 1 };
}
