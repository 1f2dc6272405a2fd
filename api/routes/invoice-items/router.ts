import { answerPage, areaOf, retrieveById, secretKey } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { createInvoiceItem, findInvoiceItem, listInvoiceItems } from '../../../src/domain/invoice-items/manage-invoice-items';
import { pageParams, parseBody, parseQuery } from '../../validate';
import { createInvoiceItemSchema, listInvoiceItemsQuery } from './schemas';
import { presentInvoiceItem } from '../../../src/objects/invoice-items';

const { route, area } = areaOf(withTransaction);

export const invoiceItemsRoutes = area('invoice-items', [
  route({
    method: 'post',
    path: '/v1/invoice_items',
    operationId: 'createInvoiceItem',
    tag: 'Invoices',
    summary: 'Create a pending invoice item',
    description:
      "Adds a one-off charge (`amount` per unit, ≥ 1, times `quantity`) with a required `description` to the customer's next invoice, or to the next invoice of `subscription` when one is given (it must exist and belong to the customer). `currency` defaults to the customer's currency, else the merchant's default. The item stays pending until the subscription engine puts it on an invoice. Answers 201 and records no event.",
    body: createInvoiceItemSchema,
    status: 201,
    response: 'InvoiceItem',
    ...secretKey('tx'),
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
    description:
      'Lists invoice items, one page at a time; `customer`, `subscription` and `pending` (true: only items not yet invoiced; false: only invoiced ones) filter the list. It includes the proration items the service creates, which may be negative. Reads only: records no event.',
    query: listInvoiceItemsQuery,
    list: 'InvoiceItem',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const q = parseQuery(listInvoiceItemsQuery, ctx.query);
      return listInvoiceItems(dbOf(ctx), tenantOf(ctx), { customerId: q.customer, subscriptionId: q.subscription, pending: q.pending }, pageParams(ctx.query));
    }, presentInvoiceItem),
  }),
  route({
    method: 'get',
    path: '/v1/invoice_items/:id',
    operationId: 'retrieveInvoiceItem',
    tag: 'Invoices',
    summary: 'Retrieve an invoice item',
    description:
      'Retrieves one invoice item by id: its unit amount, quantity, currency, description, whether it is still pending and the invoice it went on. An id of another merchant or mode answers 404 resource_missing. Reads only: records no event.',
    response: 'InvoiceItem',
    ...secretKey(),
    handler: retrieveById(findInvoiceItem, presentInvoiceItem),
  }),
]);
