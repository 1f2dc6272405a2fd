import { areaOf } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { createInvoiceItem, findInvoiceItem, listInvoiceItems } from '../../../src/domain/invoice-items/manage-invoice-items';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createInvoiceItemSchema, listInvoiceItemsQuery } from './schemas';
import { presentInvoiceItem } from '../../../src/objects/invoice-items';

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  return { tx };
});

export const invoiceItemsRoutes = area('invoice-items', [
  route({
    method: 'post',
    path: '/v1/invoice_items',
    operationId: 'createInvoiceItem',
    tag: 'Invoices',
    summary: 'Create a pending invoice item',
    auth: 'secret',
    body: createInvoiceItemSchema,
    status: 201,
    response: 'InvoiceItem',
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(createInvoiceItemSchema, ctx.state.body);
        const item = await createInvoiceItem({ db: dbOf(ctx), rootDb: deps.db }, tenantOf(ctx), {
          customerId: input.customer,
          amount: input.amount,
          description: input.description,
          subscriptionId: input.subscription,
          currency: input.currency,
          quantity: input.quantity,
          vatRate: input.vat_rate,
          metadata: input.metadata,
        });
        ctx.status = 201;
        ctx.body = presentInvoiceItem(item);
      },
  }),
  route({
    method: 'get',
    path: '/v1/invoice_items',
    operationId: 'listInvoiceItems',
    tag: 'Invoices',
    summary: 'List invoice items',
    auth: 'secret',
    query: listInvoiceItemsQuery,
    list: 'InvoiceItem',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const q = parseQuery(listInvoiceItemsQuery, ctx.query);
      const page = await listInvoiceItems(dbOf(ctx), tenantOf(ctx), { customerId: q.customer, subscriptionId: q.subscription, pending: q.pending }, pageParams(ctx.query));
      ctx.body = { data: page.data.map(presentInvoiceItem), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/invoice_items/:id',
    operationId: 'retrieveInvoiceItem',
    tag: 'Invoices',
    summary: 'Retrieve an invoice item',
    auth: 'secret',
    response: 'InvoiceItem',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentInvoiceItem(await findInvoiceItem(dbOf(ctx), pathId(ctx.params.id)));
    },
  }),
]);
