// Which portal action each setting governs (portal-settings.ts). An action the settings turn
// off is refused on the server too, not only hidden on the page.
import { errors } from '../../errors';
import type { PortalSettings } from './portal-settings';

export type PortalAction = 'cancel' | 'uncancel' | 'add_card' | 'set_default_card' | 'remove_card' | 'update_billing_details' | 'pay_invoice' | 'view_documents';

const GOVERNED_BY: Record<PortalAction, keyof PortalSettings> = {
  cancel: 'allowCancel',
  uncancel: 'allowCancel',
  add_card: 'allowUpdatePaymentMethods',
  set_default_card: 'allowUpdatePaymentMethods',
  remove_card: 'allowUpdatePaymentMethods',
  update_billing_details: 'allowUpdateBillingDetails',
  pay_invoice: 'allowPayInvoices',
  view_documents: 'showInvoiceHistory',
};

export function assertPortalAllows(settings: PortalSettings, action: PortalAction): void {
  if (settings[GOVERNED_BY[action]] !== true) {
    throw errors.portalActionNotAllowed(`The merchant does not offer '${action}' in the customer portal`, undefined);
  }
}
