// The merchant's name and default currency (PATCH /v1/merchants/current with a dashboard
// session, and the dashboard's settings page).
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import type { Merchant } from '../../generated/prisma/client';
import { isSupportedCurrency, SUPPORTED_CURRENCIES } from '../../billing/currency';
import { notifyMerchantChanged } from '../api-keys/invalidation';

export async function updateMerchantProfile(
  db: Pick<Db, 'merchant' | '$executeRaw'>,
  merchantId: string,
  input: { name?: unknown; default_currency?: unknown },
): Promise<Merchant> {
  const data: { name?: string; defaultCurrency?: string } = {};
  if (input.name !== undefined) {
    if (typeof input.name !== 'string' || input.name.trim() === '' || input.name.trim().length > 200) throw errors.validationFailed('name must be 1 to 200 characters', 'name');
    data.name = input.name.trim();
  }
  if (input.default_currency !== undefined) {
    const c = typeof input.default_currency === 'string' ? input.default_currency.toUpperCase() : '';
    if (!isSupportedCurrency(c)) throw errors.validationFailed(`default_currency must be one of ${SUPPORTED_CURRENCIES.join(', ')}`, 'default_currency');
    data.defaultCurrency = c;
  }
  const m = await db.merchant.update({ where: { id: merchantId }, data });
  await notifyMerchantChanged(db, merchantId);
  return m;
}
