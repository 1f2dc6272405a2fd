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
import { ActionButton, Csrf, Field, FormErrors, Pager, Panel, Props, SecretOnce, Status, statusWord, Table, TextArea, when, type FormState } from '../views/ui';
import { fillText, type DashboardMessages } from '../i18n';
import { SETTINGS_MESSAGES } from '../messages-settings';
import { localState } from './l10n-settings';

/** The rotation form's choices for how long the old secret keeps signing (seconds). */
const SECRET_OVERLAPS: Array<[number, keyof DashboardMessages]> = [
  [0, 'wh_overlap_0'],
  [3600, 'wh_overlap_1h'],
  [6 * 3600, 'wh_overlap_6h'],
  [MAX_SECRET_OVERLAP_SECONDS, 'wh_overlap_24h'],
];
const DEFAULT_SECRET_OVERLAP = MAX_SECRET_OVERLAP_SECONDS;
/** The API's messages are English; the page shows them in its language (./l10n-settings.tsx errorText). */
const EN = SETTINGS_MESSAGES.en;

function secretOverlap(raw: string): number {
  const choice = SECRET_OVERLAPS.find(([seconds]) => String(seconds) === raw);
  if (!choice) throw errors.validationFailed(EN.wh_overlap_choose, 'expires_in');
  return choice[0];
}

async function apiKeysPage(ctx: AppContext, d: Dashboard, extra: { state?: FormState; shown?: { label: string; key: string; id: string } } = {}) {
  const t = d.t;
  const state = localState(extra.state, d.locale);
  const q = queryParams(ctx, ['starting_after']);
  const page = await listApiKeys(d.db, pageParams(q));
  const canManage = d.can('manage_developers');
  sendPage(ctx, d, {
    title: t.keys_title,
    active: '/dashboard/developers/api-keys',
    body: (
      <>
        {extra.shown ? <SecretOnce label={extra.shown.label} value={extra.shown.key} id="shown-key" /> : null}
        <Panel title={d.tenant.mode === 'live' ? t.keys_live : t.keys_test} id="keys">
          <Table<ApiKey>
            caption={t.keys_title}
            rows={page.data}
            empty={t.keys_none}
            columns={[
              { label: t.keys_label, cell: (k) => k.label ?? '—' },
              { label: t.c_type, cell: (k) => <span data-type={k.type}>{statusWord(k.type, t)}</span> },
              { label: t.keys_key, cell: (k) => <span class="mono">{`${k.type === 'secret' ? 'sk' : 'pk'}_${k.mode}_…${k.last4}`}</span> },
              { label: t.c_created, nowrap: true, cell: (k) => when(k.createdAt, d.locale) },
              { label: t.keys_rotated, nowrap: true, cell: (k) => when(k.rotatedAt, d.locale) },
              {
                label: t.c_actions,
                cell: (k) =>
                  canManage ? (
                    <div class="actions">
                      <ActionButton
                        action={`/dashboard/developers/api-keys/${k.id}/rotate`}
                        csrf={d.csrf}
                        label={t.keys_rotate}
                        id={`rotate-${k.id}`}
                        confirm={t.keys_rotate_confirm}
                      />
                      <ActionButton
                        action={`/dashboard/developers/api-keys/${k.id}/revoke`}
                        csrf={d.csrf}
                        label={t.keys_revoke}
                        danger
                        id={`revoke-${k.id}`}
                        confirm={t.keys_revoke_confirm}
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
          <Panel title={t.keys_create} id="create-key">
            <FormErrors state={state} />
            <form method="post" action="/dashboard/developers/api-keys" id="create-key-form">
              <Csrf token={d.csrf} />
              <Field name="label" label={t.keys_label} state={state} hint={t.keys_label_hint} input={{ maxLength: 200 }} />
              <div class="field">
                <label for="f-type">{t.c_type}</label>
                <select id="f-type" name="type">
                  <option value="secret">{t.keys_type_secret}</option>
                  <option value="publishable">{t.keys_type_publishable}</option>
                </select>
                {state?.errors?.type ? <p class="field-error">{state.errors.type}</p> : null}
              </div>
              <p class="muted">{fillText(t.keys_mode_note, { mode: d.tenant.mode === 'live' ? t.mode_live : t.mode_test })}</p>
              <button type="submit" id="create-key-button">
                {t.keys_create_button}
              </button>
            </form>
          </Panel>
        ) : null}
      </>
    ),
  });
}

function endpointForm(d: Dashboard, o: { action: string; state?: FormState; endpoint?: WebhookEndpoint; submit: string; id: string }) {
  const t = d.t;
  const opts = { ...o, state: localState(o.state, d.locale) };
  const chosen = new Set(opts.state?.values?.events !== undefined ? ([] as string[]).concat(opts.state.values.events) : (opts.endpoint?.events ?? []));
  const eventsError = opts.state?.errors?.events;
  return (
    <form method="post" action={opts.action} id={opts.id}>
      <Csrf token={d.csrf} />
      <FormErrors state={opts.state} />
      <Field name="url" label={t.wh_endpoint_url} type="url" state={opts.state} value={opts.endpoint?.url} hint={t.wh_url_hint} input={{ required: true, maxLength: 2048 }} />
      <TextArea name="description" label={t.c_description} state={opts.state} value={opts.endpoint?.description} />
      <fieldset class="field" aria-describedby={eventsError ? 'f-events-error' : undefined}>
        <legend>{t.wh_events_legend}</legend>
        <label>
          <input type="checkbox" name="events" value={ALL_EVENTS} checked={chosen.has(ALL_EVENTS)} /> {t.wh_every_event_box}
        </label>
        {EVENT_TYPE_NAMES.map((type) => (
          <label>
            <input type="checkbox" name="events" value={type} checked={chosen.has(type)} /> <span class="mono">{type}</span>
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
  const t = d.t;
  const q = queryParams(ctx, ['starting_after']);
  const page = await listWebhookEndpoints(d.db, pageParams(q));
  sendPage(ctx, d, {
    title: t.wh_title,
    active: '/dashboard/developers/webhooks',
    body: (
      <>
        <Panel title={t.wh_endpoints} id="endpoints">
          <Table<WebhookEndpoint>
            caption={t.wh_caption}
            rows={page.data}
            empty={t.wh_none}
            columns={[
              {
                label: t.wh_url,
                role: 'title',
                cell: (e) => (
                  <a href={`/dashboard/developers/webhooks/${e.id}`} class="mono">
                    {e.url}
                  </a>
                ),
              },
              { label: t.c_events, cell: (e) => (e.events.includes(ALL_EVENTS) ? t.wh_every_event : fillText(t.wh_types, { count: e.events.length })) },
              { label: t.c_status, role: 'status', cell: (e) => <Status value={e.status} /> },
              { label: t.c_created, nowrap: true, cell: (e) => when(e.createdAt, d.locale) },
            ]}
          />
          <Pager basePath="/dashboard/developers/webhooks" query={q} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
        {d.can('manage_developers') ? (
          <Panel title={t.wh_add} id="add-endpoint">
            {endpointForm(d, { action: '/dashboard/developers/webhooks', state: extra.state, submit: t.wh_add_button, id: 'add-endpoint-form' })}
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
  const t = d.t;
  sendPage(ctx, d, {
    title: t.wh_endpoint_title,
    active: '/dashboard/developers/webhooks',
    status: extra.status,
    body: (
      <>
        {extra.secret ? <SecretOnce label={extra.secretLabel ?? t.wh_secret} value={extra.secret} id="shown-secret" /> : null}
        <Panel title={t.wh_endpoint} id="endpoint">
          <Props
            rows={[
              [t.c_id, <span class="mono">{e.id}</span>],
              [
                t.wh_url,
                <span class="mono" id="endpoint-url">
                  {e.url}
                </span>,
              ],
              [
                t.c_status,
                <span id="endpoint-status">
                  <Status value={e.status} />
                </span>,
              ],
              [t.c_events, e.events.includes(ALL_EVENTS) ? t.wh_every_event : <span class="mono">{e.events.join(', ')}</span>],
              [t.c_description, e.description],
              [t.c_created, when(e.createdAt, d.locale)],
            ]}
          />
          {canManage ? (
            <div class="actions" style={undefined}>
              {e.status === 'enabled' ? (
                <ActionButton action={`/dashboard/developers/webhooks/${e.id}/disable`} csrf={d.csrf} label={t.wh_disable} id="disable-endpoint" confirm={t.wh_disable_confirm} />
              ) : (
                <ActionButton action={`/dashboard/developers/webhooks/${e.id}/enable`} csrf={d.csrf} label={t.wh_enable} id="enable-endpoint" />
              )}
              <form method="post" action={`/dashboard/developers/webhooks/${e.id}/rotate-secret`} class="inline" data-confirm={t.wh_rotate_confirm}>
                <Csrf token={d.csrf} />
                <input type="hidden" name="_idem" value={randomBytes(16).toString('base64url')} />
                <label for="f-secret-overlap">{t.wh_overlap_label}</label>{' '}
                <select id="f-secret-overlap" name="expires_in">
                  {SECRET_OVERLAPS.map(([seconds, label]) => (
                    <option value={String(seconds)} selected={seconds === DEFAULT_SECRET_OVERLAP}>
                      {t[label]}
                    </option>
                  ))}
                </select>{' '}
                <button type="submit" class="secondary" id="rotate-secret">
                  {t.wh_rotate}
                </button>
              </form>
              <ActionButton action={`/dashboard/developers/webhooks/${e.id}/delete`} csrf={d.csrf} label={t.wh_delete} danger id="delete-endpoint" confirm={t.wh_delete_confirm} />
            </div>
          ) : null}
        </Panel>
        <Panel title={t.wh_recent} id="endpoint-deliveries">
          <DeliveriesTable d={d} rows={deliveries.data} />
          <p>
            <a href={`/dashboard/developers/deliveries?endpoint=${e.id}`}>{t.wh_all_deliveries}</a>
          </p>
        </Panel>
        {canManage ? (
          <Panel title={t.wh_edit} id="edit-endpoint">
            {endpointForm(d, { action: `/dashboard/developers/webhooks/${e.id}`, state: extra.state, endpoint: e, submit: t.c_save, id: 'edit-endpoint-form' })}
          </Panel>
        ) : null}
      </>
    ),
  });
}

type DeliveryRow = Awaited<ReturnType<typeof listWebhookDeliveries>>['data'][number];

function DeliveriesTable({ d, rows }: { d: Dashboard; rows: DeliveryRow[] }) {
  const t = d.t;
  return (
    <Table<DeliveryRow>
      caption={t.dl_caption}
      rows={rows}
      empty={t.dl_none}
      columns={[
        {
          label: t.dl_delivery,
          role: 'title',
          cell: (w) => (
            <a href={`/dashboard/developers/deliveries/${w.id}`} class="mono">
              {w.id}
            </a>
          ),
        },
        { label: t.c_event, cell: (w) => <span class="mono">{w.eventType}</span> },
        { label: t.c_status, role: 'status', cell: (w) => <Status value={w.status} /> },
        { label: t.dl_attempts, num: true, cell: (w) => w.attemptCount },
        { label: t.dl_last_result, cell: (w) => (w.lastStatusCode ? `HTTP ${w.lastStatusCode}` : (w.lastError ?? '—')) },
        { label: t.dl_last_attempt, cell: (w) => when(w.lastAttemptAt, d.locale) },
        {
          label: t.c_actions,
          cell: (w) =>
            d.can('manage_developers') && w.status !== 'pending' ? (
              <ActionButton
                action={`/dashboard/developers/deliveries/${w.id}/retry`}
                csrf={d.csrf}
                label={w.status === 'succeeded' ? t.dl_resend : t.dl_retry}
                id={`retry-${w.id}`}
                busy={t.c_sending}
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
  if (fields(form, 'events').length === 0) throw errors.validationFailed(EN.wh_choose_event, 'events');
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
        success: (r) =>
          apiKeysPage(ctx, d, {
            shown: { label: fillText(d.t.keys_new, { type: statusWord(r.row.type, d.t), label: r.row.label ? `“${r.row.label}”` : '' }).trim(), key: r.key, id: r.row.id },
          }),
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
          apiKeysPage(ctx, d, { shown: { label: fillText(d.t.keys_rotated_shown, { label: r.row.label ? `“${r.row.label}”` : r.row.id }), key: r.key, id: r.row.id } }),
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
        success: (r) => endpointPage(ctx, d, r.endpoint.id, { secret: r.secret, secretLabel: d.t.wh_secret_new_endpoint, status: 201 }),
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
          if ((input.events ?? []).length === 0) throw errors.validationFailed(EN.wh_choose_event, 'events');
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
              ? fillText(d.t.wh_secret_overlap, { date: when(r.endpoint.previousSecretExpiresAt, d.locale) })
              : d.t.wh_secret_no_overlap,
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
    const t = d.t;
    sendPage(ctx, d, {
      title: t.dl_title,
      active: '/dashboard/developers/deliveries',
      body: (
        <Panel title={filter.endpoint ? fillText(t.dl_to, { endpoint: filter.endpoint }) : t.dl_all} id="deliveries">
          <FormErrors state={localState(state, d.locale)} />
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
    const t = d.t;
    sendPage(ctx, d, {
      title: t.dl_detail_title,
      active: '/dashboard/developers/deliveries',
      body: (
        <>
          <Panel title={t.dl_delivery} id="delivery">
            <Props
              rows={[
                [t.c_id, <span class="mono">{w.id}</span>],
                [t.c_event, <a href={`/dashboard/developers/events/${w.eventId}`} class="mono">{`${w.eventType} (${w.eventId})`}</a>],
                [
                  t.wh_endpoint,
                  <a href={`/dashboard/developers/webhooks/${w.endpointId}`} class="mono">
                    {w.endpointId}
                  </a>,
                ],
                [
                  t.c_status,
                  <span id="delivery-status">
                    <Status value={w.status} />
                  </span>,
                ],
                [t.dl_next_retry, when(w.nextRetryAt, d.locale)],
              ]}
            />
            {d.can('manage_developers') && w.status !== 'pending' ? (
              <p>
                <ActionButton
                  action={`/dashboard/developers/deliveries/${w.id}/retry`}
                  csrf={d.csrf}
                  label={w.status === 'succeeded' ? t.dl_resend : t.dl_retry}
                  id="retry-delivery"
                  busy={t.c_sending}
                />
              </p>
            ) : null}
          </Panel>
          <Panel title={t.dl_attempts} id="attempts">
            <Table
              caption={t.dl_attempts}
              rows={w.attempts}
              empty={t.dl_no_attempt}
              columns={[
                { label: '#', num: true, cell: (a) => a.attemptNumber },
                { label: t.c_when, nowrap: true, cell: (a) => when(a.attemptedAt, d.locale) },
                { label: t.dl_trigger, cell: (a) => <span data-trigger={a.trigger}>{statusWord(a.trigger, t)}</span> },
                { label: 'HTTP', cell: (a) => a.statusCode ?? '—' },
                { label: t.dl_latency, num: true, cell: (a) => `${a.latencyMs} ms` },
                { label: t.dl_error, cell: (a) => a.error ?? '—' },
                { label: t.dl_response, cell: (a) => <span class="mono">{(a.responseBody ?? '').slice(0, 200)}</span> },
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
    const t = d.t;
    sendPage(ctx, d, {
      title: t.ev_title,
      active: '/dashboard/developers/events',
      body: (
        <Panel title={t.ev_title} id="events">
          <form method="get" action="/dashboard/developers/events" class="filters">
            <div class="field">
              <label for="f-type">{t.c_type}</label>
              <select id="f-type" name="type">
                <option value="">{t.ev_every_type}</option>
                {EVENT_TYPE_NAMES.map((type) => (
                  <option value={type} selected={type === filter.type}>
                    {type}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" class="secondary">
              {t.ev_filter}
            </button>
          </form>
          <Table
            caption={t.ev_title}
            rows={page.data}
            empty={t.ev_none}
            columns={[
              {
                label: t.c_event,
                cell: (e) => (
                  <a href={`/dashboard/developers/events/${e.id}`} class="mono">
                    {e.id}
                  </a>
                ),
              },
              { label: t.c_type, cell: (e) => <span class="mono">{e.type}</span> },
              { label: t.dl_object, cell: (e) => <span class="mono">{String((e.data as { id?: unknown })?.id ?? '—')}</span> },
              { label: t.c_created, nowrap: true, cell: (e) => when(e.createdAt, d.locale) },
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
    const t = d.t;
    sendPage(ctx, d, {
      title: fillText(t.ev_detail_title, { type: e.type }),
      active: '/dashboard/developers/events',
      body: (
        <>
          <Panel title={t.c_event} id="event">
            <Props
              rows={[
                [t.c_id, <span class="mono">{e.id}</span>],
                [t.c_type, <span class="mono">{e.type}</span>],
                [t.c_created, when(e.createdAt, d.locale)],
              ]}
            />
            <pre class="mono">{JSON.stringify(e.data, null, 2)}</pre>
          </Panel>
          <Panel title={t.ev_deliveries} id="event-deliveries">
            <DeliveriesTable d={d} rows={deliveries.data} />
          </Panel>
        </>
      ),
    });
  });
}
