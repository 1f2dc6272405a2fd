import { areaOf, secretKey } from '../../route';
import { dispatchAfterCommit } from '../../../src/domain/dispatch-after-commit';
import { dbOf, tenantOf, scopeOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { createCustomer } from '../../../src/domain/customers/create-customer';
import { updateCustomer } from '../../../src/domain/customers/update-customer';
import { findCustomer, listCustomers } from '../../../src/domain/customers/find-customers';
import { withTestClocks } from '../../../src/domain/customers/customer-test-clocks';
import { pageParams, parseBody, pathId } from '../../validate';
import { createCustomerSchema, updateCustomerSchema } from './schemas';
import { presentCustomer } from '../../../src/objects/customers';

const { route, area } = areaOf(withTransaction);

export const customersRoutes = area('customers', [
  route({
    method: 'post',
    path: '/v1/customers',
    operationId: 'createCustomer',
    tag: 'Customers',
    summary: 'Create a customer',
    description:
      "Creates a customer of the calling merchant in the key's mode. `email` is required; `external_id` must be unique per merchant and mode (a taken value answers 409 resource_conflict with param external_id). With `test_clock` (test mode) the customer is attached to that clock in the same transaction, so a refused clock leaves no customer behind. Records a `customer.created` event.",
    body: createCustomerSchema,
    status: 201,
    response: 'Customer',
    errors: ['resource_conflict'],
    ...secretKey('tx'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const { test_clock: testClockId, ...input } = parseBody(createCustomerSchema, ctx.state.body);
        const created = await createCustomer(dbOf(ctx), tenantOf(ctx), { ...input, testClockId });
        dispatchAfterCommit(deps, scopeOf(ctx), created.events);
        ctx.status = 201;
        ctx.body = presentCustomer(created.customer, created.testClockId);
      },
  }),
  route({
    method: 'get',
    path: '/v1/customers',
    operationId: 'listCustomers',
    tag: 'Customers',
    summary: 'List customers',
    description:
      "Lists the merchant's customers in the key's mode, newest first, one page at a time (`limit`, `starting_after`). Each customer carries the test clock it follows, if any. Reads only: records no event.",
    list: 'Customer',
    ...secretKey(),
    handler: () => async (ctx) => {
      const page = await listCustomers(dbOf(ctx), pageParams(ctx.query));
      ctx.body = { data: (await withTestClocks(dbOf(ctx), page.data)).map((c) => presentCustomer(c.customer, c.testClockId)), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/customers/:id',
    operationId: 'retrieveCustomer',
    tag: 'Customers',
    summary: 'Retrieve a customer',
    description:
      'Retrieves one customer by id, with the test clock it follows (null: wall time). An id of another merchant or of the other mode answers 404 resource_missing, as an unknown one does. Reads only: records no event.',
    response: 'Customer',
    ...secretKey(),
    handler: () => async (ctx) => {
      const customer = await findCustomer(dbOf(ctx), pathId(ctx.params.id));
      const [c] = await withTestClocks(dbOf(ctx), [customer]);
      ctx.body = presentCustomer(c!.customer, c!.testClockId);
    },
  }),
  route({
    method: 'patch',
    path: '/v1/customers/:id',
    operationId: 'updateCustomer',
    tag: 'Customers',
    summary: 'Update a customer',
    description:
      'Updates a customer with PATCH semantics: only supplied fields change, `null` clears an optional field and `metadata` replaces the whole object. `email` cannot be cleared and `external_id` must stay unique (409 resource_conflict otherwise); the test clock cannot be changed here. Records `customer.updated` only when a presented field really changed: a PATCH that sets what is already there records no event.',
    body: updateCustomerSchema,
    response: 'Customer',
    errors: ['resource_conflict'],
    ...secretKey('tx'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const id = pathId(ctx.params.id);
        const input = parseBody(updateCustomerSchema, ctx.state.body);
        const updated = await updateCustomer(dbOf(ctx), tenantOf(ctx), id, input);
        dispatchAfterCommit(deps, scopeOf(ctx), updated.events);
        ctx.body = presentCustomer(updated.customer, updated.testClockId);
      },
  }),
]);
