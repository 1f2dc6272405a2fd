// A refusal crosses Temporal in one typed form (src/contracts/refusal.ts): ApiError → Refusal (the
// activity's result) → ApplicationFailure (the workflow's update failure) → Temporal's failure
// proto and back (the SDK's failure converter, as the server stores and returns it) → Refusal (the
// client module) → ApiError (the domain). Every refusal code comes back as the same error.
import assert from 'node:assert/strict';
import { ActivityFailure, ApplicationFailure, DefaultFailureConverter, RetryState, defaultPayloadConverter } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApiError, errorFromCode, errors } from '../../../src/errors';
import { COMMAND_ERROR_TYPES, refusalFailure, refusalOfFailure, type Refusal } from '../../../src/contracts/refusal';
import { refusalError, refusalOf } from '../../../src/domain/refusals';

const converter = new DefaultFailureConverter();
/** Through the wire format: what the server keeps as the update's outcome and hands the client. */
const overTheWire = (err: Error): Error => converter.failureToError(converter.errorToFailure(err, defaultPayloadConverter), defaultPayloadConverter);

describe('a refusal crossing Temporal', () => {
  for (const code of COMMAND_ERROR_TYPES) {
    it(`${code}: ApiError → Refusal → ApplicationFailure → wire → Refusal → the same ApiError`, () => {
      const thrown = errorFromCode(code, `refused: ${code}`, 'id');
      assert.equal(thrown.code, code, `${code} has an error factory in src/errors.ts`);
      const refusal = refusalOf(thrown);
      assert.deepEqual(refusal, { code, message: `refused: ${code}`, param: 'id' });

      const failure = refusalFailure(refusal!);
      assert.ok(failure instanceof ApplicationFailure);
      assert.equal(failure.nonRetryable, true);
      // As the client sees it: the update failed, caused by the workflow's failure.
      const received = new WorkflowUpdateFailedError('Workflow Update failed', overTheWire(failure));
      const back = refusalOfFailure(received.cause);
      assert.deepEqual(back, refusal);

      const answered = refusalError(back!);
      assert.ok(answered instanceof ApiError);
      assert.deepEqual([answered.status, answered.type, answered.code, answered.message, answered.param], [thrown.status, thrown.type, thrown.code, thrown.message, thrown.param]);
    });
  }

  it('keeps a null param and structured details', () => {
    const r: Refusal = { code: 'invalid_state', message: 'no', param: null, details: { status: 'paid', attempts: 2 } };
    assert.deepEqual(refusalOfFailure(overTheWire(refusalFailure(r))), r);
    assert.equal(refusalError({ ...r }).param, undefined);
  });

  it('finds a refusal an activity threw inside its ActivityFailure', () => {
    const inner = refusalFailure({ code: 'cannot_pause', message: 'Only an active subscription can be paused', param: 'id' });
    const wrapped = new ActivityFailure('Activity task failed', 'applySubscriptionCommand', '1', RetryState.NON_RETRYABLE_FAILURE, 'worker', inner);
    assert.deepEqual(refusalOfFailure(overTheWire(wrapped)), { code: 'cannot_pause', message: 'Only an active subscription can be paused', param: 'id' });
  });

  it('is not a refusal: other failures, 5xx errors and codes outside the list', () => {
    assert.equal(refusalOfFailure(ApplicationFailure.create({ type: 'service_unavailable', message: 'down' })), null);
    assert.equal(refusalOfFailure(new Error('boom')), null);
    assert.equal(refusalOfFailure(undefined), null);
    assert.equal(refusalOf(errors.serviceUnavailable('down')), null);
    assert.equal(refusalOf(errors.rateLimited('slow down')), null);
    assert.equal(refusalOf(new Error('boom')), null);
  });

  it('errorFromCode answers the catalog error of a code, and a 500 for an unknown one', () => {
    const e = errorFromCode('not_paused', 'Only a paused subscription can be resumed', 'id');
    assert.deepEqual([e.status, e.type, e.code], [409, 'invalid_request_error', 'not_paused']);
    assert.equal(errorFromCode('no_such_code', 'x').status, 500);
  });
});
