// Every area of the application router, in mount order (api/route.ts). createApp registers them;
// the OpenAPI document is built from their declarations. A new area adds itself here.
import { type Area, routesWithAuth } from './route';
import { opsRoutes } from './ops-endpoints';
import { healthRoutes } from './routes/health';
import { merchantsRoutes } from './routes/merchants/router';
import { apiKeysRoutes } from './routes/api-keys/router';
import { dashboardOnlyRoutes } from './routes/dashboard-only';
import { webhookEndpointsRoutes } from './routes/webhook-endpoints/router';
import { rotateWebhookSecretRoute } from './routes/webhook-endpoints/rotate-secret';
import { webhookDeliveriesRoutes } from './routes/webhook-deliveries/router';
import { webhookEventsRoutes } from './routes/events/router';
import { customersRoutes } from './routes/customers/router';
import { productsRoutes } from './routes/products/router';
import { pricesRoutes } from './routes/prices/router';
import { metersRoutes } from './routes/meters/router';
import { usageEventsRoutes } from './routes/usage-events/router';
import { paymentsRoutes } from './routes/payments/router';
import { paymentMethodsRoutes } from './routes/payment-methods/router';
import { refundsRoutes } from './routes/refunds/router';
import { invoicesRoutes } from './routes/invoices/router';
import { invoiceItemsRoutes } from './routes/invoice-items/router';
import { creditNotesRoutes } from './routes/credit-notes/router';
import { testHelpersRoutes } from './routes/test-helpers/router';
import { eventFeedRoute } from './routes/test-helpers/event-feed';
import { paymentSessionsRoutes } from './routes/payment-sessions/router';
import { checkoutRoutes } from './checkout/router';
import { testClocksRoutes } from './routes/test-clocks/router';
import { subscriptionsRoutes } from './routes/subscriptions/router';
import { subscriptionItemsRoutes } from './routes/subscription-items/router';
import { ledgerRoutes } from './routes/ledger/router';
import { vatSettingsRoutes } from './routes/vat-settings/router';
import { customerPortalsRoutes } from './routes/customer-portals/router';
import { accountingLinkRoutes } from './routes/accounting-link/router';
import { portalRoutes } from './portal/router';
import { documentsRoutes } from './routes/documents/router';
import { exportsRoutes } from './routes/exports/router';
import { openApiRoutes } from './openapi/router';

/** The areas, in mount order (the router matches in this order). */
export const AREAS: readonly Area[] = [
  opsRoutes,
  healthRoutes,
  merchantsRoutes,
  dashboardOnlyRoutes,
  apiKeysRoutes,
  customersRoutes,
  productsRoutes,
  pricesRoutes,
  metersRoutes,
  usageEventsRoutes,
  webhookEndpointsRoutes,
  rotateWebhookSecretRoute,
  webhookDeliveriesRoutes,
  webhookEventsRoutes,
  paymentsRoutes,
  paymentMethodsRoutes,
  refundsRoutes,
  invoicesRoutes,
  invoiceItemsRoutes,
  creditNotesRoutes,
  testHelpersRoutes,
  eventFeedRoute,
  paymentSessionsRoutes,
  checkoutRoutes,
  testClocksRoutes,
  subscriptionsRoutes,
  subscriptionItemsRoutes,
  vatSettingsRoutes,
  ledgerRoutes,
  customerPortalsRoutes,
  accountingLinkRoutes,
  documentsRoutes,
  exportsRoutes,
  portalRoutes,
  openApiRoutes,
];

/**
 * The routes served only to a dashboard session (API keys get 403 wrong_auth_method): read from
 * the declarations (`auth: 'dashboard'`), so the list cannot drift from the routes.
 */
export const DASHBOARD_ONLY_ROUTES = routesWithAuth(AREAS, 'dashboard');
