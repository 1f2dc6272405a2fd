import { answerPage, areaOf, secretKey } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { errors } from '../../../src/errors';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '../../../src/domain/api-keys/manage-api-keys';
import { pageParams, parseBody, pathId } from '../../validate';
import { createApiKeySchema } from './schemas';
import { presentApiKey } from '../../../src/objects/api-keys';

const { route, area } = areaOf(withTransaction);

export const apiKeysRoutes = area('api-keys', [
  route({
    method: 'get',
    path: '/v1/api_keys',
    operationId: 'listApiKeys',
    tag: 'API keys',
    summary: 'List API keys',
    description:
      "Lists the merchant's active (not revoked) API keys of the calling key's mode, secret and publishable, newest first. A key's full value is never shown again after it was created: each entry carries only its last four characters (`last4`). Reads only; records no event.",
    list: 'ApiKey',
    ...secretKey(),
    handler: answerPage(
      (ctx) => listApiKeys(dbOf(ctx), pageParams(ctx.query)),
      (k) => presentApiKey(k),
    ),
  }),
  route({
    method: 'post',
    path: '/v1/api_keys',
    operationId: 'createApiKey',
    tag: 'API keys',
    summary: 'Create an API key (the full key is shown once)',
    description:
      "Creates a secret or publishable key in the calling key's mode: `mode` must equal it (a test key cannot create live keys; 400 validation_failed). The full key (`key`) is in this response only; an Idempotency-Key replay answers it as null, and only its hash is stored. The new key works at once. Records no webhook event.",
    body: createApiKeySchema,
    status: 201,
    response: 'ApiKey',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      const input = parseBody(createApiKeySchema, ctx.state.body);
      const tenant = tenantOf(ctx);
      if (input.mode !== tenant.mode) {
        throw errors.validationFailed(`A ${tenant.mode} key can only create ${tenant.mode} keys; use a ${input.mode} secret key`, 'mode');
      }
      const created = await createApiKey(dbOf(ctx), tenant, { type: input.type, label: input.label });
      ctx.state.redactOnReplay = ['key'];
      ctx.status = 201;
      ctx.body = presentApiKey(created.row, created.key);
    },
  }),
  route({
    method: 'post',
    path: '/v1/api_keys/:id/rotate',
    operationId: 'rotateApiKey',
    tag: 'API keys',
    summary: 'Roll an API key (the new key is shown once)',
    description:
      'Gives an active key a new value, keeping its id, type, mode and creation time. The new value is in this response only (null in an Idempotency-Key replay); the old value stops working as soon as the request commits, with no overlap, in every API process. Two rotations of one key at the same time: one answers 409 resource_conflict. A revoked or unknown key is 404. Records no webhook event.',
    response: 'ApiKey',
    ...secretKey('tx'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const rotated = await rotateApiKey(dbOf(ctx), pathId(ctx.params.id), new Date());
        ctx.state.afterCommit.push(async () => deps.authCache?.evictKey(rotated.previousHash));
        ctx.state.redactOnReplay = ['key'];
        ctx.body = presentApiKey(rotated.row, rotated.key);
      },
  }),
  route({
    method: 'delete',
    path: '/v1/api_keys/:id',
    operationId: 'revokeApiKey',
    tag: 'API keys',
    summary: 'Revoke an API key',
    description:
      'Revokes an active key for good: it stops working as soon as the request commits and leaves the list (the record is kept, with its revocation time). Nothing stops a key from revoking itself; it then fails from the next request on. An unknown or already revoked key is 404. Answers 204 without a body. Records no webhook event.',
    kind: 'none',
    status: 204,
    ...secretKey('tx'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const { revokedHash } = await revokeApiKey(dbOf(ctx), pathId(ctx.params.id), new Date());
        ctx.state.afterCommit.push(async () => deps.authCache?.evictKey(revokedHash));
        ctx.status = 204;
      },
  }),
]);
