// What customers may do in the portal, per merchant (the same in test and live mode). No row
// means the defaults below (docs/portal.md). Managed with `billing portal settings` and the
// dashboard's Settings: both call these functions. Pause is never offered in the portal.
import type { Db } from '../../db/client';
import type { TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';

export interface PortalSettings {
  /** Cancel at period end, and undo it. */
  allowCancel: boolean;
  /** Add a card, make one the default, remove a non-default one. */
  allowUpdatePaymentMethods: boolean;
  /** Change e-mail, billing address and VAT number. */
  allowUpdateBillingDetails: boolean;
  /** Pay an open invoice now with the default card. */
  allowPayInvoices: boolean;
  /** Show invoices and credit notes with their documents. */
  showInvoiceHistory: boolean;
  /** Where "Back to <merchant>" leads; null: no such link. */
  returnUrl: string | null;
}

export const DEFAULT_PORTAL_SETTINGS: Readonly<PortalSettings> = Object.freeze({
  allowCancel: true,
  allowUpdatePaymentMethods: true,
  allowUpdateBillingDetails: true,
  allowPayInvoices: true,
  showInvoiceHistory: true,
  returnUrl: null,
});

export const PORTAL_SETTING_PARAMS: Record<keyof PortalSettings, string> = {
  allowCancel: 'allow_cancel',
  allowUpdatePaymentMethods: 'allow_update_payment_methods',
  allowUpdateBillingDetails: 'allow_update_billing_details',
  allowPayInvoices: 'allow_pay_invoices',
  showInvoiceHistory: 'show_invoice_history',
  returnUrl: 'return_url',
};

export async function getPortalSettings(db: Db | TenantDb, merchantId: string): Promise<PortalSettings> {
  const row = await db.portalSettings.findUnique({ where: { merchantId } });
  if (!row) return { ...DEFAULT_PORTAL_SETTINGS };
  const { merchantId: _m, updatedAt: _u, ...settings } = row;
  return settings;
}

function checkReturnUrl(value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    throw errors.validationFailed('return_url must be an absolute http(s) URL', 'return_url');
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || value.length > 2048) {
    throw errors.validationFailed('return_url must be an absolute http(s) URL without credentials, at most 2048 characters', 'return_url');
  }
  return u.toString();
}

export async function updatePortalSettings(db: Db, merchantId: string, patch: Partial<PortalSettings>): Promise<PortalSettings> {
  const merchant = await db.merchant.findUnique({ where: { id: merchantId }, select: { id: true } });
  if (!merchant) throw errors.resourceMissing(`No such merchant: '${merchantId}'`, 'merchant');
  const data: Partial<PortalSettings> = {};
  for (const key of Object.keys(patch) as Array<keyof PortalSettings>) {
    const v = patch[key];
    if (v === undefined || !(key in PORTAL_SETTING_PARAMS)) continue;
    if (key === 'returnUrl') data.returnUrl = checkReturnUrl(v as string | null);
    else if (typeof v !== 'boolean') throw errors.validationFailed(`${PORTAL_SETTING_PARAMS[key]} must be true or false`, PORTAL_SETTING_PARAMS[key]);
    else (data as Record<string, boolean>)[key] = v;
  }
  const row = await db.portalSettings.upsert({ where: { merchantId }, create: { merchantId, ...data }, update: data });
  const { merchantId: _m, updatedAt: _u, ...settings } = row;
  return settings;
}
