// Customers: search by e-mail, name, kennitala or external id; a customer's subscriptions,
// invoices, payments and payment methods.
import type { AppContext, AppDeps } from '../../context';
import { pageParams, pathId } from '../../validate';
import { searchCustomers } from '../../../src/domain/customers/search-customers';
import { findCustomer } from '../../../src/domain/customers/find-customers';
import { listSubscriptions } from '../../../src/domain/subscriptions/find-subscriptions';
import { listInvoices } from '../../../src/domain/invoices/find-invoices';
import { listPayments } from '../../../src/domain/payments/find-payments';
import { listPaymentMethods } from '../../../src/domain/payment-methods/manage-payment-methods';
import type { Customer } from '../../../src/generated/prisma/client';
import { createPortalLink } from '../../../src/domain/customer-portals/create-portal-link';
import { listPortalLinks } from '../../../src/domain/customer-portals/find-portal-links';
import { revokePortalLink } from '../../../src/domain/customer-portals/revoke-portal-link';
import { portalLinkStatus } from '../../../src/domain/customer-portals/link-status';
import { portalLinkUrl } from '../../routes/customer-portals/presenter';
import { formPost } from '../forms';
import { redirectWithNotice } from '../render';
import { ActionButton, Csrf, FormErrors, SecretOnce, Status, type FormState } from '../views/ui';
import type { Dashboard } from '../session';
import type { DashboardRouter } from '../router-types';
import { dash, requireSession } from '../session';
import { queryParams } from '../http';
import { pathId as pid } from '../../validate';
import { sendPage } from '../render';
import { Pager, Panel, Props, Table, when } from '../views/ui';
import { fillText } from '../i18n';
import { InvoicesTable, PaymentsTable, SubscriptionsTable, planPrices } from '../views/tables';

/** "010269-4009", as a kennitala is written. */
function kennitalaText(k: string | null): string {
  return k ? `${k.slice(0, 6)}-${k.slice(6)}` : '—';
}

export function customerPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);

  router.get('/customers', session, async (ctx) => {
    const d = dash(ctx);
    const query = queryParams(ctx, ['q', 'starting_after']);
    const page = await searchCustomers(d.db, query.q ?? '', pageParams(query));
    const { t, locale } = d;
    sendPage(ctx, d, {
      title: t.customers,
      active: '/dashboard/customers',
      body: (
        <Panel title={query.q ? fillText(t.customers_matching, { q: query.q }) : t.customers} id="customers">
          <form method="get" action="/dashboard/customers" class="filters" role="search">
            <div class="field search">
              <label for="f-q">{t.search}</label>
              <input id="f-q" name="q" type="search" value={query.q ?? ''} maxLength={200} placeholder={t.customers_search_placeholder} />
            </div>
            <button type="submit" class="secondary" id="search-button">
              {t.search}
            </button>
          </form>
          <Table<Customer>
            caption={t.customers}
            rows={page.data}
            empty={query.q ? t.no_customer_matches : t.no_customers}
            columns={[
              { label: t.col_customer, role: 'title', cell: (c) => <a href={`/dashboard/customers/${c.id}`}>{c.name ?? c.email}</a> },
              { label: t.col_email, cell: (c) => c.email },
              { label: t.col_kennitala, cell: (c) => kennitalaText(c.kennitala) },
              { label: t.col_external_id, cell: (c) => c.externalId ?? '—' },
              { label: t.col_created, nowrap: true, cell: (c) => when(c.createdAt, locale) },
            ]}
          />
          <Pager basePath="/dashboard/customers" query={query} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
      ),
    });
  });

  async function customerPage(ctx: AppContext, d: Dashboard, id: string, extra: { state?: FormState; link?: string; status?: number } = {}) {
    const c = await findCustomer(d.db, id);
    const links = (await listPortalLinks(d.db, { customerId: c.id }, { limit: 10 })).data;
    const now = new Date();
    const [subs, invoices, payments, methods] = await Promise.all([
      listSubscriptions(d.db, { customerId: c.id }, { limit: 25 }),
      listInvoices(d.db, { customerId: c.id }, { limit: 25 }),
      listPayments(d.db, { customerId: c.id }, { limit: 25 }),
      listPaymentMethods(d.db, { customerId: c.id }, { limit: 25 }),
    ]);
    const names = new Map([[c.id, c]]);
    const prices = await planPrices(d.db, subs.data);
    const { t, locale } = d;
    sendPage(ctx, d, {
      status: extra.status,
      title: c.name ?? c.email,
      active: '/dashboard/customers',
      body: (
        <>
          <Panel title={t.customer} id="customer">
            <Props
              rows={[
                [t.col_id, <span class="mono">{c.id}</span>],
                [t.col_email, c.email],
                [t.col_name, c.name],
                [t.col_kennitala, c.kennitala ? kennitalaText(c.kennitala) : null],
                [t.col_vat_number, c.vatNumber],
                [t.col_external_id, c.externalId],
                [t.col_phone, c.phone],
                [
                  t.col_address,
                  [c.billingAddressLine1, c.billingAddressLine2, [c.billingPostalCode, c.billingCity].filter(Boolean).join(' '), c.billingCountry].filter(Boolean).join(', ') ||
                    null,
                ],
                [t.col_created, when(c.createdAt, locale)],
              ]}
            />
          </Panel>
          <Panel title={t.portal_links} id="portal-links">
            {extra.link ? <SecretOnce label={t.portal_link_once} value={extra.link} id="portal-link" /> : null}
            <FormErrors state={extra.state} />
            <Table
              caption={t.portal_links_caption}
              rows={links}
              empty={t.no_portal_links}
              columns={[
                { label: t.col_link, role: 'title', cell: (l) => <span class="mono">{l.id}</span> },
                { label: t.status, role: 'status', cell: (l) => <Status value={portalLinkStatus(l, now)} /> },
                { label: t.col_expires, nowrap: true, cell: (l) => when(l.expiresAt, locale) },
                { label: t.col_last_used, nowrap: true, cell: (l) => when(l.lastAccessedAt, locale) },
                {
                  label: '',
                  cell: (l) =>
                    d.can('manage_billing') && portalLinkStatus(l, now) === 'active' ? (
                      <ActionButton action={`/dashboard/customers/${c.id}/portal-links/${l.id}/revoke`} csrf={d.csrf} label={t.revoke} />
                    ) : null,
                },
              ]}
            />
            {d.can('manage_billing') ? (
              <form method="post" action={`/dashboard/customers/${c.id}/portal-links`} id="portal-link-form">
                <Csrf token={d.csrf} />
                <button type="submit" id="create-portal-link">
                  {t.create_portal_link}
                </button>
              </form>
            ) : null}
          </Panel>
          <Panel title={t.subscriptions} id="customer-subscriptions">
            <SubscriptionsTable rows={subs.data} names={names} prices={prices} />
            {subs.hasMore ? <a href={`/dashboard/subscriptions?customer=${c.id}`}>{t.all_subscriptions}</a> : null}
          </Panel>
          <Panel title={t.invoices} id="customer-invoices">
            <InvoicesTable rows={invoices.data} names={names} />
            {invoices.hasMore ? <a href={`/dashboard/invoices?customer=${c.id}`}>{t.all_invoices}</a> : null}
          </Panel>
          <Panel title={t.payments} id="customer-payments">
            <PaymentsTable rows={payments.data.map((p) => p.payment)} names={names} />
            {payments.hasMore ? <a href={`/dashboard/payments?customer=${c.id}`}>{t.all_payments}</a> : null}
          </Panel>
          <Panel title={t.payment_methods} id="customer-payment-methods">
            <Table
              caption={t.payment_methods}
              rows={methods.data}
              empty={t.no_payment_methods}
              columns={[
                { label: t.col_method, role: 'id', cell: (m) => <span class="mono">{m.paymentMethod.id}</span> },
                { label: t.col_type, cell: (m) => (m.paymentMethod.type === 'card' ? t.coll_card : m.paymentMethod.type) },
                {
                  label: t.col_card,
                  cell: (m) =>
                    m.paymentMethod.brand ? `${m.paymentMethod.brand} …${m.paymentMethod.last4 ?? ''} ${m.paymentMethod.expMonth ?? ''}/${m.paymentMethod.expYear ?? ''}` : '—',
                },
                { label: t.col_default, cell: (m) => (m.isDefault ? t.yes : '') },
                { label: t.col_saved, nowrap: true, cell: (m) => when(m.paymentMethod.createdAt, locale) },
              ]}
            />
          </Panel>
        </>
      ),
    });
  }

  router.get('/customers/:id', session, async (ctx) => customerPage(ctx, dash(ctx), pathId(ctx.params.id)));

  router.post('/customers/:id/portal-links', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_billing',
        action: 'customer_portal.create',
        objectType: 'customer',
        objectId: id,
        run: async (tx) => createPortalLink(tx, d.tenant, { customerId: id }, new Date()),
        detail: (r) => ({ link: r.link.id }),
      },
      {
        fields: [],
        success: (r) => customerPage(ctx, d, id, { link: portalLinkUrl(deps.config.publicBaseUrl, r.token), status: 201 }),
        failure: (state) => customerPage(ctx, d, id, { state }),
      },
    );
  });

  router.post('/customers/:id/portal-links/:link/revoke', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    const link = pid(ctx.params.link, 'link');
    await formPost(
      ctx,
      d,
      { permission: 'manage_billing', action: 'customer_portal.revoke', objectType: 'customer_portal', objectId: link, run: async (tx) => revokePortalLink(tx, link, new Date()) },
      { fields: [], success: () => redirectWithNotice(ctx, `/dashboard/customers/${id}`, 'settings_saved'), failure: (state) => customerPage(ctx, d, id, { state }) },
    );
  });
}
