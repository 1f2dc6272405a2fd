// POST /v1/test_helpers/test_clocks/{id}/customers: attaches a customer to a test clock
// (attachCustomerToTestClock: the rules) and, when that changed the customer's `test_clock`,
// records customer.updated in the same transaction, so the event equals the customer's GET. From
// then on the customer lives in the clock's time: the event is dated at it too. Dispatched after
// commit. Attaching again to the same clock changes nothing and records nothing.
import type { TestClock } from '../../generated/prisma/client';
import { datingEventsAt, recordEvent, type ApiDispatchDeps } from '../../events';
import { presentCustomer } from '../../objects/customers';
import { findCustomer } from '../customers/find-customers';
import { dispatchAfterCommit } from '../dispatch-after-commit';
import type { RequestScope } from '../request-scope';
import { attachCustomerToTestClock } from './manage-test-clocks';

export async function attachCustomerToClock(deps: ApiDispatchDeps, scope: RequestScope, input: { testClockId: string; customerId: string }): Promise<TestClock> {
  const { db, tenant } = scope;
  const wasAttached = await db.testClockCustomer.findFirst({ where: { customerId: input.customerId }, select: { customerId: true } });
  const clock = await attachCustomerToTestClock(db, tenant, input);
  if (!wasAttached) {
    const customer = await findCustomer(db, input.customerId);
    const event = await datingEventsAt(clock.frozenTime, () => recordEvent(db, tenant, { type: 'customer.updated', data: presentCustomer(customer, clock.id) }));
    dispatchAfterCommit(deps, scope, [event]);
  }
  return clock;
}
