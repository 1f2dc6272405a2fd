import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { createInvoiceItem, findInvoiceItem, listInvoiceItems } from '../../../src/domain/invoice-items/manage-invoice-items';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createInvoiceItemSchema, listInvoiceItemsQuery } from './schemas';
import { presentInvoiceItem } from '../../../src/objects/invoice-items';

export function invoiceItemsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/invoice_items', auth(), tx, async (ctx) => {
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
  });

  router.get('/v1/invoice_items', auth(), async (ctx) => {
    const q = parseQuery(listInvoiceItemsQuery, ctx.query);
    const page = await listInvoiceItems(dbOf(ctx), tenantOf(ctx), { customerId: q.customer, subscriptionId: q.subscription, pending: q.pending }, pageParams(ctx.query));
    ctx.body = { data: page.data.map(presentInvoiceItem), has_more: page.hasMore };
  });

  router.get('/v1/invoice_items/:id', auth(), async (ctx) => {
    ctx.body = presentInvoiceItem(await findInvoiceItem(dbOf(ctx), pathId(ctx.params.id)));
  });
}
