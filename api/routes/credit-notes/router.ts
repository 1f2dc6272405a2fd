import { answerPage, area, retrieveById, route, secretKey } from '../../route';
import { dbOf } from '../../context';
import { findCreditNote, listCreditNotes } from '../../../src/domain/credit-notes/find-credit-notes';
import { pageParams, parseQuery } from '../../validate';
import { listCreditNotesQuery } from './schemas';
import { presentCreditNote } from '../../../src/objects/credit-notes';

export const creditNotesRoutes = area('credit-notes', [
  route({
    method: 'get',
    path: '/v1/credit_notes',
    operationId: 'listCreditNotes',
    tag: 'Credit notes',
    summary: 'List credit notes',
    description:
      "Lists the merchant's credit notes in the key's mode, newest first, one page at a time; `invoice` restricts the list to one invoice's notes. Credit notes are issued by the service, one per succeeded refund, never through the API. Reads only: records no event.",
    query: listCreditNotesQuery,
    list: 'CreditNote',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const q = parseQuery(listCreditNotesQuery, ctx.query);
      return listCreditNotes(dbOf(ctx), { invoiceId: q.invoice }, pageParams(ctx.query));
    }, presentCreditNote),
  }),
  route({
    method: 'get',
    path: '/v1/credit_notes/:id',
    operationId: 'retrieveCreditNote',
    tag: 'Credit notes',
    summary: 'Retrieve a credit note',
    description:
      "Retrieves one credit note by id: the invoice and refund it belongs to, its amount and currency (the refund's), the reason copied from the refund and its status. An id of another merchant or mode answers 404 resource_missing. Reads only: records no event.",
    response: 'CreditNote',
    ...secretKey(),
    handler: retrieveById(findCreditNote, presentCreditNote),
  }),
]);
