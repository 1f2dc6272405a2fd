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
import { InvoicesTable, PaymentsTable, SubscriptionsTable, planPrices } from '../views/tables';

export function customerPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);

  router.get('/customers', session, async (ctx) => {
    const d = dash(ctx);
    const query = queryParams(ctx, ['q', 'starting_after']);
    const page = await searchCustomers(d.db, query.q ?? '', pageParams(query));
    sendPage(ctx, d, {
      title: 'Customers',
      active: '/dashboard/customers',
      body: (
        <Panel title={query.q ? `Customers matching “${query.q}”` : 'Customers'} id="customers">
          <form method="get" action="/dashboard/customers" class="filters" role="search">
            <div class="field">
              <label for="f-q">Search</label>
              <input id="f-q" name="q" type="search" value={query.q ?? ''} maxLength={200} placeholder="e-mail, name, kennitala or external id" />
            </div>
            <button type="submit" class="secondary" id="search-button">
              Search
            </button>
          </form>
          <Table<Customer>
            caption="Customers"
            rows={page.data}
            empty={query.q ? 'No customer matches.' : 'No customers yet.'}
            columns={[
              { label: 'Customer', cell: (c) => <a href={`/dashboard/customers/${c.id}`}>{c.name ?? c.email}</a> },
              { label: 'E-mail', cell: (c) => c.email },
              { label: 'Kennitala', cell: (c) => (c.kennitala ? `${c.kennitala.slice(0, 6)}-${c.kennitala.slice(6)}` : '—') },
              { label: 'External id', cell: (c) => c.externalId ?? '—' },
              { label: 'Created', nowrap: true, cell: (c) => when(c.createdAt) },
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
    sendPage(ctx, d, {
      status: extra.status,
      title: c.name ?? c.email,
      active: '/dashboard/customers',
      body: (
        <>
          <Panel title="Customer" id="customer">
            <Props
              rows={[
                ['Id', <span class="mono">{c.id}</span>],
                ['E-mail', c.email],
                ['Name', c.name],
                ['Kennitala', c.kennitala],
                ['VAT number', c.vatNumber],
                ['External id', c.externalId],
                ['Phone', c.phone],
                [
                  'Address',
                  [c.billingAddressLine1, c.billingAddressLine2, [c.billingPostalCode, c.billingCity].filter(Boolean).join(' '), c.billingCountry].filter(Boolean).join(', ') ||
                    null,
                ],
                ['Created', when(c.createdAt)],
              ]}
            />
          </Panel>
          <Panel title="Customer portal links" id="portal-links">
            {extra.link ? <SecretOnce label="Portal link: send it to the customer (valid 1 hour)" value={extra.link} id="portal-link" /> : null}
            <FormErrors state={extra.state} />
            <Table
              caption="Portal links"
              rows={links}
              empty="No portal links."
              columns={[
                { label: 'Link', cell: (l) => <span class="mono">{l.id}</span> },
                { label: 'Status', cell: (l) => <Status value={portalLinkStatus(l, now)} /> },
                { label: 'Expires', nowrap: true, cell: (l) => when(l.expiresAt) },
                { label: 'Last used', nowrap: true, cell: (l) => when(l.lastAccessedAt) },
                {
                  label: '',
                  cell: (l) =>
                    d.can('manage_billing') && portalLinkStatus(l, now) === 'active' ? (
                      <ActionButton action={`/dashboard/customers/${c.id}/portal-links/${l.id}/revoke`} csrf={d.csrf} label="Revoke" />
                    ) : null,
                },
              ]}
            />
            {d.can('manage_billing') ? (
              <form method="post" action={`/dashboard/customers/${c.id}/portal-links`} id="portal-link-form">
                <Csrf token={d.csrf} />
                <button type="submit" id="create-portal-link">
                  Create a portal link
                </button>
              </form>
            ) : null}
          </Panel>
          <Panel title="Subscriptions" id="customer-subscriptions">
            <SubscriptionsTable rows={subs.data} names={names} prices={prices} />
            {subs.hasMore ? <a href={`/dashboard/subscriptions?customer=${c.id}`}>All subscriptions</a> : null}
          </Panel>
          <Panel title="Invoices" id="customer-invoices">
            <InvoicesTable rows={invoices.data} names={names} />
            {invoices.hasMore ? <a href={`/dashboard/invoices?customer=${c.id}`}>All invoices</a> : null}
          </Panel>
          <Panel title="Payments" id="customer-payments">
            <PaymentsTable rows={payments.data.map((p) => p.payment)} names={names} />
            {payments.hasMore ? <a href={`/dashboard/payments?customer=${c.id}`}>All payments</a> : null}
          </Panel>
          <Panel title="Payment methods" id="customer-payment-methods">
            <Table
              caption="Payment methods"
              rows={methods.data}
              empty="No saved payment methods."
              columns={[
                { label: 'Method', cell: (m) => <span class="mono">{m.paymentMethod.id}</span> },
                { label: 'Type', cell: (m) => m.paymentMethod.type },
                {
                  label: 'Card',
                  cell: (m) =>
                    m.paymentMethod.brand ? `${m.paymentMethod.brand} …${m.paymentMethod.last4 ?? ''} ${m.paymentMethod.expMonth ?? ''}/${m.paymentMethod.expYear ?? ''}` : '—',
                },
                { label: 'Default', cell: (m) => (m.isDefault ? 'yes' : '') },
                { label: 'Saved', nowrap: true, cell: (m) => when(m.paymentMethod.createdAt) },
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
