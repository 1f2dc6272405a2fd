import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { errors } from '../../../src/errors';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '../../../src/domain/api-keys/manage-api-keys';
import { pageParams, parseBody, pathId } from '../../validate';
import { createApiKeySchema } from './schemas';
import { presentApiKey } from '../../../src/objects/api-keys';

export function apiKeysRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.get('/v1/api_keys', auth(), async (ctx) => {
    const page = await listApiKeys(dbOf(ctx), pageParams(ctx.query));
    ctx.body = { data: page.data.map((k) => presentApiKey(k)), has_more: page.hasMore };
  });

  router.post('/v1/api_keys', auth(), tx, async (ctx) => {
    const input = parseBody(createApiKeySchema, ctx.state.body);
    const tenant = tenantOf(ctx);
    if (input.mode !== tenant.mode) {
      throw errors.validationFailed(`A ${tenant.mode} key can only create ${tenant.mode} keys; use a ${input.mode} secret key`, 'mode');
    }
    const created = await createApiKey(dbOf(ctx), tenant, { type: input.type, label: input.label });
    ctx.state.redactOnReplay = ['key'];
    ctx.status = 201;
    ctx.body = presentApiKey(created.row, created.key);
  });

  router.post('/v1/api_keys/:id/rotate', auth(), tx, async (ctx) => {
    const rotated = await rotateApiKey(dbOf(ctx), pathId(ctx.params.id), new Date());
    ctx.state.afterCommit.push(async () => deps.authCache?.evictKey(rotated.previousHash));
    ctx.state.redactOnReplay = ['key'];
    ctx.body = presentApiKey(rotated.row, rotated.key);
  });

  router.delete('/v1/api_keys/:id', auth(), tx, async (ctx) => {
    const { revokedHash } = await revokeApiKey(dbOf(ctx), pathId(ctx.params.id), new Date());
    ctx.state.afterCommit.push(async () => deps.authCache?.evictKey(revokedHash));
    ctx.status = 204;
  });
}
