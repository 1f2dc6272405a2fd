// Developers: API keys (create, rotate, revoke; the key shown once), webhook endpoints (create
// with the secret shown once, edit, disable/enable, delete, rotate the secret), the delivery log
// with attempts and a retry button, and events. Same domain functions and request schemas as the
// API routes; reading is open to every role, changes need manage_developers.
import { randomBytes } from 'node:crypto';
import type { AppContext, AppDeps } from '../../context';
import { errors } from '../../../src/errors';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '../../../src/domain/api-keys/manage-api-keys';
import { createApiKeySchema } from '../../routes/api-keys/schemas';
import { createWebhookEndpointSchema, updateWebhookEndpointSchema } from '../../routes/webhook-endpoints/schemas';
import { listWebhookDeliveriesQuery } from '../../routes/webhook-deliveries/schemas';
import { listEventsQuery } from '../../routes/events/schemas';
import { createWebhookEndpoint } from '../../../src/domain/webhooks/create-webhook-endpoint';
import { getWebhookEndpoint, listWebhookEndpoints } from '../../../src/domain/webhooks/list-webhook-endpoints';
import { updateWebhookEndpoint } from '../../../src/domain/webhooks/update-webhook-endpoint';
import { deleteWebhookEndpoint } from '../../../src/domain/webhooks/delete-webhook-endpoint';
import { MAX_SECRET_OVERLAP_SECONDS, rotateWebhookEndpointSecret } from '../../../src/domain/webhooks/rotate-webhook-secret';
import { getWebhookDelivery, listWebhookDeliveries } from '../../../src/domain/webhooks/list-webhook-deliveries';
import { retryWebhookDelivery } from '../../../src/domain/webhooks/retry-webhook-delivery';
import { getEvent, listEvents } from '../../../src/domain/webhooks/list-events';
import { ALL_EVENTS, EVENT_TYPE_NAMES } from '../../../src/events/types';
import type { ApiKey, WebhookEndpoint } from '../../../src/generated/prisma/client';
import type { DashboardRouter } from '../router-types';
import { dash, requireSession, type Dashboard } from '../session';
import { field, fields, queryParams } from '../http';
import { formPost } from '../forms';
import { redirectWithNotice, sendPage } from '../render';
import { ActionButton, Csrf, Field, FormErrors, Pager, Panel, Props, SecretOnce, Status, Table, TextArea, when, type FormState } from '../views/ui';

/** The rotation form's choices for how long the old secret keeps signing (seconds). */
const SECRET_OVERLAPS: Array<[number, string]> = [
  [0, 'no time: it stops at once'],
  [3600, '1 hour'],
  [6 * 3600, '6 hours'],
  [MAX_SECRET_OVERLAP_SECONDS, '24 hours'],
];
const DEFAULT_SECRET_OVERLAP = MAX_SECRET_OVERLAP_SECONDS;

function secretOverlap(raw: string): number {
  const choice = SECRET_OVERLAPS.find(([seconds]) => String(seconds) === raw);
  if (!choice) throw errors.validationFailed('Choose how long the old secret stays valid', 'expires_in');
  return choice[0];
}

async function apiKeysPage(ctx: AppContext, d: Dashboard, extra: { state?: FormState; shown?: { label: string; key: string; id: string } } = {}) {
  const q = queryParams(ctx, ['starting_after']);
  const page = await listApiKeys(d.db, pageParams(q));
  const canManage = d.can('manage_developers');
  sendPage(ctx, d, {
    title: 'API keys',
    active: '/dashboard/developers/api-keys',
    body: (
      <>
        {extra.shown ? <SecretOnce label={extra.shown.label} value={extra.shown.key} id="shown-key" /> : null}
        <Panel title={`${d.tenant.mode === 'live' ? 'Live' : 'Test'} keys`} id="keys">
          <Table<ApiKey>
            caption="API keys"
            rows={page.data}
            empty="No keys in this mode."
            columns={[
              { label: 'Label', cell: (k) => k.label ?? '—' },
              { label: 'Type', cell: (k) => k.type },
              { label: 'Key', cell: (k) => <span class="mono">{`${k.type === 'secret' ? 'sk' : 'pk'}_${k.mode}_…${k.last4}`}</span> },
              { label: 'Created', nowrap: true, cell: (k) => when(k.createdAt) },
              { label: 'Rotated', nowrap: true, cell: (k) => when(k.rotatedAt) },
              {
                label: 'Actions',
                cell: (k) =>
                  canManage ? (
                    <div class="actions">
                      <ActionButton
                        action={`/dashboard/developers/api-keys/${k.id}/rotate`}
                        csrf={d.csrf}
                        label="Rotate"
                        id={`rotate-${k.id}`}
                        confirm="Rotate this key? The current value stops working at once."
                      />
                      <ActionButton
                        action={`/dashboard/developers/api-keys/${k.id}/revoke`}
                        csrf={d.csrf}
                        label="Revoke"
                        danger
                        id={`revoke-${k.id}`}
                        confirm="Revoke this key? It stops working at once and for good."
                      />
                    </div>
                  ) : (
                    <span class="muted">—</span>
                  ),
              },
            ]}
          />
          <Pager basePath="/dashboard/developers/api-keys" query={q} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
        {canManage ? (
          <Panel title="Create a key" id="create-key">
            <FormErrors state={extra.state} />
            <form method="post" action="/dashboard/developers/api-keys" id="create-key-form">
              <Csrf token={d.csrf} />
              <Field name="label" label="Label" state={extra.state} hint="What uses this key, e.g. backend or shop." input={{ maxLength: 200 }} />
              <div class="field">
                <label for="f-type">Type</label>
                <select id="f-type" name="type">
                  <option value="secret">Secret key (server side)</option>
                  <option value="publishable">Publishable key (embedded checkout in the browser)</option>
                </select>
                {extra.state?.errors?.type ? <p class="field-error">{extra.state.errors.type}</p> : null}
              </div>
              <p class="muted">The key is created in {d.tenant.mode} mode (the switch at the top).</p>
              <button type="submit" id="create-key-button">
                Create key
              </button>
            </form>
          </Panel>
        ) : null}
      </>
    ),
  });
}

function endpointForm(d: Dashboard, opts: { action: string; state?: FormState; endpoint?: WebhookEndpoint; submit: string; id: string }) {
  const chosen = new Set(opts.state?.values?.events !== undefined ? ([] as string[]).concat(opts.state.values.events) : (opts.endpoint?.events ?? []));
  const eventsError = opts.state?.errors?.events;
  return (
    <form method="post" action={opts.action} id={opts.id}>
      <Csrf token={d.csrf} />
      <FormErrors state={opts.state} />
      <Field
        name="url"
        label="Endpoint URL"
        type="url"
        state={opts.state}
        value={opts.endpoint?.url}
        hint="HTTPS, on a public address."
        input={{ required: true, maxLength: 2048 }}
      />
      <TextArea name="description" label="Description" state={opts.state} value={opts.endpoint?.description} />
      <fieldset class="field" aria-describedby={eventsError ? 'f-events-error' : undefined}>
        <legend>Events to send</legend>
        <label>
          <input type="checkbox" name="events" value={ALL_EVENTS} checked={chosen.has(ALL_EVENTS)} /> Every event (also types added later)
        </label>
        {EVENT_TYPE_NAMES.map((t) => (
          <label>
            <input type="checkbox" name="events" value={t} checked={chosen.has(t)} /> <span class="mono">{t}</span>
          </label>
        ))}
        {eventsError ? (
          <p class="field-error" id="f-events-error" data-field="events">
            {eventsError}
          </p>
        ) : null}
      </fieldset>
      <button type="submit">{opts.submit}</button>
    </form>
  );
}

async function webhooksPage(ctx: AppContext, d: Dashboard, extra: { state?: FormState } = {}) {
  const q = queryParams(ctx, ['starting_after']);
  const page = await listWebhookEndpoints(d.db, pageParams(q));
  sendPage(ctx, d, {
    title: 'Webhooks',
    active: '/dashboard/developers/webhooks',
    body: (
      <>
        <Panel title="Endpoints" id="endpoints">
          <Table<WebhookEndpoint>
            caption="Webhook endpoints"
            rows={page.data}
            empty="No webhook endpoints in this mode."
            columns={[
              {
                label: 'URL',
                cell: (e) => (
                  <a href={`/dashboard/developers/webhooks/${e.id}`} class="mono">
                    {e.url}
                  </a>
                ),
              },
              { label: 'Events', cell: (e) => (e.events.includes(ALL_EVENTS) ? 'every event' : `${e.events.length} type(s)`) },
              { label: 'Status', cell: (e) => <Status value={e.status} /> },
              { label: 'Created', nowrap: true, cell: (e) => when(e.createdAt) },
            ]}
          />
          <Pager basePath="/dashboard/developers/webhooks" query={q} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
        {d.can('manage_developers') ? (
          <Panel title="Add an endpoint" id="add-endpoint">
            {endpointForm(d, { action: '/dashboard/developers/webhooks', state: extra.state, submit: 'Add endpoint', id: 'add-endpoint-form' })}
          </Panel>
        ) : null}
      </>
    ),
  });
}

async function endpointPage(ctx: AppContext, d: Dashboard, id: string, extra: { state?: FormState; secret?: string; secretLabel?: string; status?: number } = {}) {
  const e = await getWebhookEndpoint(d.db, id);
  const deliveries = await listWebhookDeliveries(d.db, { endpoint: e.id }, { limit: 10 });
  const canManage = d.can('manage_developers');
  sendPage(ctx, d, {
    title: 'Webhook endpoint',
    active: '/dashboard/developers/webhooks',
    status: extra.status,
    body: (
      <>
        {extra.secret ? <SecretOnce label={extra.secretLabel ?? 'Signing secret'} value={extra.secret} id="shown-secret" /> : null}
        <Panel title="Endpoint" id="endpoint">
          <Props
            rows={[
              ['Id', <span class="mono">{e.id}</span>],
              [
                'URL',
                <span class="mono" id="endpoint-url">
                  {e.url}
                </span>,
              ],
              [
                'Status',
                <span id="endpoint-status">
                  <Status value={e.status} />
                </span>,
              ],
              ['Events', e.events.join(', ')],
              ['Description', e.description],
              ['Created', when(e.createdAt)],
            ]}
          />
          {canManage ? (
            <div class="actions" style={undefined}>
              {e.status === 'enabled' ? (
                <ActionButton
                  action={`/dashboard/developers/webhooks/${e.id}/disable`}
                  csrf={d.csrf}
                  label="Disable"
                  id="disable-endpoint"
                  confirm="Disable this endpoint? Pending retries stop."
                />
              ) : (
                <ActionButton action={`/dashboard/developers/webhooks/${e.id}/enable`} csrf={d.csrf} label="Enable" id="enable-endpoint" />
              )}
              <form
                method="post"
                action={`/dashboard/developers/webhooks/${e.id}/rotate-secret`}
                class="inline"
                data-confirm="Rotate the signing secret? Deliveries are signed with the new one at once (and with the old one too while it stays valid)."
              >
                <Csrf token={d.csrf} />
                <input type="hidden" name="_idem" value={randomBytes(16).toString('base64url')} />
                <label for="f-secret-overlap">Old secret stays valid for</label>{' '}
                <select id="f-secret-overlap" name="expires_in">
                  {SECRET_OVERLAPS.map(([seconds, label]) => (
                    <option value={String(seconds)} selected={seconds === DEFAULT_SECRET_OVERLAP}>
                      {label}
                    </option>
                  ))}
                </select>{' '}
                <button type="submit" class="secondary" id="rotate-secret">
                  Rotate signing secret
                </button>
              </form>
              <ActionButton
                action={`/dashboard/developers/webhooks/${e.id}/delete`}
                csrf={d.csrf}
                label="Delete"
                danger
                id="delete-endpoint"
                confirm="Delete this endpoint? Its delivery history stays."
              />
            </div>
          ) : null}
        </Panel>
        <Panel title="Recent deliveries" id="endpoint-deliveries">
          <DeliveriesTable d={d} rows={deliveries.data} />
          <p>
            <a href={`/dashboard/developers/deliveries?endpoint=${e.id}`}>All deliveries of this endpoint</a>
          </p>
        </Panel>
        {canManage ? (
          <Panel title="Edit" id="edit-endpoint">
            {endpointForm(d, { action: `/dashboard/developers/webhooks/${e.id}`, state: extra.state, endpoint: e, submit: 'Save', id: 'edit-endpoint-form' })}
          </Panel>
        ) : null}
      </>
    ),
  });
}

type DeliveryRow = Awaited<ReturnType<typeof listWebhookDeliveries>>['data'][number];

function DeliveriesTable({ d, rows }: { d: Dashboard; rows: DeliveryRow[] }) {
  return (
    <Table<DeliveryRow>
      caption="Webhook deliveries"
      rows={rows}
      empty="No deliveries."
      columns={[
        {
          label: 'Delivery',
          cell: (w) => (
            <a href={`/dashboard/developers/deliveries/${w.id}`} class="mono">
              {w.id}
            </a>
          ),
        },
        { label: 'Event', cell: (w) => <span class="mono">{w.eventType}</span> },
        { label: 'Status', cell: (w) => <Status value={w.status} /> },
        { label: 'Attempts', num: true, cell: (w) => w.attemptCount },
        { label: 'Last result', cell: (w) => (w.lastStatusCode ? `HTTP ${w.lastStatusCode}` : (w.lastError ?? '—')) },
        { label: 'Last attempt', nowrap: true, cell: (w) => when(w.lastAttemptAt) },
        {
          label: '',
          cell: (w) =>
            d.can('manage_developers') && w.status !== 'pending' ? (
              <ActionButton
                action={`/dashboard/developers/deliveries/${w.id}/retry`}
                csrf={d.csrf}
                label={w.status === 'succeeded' ? 'Resend' : 'Retry now'}
                id={`retry-${w.id}`}
                busy="Sending…"
              />
            ) : null,
        },
      ]}
    />
  );
}

function endpointInput(form: Record<string, string | string[]>, partial: boolean) {
  const body: Record<string, unknown> = { url: field(form, 'url'), events: fields(form, 'events'), description: field(form, 'description') || null };
  if (partial) return parseBody(updateWebhookEndpointSchema, body);
  if (fields(form, 'events').length === 0) throw errors.validationFailed('Choose at least one event (or every event)', 'events');
  return parseBody(createWebhookEndpointSchema, body);
}

export function developerPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);

  router.get('/developers', session, async (ctx) => ctx.redirect('/dashboard/developers/api-keys'));
  router.get('/developers/api-keys', session, async (ctx) => apiKeysPage(ctx, dash(ctx)));

  router.post('/developers/api-keys', session, async (ctx) => {
    const d = dash(ctx);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'api_key.create',
        objectType: 'api_key',
        run: async (tx) => {
          const input = parseBody(createApiKeySchema, { type: field(d.form, 'type'), mode: d.tenant.mode, label: field(d.form, 'label') || null });
          return createApiKey(tx, d.tenant, { type: input.type, label: input.label });
        },
        resultId: (r) => r.row.id,
        detail: (r) => ({ type: r.row.type, last4: r.row.last4 }),
      },
      {
        fields: ['label', 'type'],
        success: (r) => apiKeysPage(ctx, d, { shown: { label: `New ${r.row.type} key ${r.row.label ? `“${r.row.label}”` : ''}`, key: r.key, id: r.row.id } }),
        failure: (state) => apiKeysPage(ctx, d, { state }),
      },
    );
  });

  router.post('/developers/api-keys/:id/rotate', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'api_key.rotate',
        objectType: 'api_key',
        objectId: id,
        run: async (tx, after) => {
          const r = await rotateApiKey(tx, id, new Date());
          after.push(async () => deps.authCache?.evictKey(r.previousHash));
          return r;
        },
        detail: (r) => ({ last4: r.row.last4 }),
      },
      {
        fields: [],
        success: (r) =>
          apiKeysPage(ctx, d, { shown: { label: `Rotated key ${r.row.label ? `“${r.row.label}”` : r.row.id}: the old value no longer works`, key: r.key, id: r.row.id } }),
        failure: (state) => apiKeysPage(ctx, d, { state }),
      },
    );
  });

  router.post('/developers/api-keys/:id/revoke', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'api_key.revoke',
        objectType: 'api_key',
        objectId: id,
        run: async (tx, after) => {
          const r = await revokeApiKey(tx, id, new Date());
          after.push(async () => deps.authCache?.evictKey(r.revokedHash));
          return r;
        },
      },
      { fields: [], success: () => redirectWithNotice(ctx, '/dashboard/developers/api-keys', 'key_revoked'), failure: (state) => apiKeysPage(ctx, d, { state }) },
    );
  });

  router.get('/developers/webhooks', session, async (ctx) => webhooksPage(ctx, dash(ctx)));

  router.post('/developers/webhooks', session, async (ctx) => {
    const d = dash(ctx);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'webhook_endpoint.create',
        objectType: 'webhook_endpoint',
        run: async (tx) => {
          const input = endpointInput(d.form, false) as { url: string; events: string[]; description?: string | null };
          return createWebhookEndpoint(tx, d.tenant, deps.config, input, deps.webhookTesting);
        },
        resultId: (r) => r.endpoint.id,
        detail: (r) => ({ url: r.endpoint.url, events: r.endpoint.events }),
      },
      {
        fields: ['url', 'events', 'description'],
        success: (r) => endpointPage(ctx, d, r.endpoint.id, { secret: r.secret, secretLabel: 'Signing secret of the new endpoint', status: 201 }),
        failure: (state) => webhooksPage(ctx, d, { state }),
      },
    );
  });

  router.get('/developers/webhooks/:id', session, async (ctx) => endpointPage(ctx, dash(ctx), pathId(ctx.params.id)));

  router.post('/developers/webhooks/:id', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'webhook_endpoint.update',
        objectType: 'webhook_endpoint',
        objectId: id,
        run: async (tx) => {
          const input = endpointInput(d.form, true);
          if ((input.events ?? []).length === 0) throw errors.validationFailed('Choose at least one event (or every event)', 'events');
          return updateWebhookEndpoint(tx, d.tenant, id, { url: input.url, events: input.events, description: input.description ?? null }, deps.webhookTesting);
        },
      },
      {
        fields: ['url', 'events', 'description'],
        success: () => redirectWithNotice(ctx, `/dashboard/developers/webhooks/${id}`, 'endpoint_updated'),
        failure: (state) => endpointPage(ctx, d, id, { state }),
      },
    );
  });

  for (const [suffix, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    router.post(`/developers/webhooks/:id/${suffix}`, session, async (ctx) => {
      const d = dash(ctx);
      const id = pathId(ctx.params.id);
      await formPost(
        ctx,
        d,
        {
          permission: 'manage_developers',
          action: `webhook_endpoint.${suffix}`,
          objectType: 'webhook_endpoint',
          objectId: id,
          run: async (tx) => updateWebhookEndpoint(tx, d.tenant, id, { disabled }, deps.webhookTesting),
        },
        { fields: [], success: () => redirectWithNotice(ctx, `/dashboard/developers/webhooks/${id}`, 'endpoint_updated'), failure: (state) => endpointPage(ctx, d, id, { state }) },
      );
    });
  }

  router.post('/developers/webhooks/:id/rotate-secret', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'webhook_endpoint.rotate_secret',
        objectType: 'webhook_endpoint',
        objectId: id,
        run: async (tx) => rotateWebhookEndpointSecret(tx, deps.config, id, { expiresInSeconds: secretOverlap(field(d.form, 'expires_in')) }),
        detail: (r) => ({ previous_secret_expires_at: r.endpoint.previousSecretExpiresAt?.toISOString() ?? null }),
      },
      {
        fields: [],
        success: (r) =>
          endpointPage(ctx, d, id, {
            secret: r.secret,
            secretLabel: r.endpoint.previousSecretExpiresAt
              ? `New signing secret: the old one also signs until ${when(r.endpoint.previousSecretExpiresAt)}`
              : 'New signing secret: the old one no longer verifies',
          }),
        failure: (state) => endpointPage(ctx, d, id, { state }),
      },
    );
  });

  router.post('/developers/webhooks/:id/delete', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'webhook_endpoint.delete',
        objectType: 'webhook_endpoint',
        objectId: id,
        run: async (tx) => deleteWebhookEndpoint(tx, id, new Date()),
      },
      { fields: [], success: () => redirectWithNotice(ctx, '/dashboard/developers/webhooks', 'endpoint_deleted'), failure: (state) => endpointPage(ctx, d, id, { state }) },
    );
  });

  const deliveriesPage = async (ctx: AppContext, d: Dashboard, state?: FormState) => {
    const q = queryParams(ctx, ['endpoint', 'event', 'starting_after']);
    const filter = parseQuery(listWebhookDeliveriesQuery, q);
    const page = await listWebhookDeliveries(d.db, filter, pageParams(q));
    sendPage(ctx, d, {
      title: 'Webhook deliveries',
      active: '/dashboard/developers/deliveries',
      body: (
        <Panel title={filter.endpoint ? `Deliveries to ${filter.endpoint}` : 'All deliveries'} id="deliveries">
          <FormErrors state={state} />
          <DeliveriesTable d={d} rows={page.data} />
          <Pager basePath="/dashboard/developers/deliveries" query={q} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
      ),
    });
  };

  router.get('/developers/deliveries', session, async (ctx) => deliveriesPage(ctx, dash(ctx)));

  router.get('/developers/deliveries/:id', session, async (ctx) => {
    const d = dash(ctx);
    const w = await getWebhookDelivery(d.db, pathId(ctx.params.id));
    sendPage(ctx, d, {
      title: 'Webhook delivery',
      active: '/dashboard/developers/deliveries',
      body: (
        <>
          <Panel title="Delivery" id="delivery">
            <Props
              rows={[
                ['Id', <span class="mono">{w.id}</span>],
                ['Event', <a href={`/dashboard/developers/events/${w.eventId}`} class="mono">{`${w.eventType} (${w.eventId})`}</a>],
                [
                  'Endpoint',
                  <a href={`/dashboard/developers/webhooks/${w.endpointId}`} class="mono">
                    {w.endpointId}
                  </a>,
                ],
                [
                  'Status',
                  <span id="delivery-status">
                    <Status value={w.status} />
                  </span>,
                ],
                ['Next automatic retry', when(w.nextRetryAt)],
              ]}
            />
            {d.can('manage_developers') && w.status !== 'pending' ? (
              <p>
                <ActionButton
                  action={`/dashboard/developers/deliveries/${w.id}/retry`}
                  csrf={d.csrf}
                  label={w.status === 'succeeded' ? 'Resend' : 'Retry now'}
                  id="retry-delivery"
                  busy="Sending…"
                />
              </p>
            ) : null}
          </Panel>
          <Panel title="Attempts" id="attempts">
            <Table
              caption="Attempts"
              rows={w.attempts}
              empty="No attempt yet."
              columns={[
                { label: '#', num: true, cell: (a) => a.attemptNumber },
                { label: 'When', nowrap: true, cell: (a) => when(a.attemptedAt) },
                { label: 'Trigger', cell: (a) => a.trigger },
                { label: 'HTTP', cell: (a) => a.statusCode ?? '—' },
                { label: 'Latency', num: true, cell: (a) => `${a.latencyMs} ms` },
                { label: 'Error', cell: (a) => a.error ?? '—' },
                { label: 'Response', cell: (a) => <span class="mono">{(a.responseBody ?? '').slice(0, 200)}</span> },
              ]}
            />
          </Panel>
        </>
      ),
    });
  });

  router.post('/developers/deliveries/:id/retry', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'webhook_delivery.retry',
        objectType: 'webhook_delivery',
        objectId: id,
        // Signals the delivery workflow: no transaction held meanwhile.
        stepwise: true,
        run: async (_db, _after, scope) => retryWebhookDelivery(deps, scope, id),
      },
      { fields: [], success: () => redirectWithNotice(ctx, `/dashboard/developers/deliveries/${id}`, 'delivery_retried'), failure: (state) => deliveriesPage(ctx, d, state) },
    );
  });

  router.get('/developers/events', session, async (ctx) => {
    const d = dash(ctx);
    const q = queryParams(ctx, ['type', 'starting_after']);
    const filter = parseQuery(listEventsQuery, q);
    const page = await listEvents(d.db, filter, pageParams(q));
    sendPage(ctx, d, {
      title: 'Events',
      active: '/dashboard/developers/events',
      body: (
        <Panel title="Events" id="events">
          <form method="get" action="/dashboard/developers/events" class="filters">
            <div class="field">
              <label for="f-type">Type</label>
              <select id="f-type" name="type">
                <option value="">Every type</option>
                {EVENT_TYPE_NAMES.map((t) => (
                  <option value={t} selected={t === filter.type}>
                    {t}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" class="secondary">
              Filter
            </button>
          </form>
          <Table
            caption="Events"
            rows={page.data}
            empty="No events."
            columns={[
              {
                label: 'Event',
                cell: (e) => (
                  <a href={`/dashboard/developers/events/${e.id}`} class="mono">
                    {e.id}
                  </a>
                ),
              },
              { label: 'Type', cell: (e) => <span class="mono">{e.type}</span> },
              { label: 'Object', cell: (e) => <span class="mono">{String((e.data as { id?: unknown })?.id ?? '—')}</span> },
              { label: 'Created', nowrap: true, cell: (e) => when(e.createdAt) },
            ]}
          />
          <Pager basePath="/dashboard/developers/events" query={q} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
      ),
    });
  });

  router.get('/developers/events/:id', session, async (ctx) => {
    const d = dash(ctx);
    const e = await getEvent(d.db, pathId(ctx.params.id));
    const deliveries = await listWebhookDeliveries(d.db, { event: e.id }, { limit: 20 });
    sendPage(ctx, d, {
      title: `Event ${e.type}`,
      active: '/dashboard/developers/events',
      body: (
        <>
          <Panel title="Event" id="event">
            <Props
              rows={[
                ['Id', <span class="mono">{e.id}</span>],
                ['Type', e.type],
                ['Created', when(e.createdAt)],
              ]}
            />
            <pre class="mono">{JSON.stringify(e.data, null, 2)}</pre>
          </Panel>
          <Panel title="Deliveries" id="event-deliveries">
            <DeliveriesTable d={d} rows={deliveries.data} />
          </Panel>
        </>
      ),
    });
  });
}
