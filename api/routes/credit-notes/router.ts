import { route, area } from '../../route';
import { dbOf } from '../../context';
import { findCreditNote, listCreditNotes } from '../../../src/domain/credit-notes/find-credit-notes';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listCreditNotesQuery } from './schemas';
import { presentCreditNote } from '../../../src/objects/credit-notes';

export const creditNotesRoutes = area('credit-notes', [
  route({
    method: 'get',
    path: '/v1/credit_notes',
    operationId: 'listCreditNotes',
    tag: 'Credit notes',
    summary: 'List credit notes',
    auth: 'secret',
    query: listCreditNotesQuery,
    list: 'CreditNote',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const q = parseQuery(listCreditNotesQuery, ctx.query);
      const page = await listCreditNotes(dbOf(ctx), { invoiceId: q.invoice }, pageParams(ctx.query));
      ctx.body = { data: page.data.map(presentCreditNote), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/credit_notes/:id',
    operationId: 'retrieveCreditNote',
    tag: 'Credit notes',
    summary: 'Retrieve a credit note',
    auth: 'secret',
    response: 'CreditNote',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentCreditNote(await findCreditNote(dbOf(ctx), pathId(ctx.params.id)));
    },
  }),
]);
