// The hosted pages' own JSON calls (checkout, customer portal) answer only their own page: a
// request another site makes from a browser (Sec-Fetch-Site, Origin) is refused.
import type { AppContext } from '../context';
import { errors } from '../../src/errors';

export function assertPageSameOrigin(ctx: AppContext, refusal: string): void {
  const site = ctx.get('Sec-Fetch-Site');
  if (site !== '' && site !== 'same-origin') throw errors.originNotAllowed(refusal, 'Origin');
  const origin = ctx.get('Origin');
  if (origin === '') return;
  let host = '';
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host !== ctx.host) throw errors.originNotAllowed(refusal, 'Origin');
}
