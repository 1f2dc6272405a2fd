// The table of allowed state changes (src/contracts/subscription-commands.ts), row by row: the
// one source the workflow's validator, the command code and the finished-workflow path read.
import assert from 'node:assert/strict';
import { commandRefusal, invoiceActionVerdict, manualCollectionStep, type CommandState } from '../../../src/contracts/subscription-commands';
import type { SubscriptionCommand } from '../../../src/contracts/subscriptions';

const STATUSES = ['trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled'] as const;
const item = { kind: 'add_item', itemId: 'si_1', item: { price: 'price_1' }, prorationBehavior: 'none' } as const;

function codeOf(state: CommandState, cmd: SubscriptionCommand): string | null {
  return commandRefusal(state, cmd)?.code ?? null;
}

describe('allowed subscription state changes', () => {
  const table: Array<[SubscriptionCommand, Record<(typeof STATUSES)[number], string | null>]> = [
    [{ kind: 'pause' }, { trialing: null, active: null, past_due: 'cannot_pause', unpaid: 'cannot_pause', paused: 'cannot_pause', canceled: 'cannot_pause' }],
    [{ kind: 'resume' }, { trialing: 'not_paused', active: 'not_paused', past_due: 'not_paused', unpaid: 'not_paused', paused: null, canceled: 'not_paused' }],
    [
      { kind: 'cancel', atPeriodEnd: false },
      { trialing: null, active: null, past_due: null, unpaid: null, paused: null, canceled: null },
    ],
    [
      { kind: 'update', changes: { metadata: { a: 'b' } } },
      { trialing: null, active: null, past_due: null, unpaid: null, paused: null, canceled: null },
    ],
    [
      { kind: 'update', changes: { collection_method: 'send_invoice' } },
      { trialing: null, active: null, past_due: null, unpaid: null, paused: null, canceled: 'invalid_state' },
    ],
    [item, { trialing: null, active: null, past_due: null, unpaid: null, paused: null, canceled: 'invalid_state' }],
    [
      { kind: 'delete_item', itemId: 'si_1', prorationBehavior: 'none' },
      { trialing: null, active: null, past_due: null, unpaid: null, paused: null, canceled: 'invalid_state' },
    ],
    [
      { kind: 'void_invoice', invoiceId: 'in_1' },
      { trialing: null, active: null, past_due: null, unpaid: null, paused: null, canceled: null },
    ],
  ];
  for (const [cmd, expected] of table) {
    it(`${cmd.kind} ${JSON.stringify(cmd).slice(0, 60)}`, () => {
      for (const status of STATUSES) assert.equal(codeOf({ status, cancelAtPeriodEnd: false }, cmd), expected[status], status);
    });
  }

  it('uncancel needs a pending cancellation on a subscription that is not canceled', () => {
    assert.equal(codeOf({ status: 'active', cancelAtPeriodEnd: true }, { kind: 'uncancel' }), null);
    assert.equal(codeOf({ status: 'active', cancelAtPeriodEnd: false }, { kind: 'uncancel' }), 'cannot_uncancel');
    assert.equal(codeOf({ status: 'canceled', cancelAtPeriodEnd: true }, { kind: 'uncancel' }), 'cannot_uncancel');
  });

  it('refusals carry the message the API returns and the parameter id', () => {
    assert.deepEqual(commandRefusal({ status: 'past_due', cancelAtPeriodEnd: false }, { kind: 'pause' }), {
      code: 'cannot_pause',
      message: 'Only an active or trialing subscription can be paused; this one is past_due',
      param: 'id',
    });
  });

  it('pay now and void by invoice status', () => {
    const rows: Array<[string, string, string]> = [
      ['pay', 'draft', 'invalid_state'],
      ['pay', 'open', 'apply'],
      ['pay', 'uncollectible', 'apply'],
      ['pay', 'paid', 'unchanged'],
      ['pay', 'void', 'invalid_state'],
      ['void', 'draft', 'apply'],
      ['void', 'open', 'apply'],
      ['void', 'uncollectible', 'apply'],
      ['void', 'paid', 'invalid_state'],
      ['void', 'void', 'unchanged'],
    ];
    for (const [action, status, expected] of rows) {
      const v = invoiceActionVerdict(action as 'pay' | 'void', status);
      assert.equal(typeof v === 'string' ? v : v.code, expected, `${action} ${status}`);
    }
  });

  it('a manual pay reads the bank claim of a send_invoice invoice, else charges the next attempt', () => {
    assert.deepEqual(manualCollectionStep({ collectionMethod: 'send_invoice', attemptCount: 0 }), { kind: 'check_bank_claim' });
    assert.deepEqual(manualCollectionStep({ collectionMethod: 'charge_automatically', attemptCount: 2 }), { kind: 'charge', attempt: 3 });
  });
});
