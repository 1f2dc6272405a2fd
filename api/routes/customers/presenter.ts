import type { Customer } from '../../../src/generated/prisma/client';
import { iso } from '../../validate';

export function presentCustomer(c: Customer) {
  const hasAddress = [c.billingAddressLine1, c.billingAddressLine2, c.billingCity, c.billingPostalCode, c.billingCountry].some((v) => v !== null);
  return {
    id: c.id,
    email: c.email,
    name: c.name,
    phone: c.phone,
    kennitala: c.kennitala,
    external_id: c.externalId,
    vat_number: c.vatNumber,
    currency: c.currency,
    metadata: c.metadata,
    billing_address: hasAddress
      ? { line1: c.billingAddressLine1, line2: c.billingAddressLine2, city: c.billingCity, postal_code: c.billingPostalCode, country: c.billingCountry }
      : null,
    created_at: iso(c.createdAt),
  };
}
