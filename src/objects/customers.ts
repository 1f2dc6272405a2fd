import type { Customer } from '../generated/prisma/client';
import { iso } from './iso';

/** The customer as the API and its customer.* events present it; `test_clock` is null outside test clocks. */
export function presentCustomer(c: Customer, testClockId: string | null) {
  return { ...presentCustomerFields(c), test_clock: testClockId };
}

/** Every field but the test clock (which PATCH cannot change): what decides whether a PATCH changed anything. */
export function presentCustomerFields(c: Customer) {
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
