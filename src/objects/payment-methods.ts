// Payment methods as the API returns them (and as payment_method.attached carries them). The
// acquirer's token is never returned.
import type { PaymentMethod } from '../generated/prisma/client';
import { iso } from './iso';

export function presentPaymentMethod(pm: PaymentMethod, isDefault: boolean) {
  const hasCard = pm.type === 'card' || pm.type === 'apple_pay' || pm.type === 'google_pay';
  return {
    id: pm.id,
    object: 'payment_method',
    customer: pm.customerId,
    type: pm.type,
    card: hasCard ? { brand: pm.brand, last4: pm.last4, exp_month: pm.expMonth, exp_year: pm.expYear } : null,
    is_default: isDefault,
    created_at: iso(pm.createdAt),
  };
}
