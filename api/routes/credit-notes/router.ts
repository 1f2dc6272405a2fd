import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { findCreditNote, listCreditNotes } from '../../../src/domain/credit-notes/find-credit-notes';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listCreditNotesQuery } from './schemas';
import { presentCreditNote } from '../../../src/objects/credit-notes';

export function creditNotesRoutes(router: Router<AppState>, _deps: AppDeps, auth: Auth): void {
  router.get('/v1/credit_notes', auth(), async (ctx) => {
    const q = parseQuery(listCreditNotesQuery, ctx.query);
    const page = await listCreditNotes(dbOf(ctx), { invoiceId: q.invoice }, pageParams(ctx.query));
    ctx.body = { data: page.data.map(presentCreditNote), has_more: page.hasMore };
  });

  router.get('/v1/credit_notes/:id', auth(), async (ctx) => {
    ctx.body = presentCreditNote(await findCreditNote(dbOf(ctx), pathId(ctx.params.id)));
  });
}
