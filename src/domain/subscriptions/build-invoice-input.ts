// What building a subscription invoice is asked for (./build-invoice.ts), shared by its three parts.
import type { Subscription } from '../../generated/prisma/client';

export type SubscriptionBillingReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update';

export interface Period {
  start: Date;
  end: Date;
}

export interface BuildInvoiceInput {
  subscription: Subscription;
  billingReason: SubscriptionBillingReason;
  /** Boundary ISO instant (create, cycle) or command id (update): see period_key above. */
  keyPart: string;
  /** The instant the invoice is issued; decides whether the discount applies. Null: no discount. */
  discountBoundary: Date | null;
  /** Shown as the invoice's period. */
  period: Period;
  /** Licensed items are billed for this period (null: none). */
  openingPeriod: Period | null;
  /** Metered items are billed for this period (null: none). */
  closingPeriod: Period | null;
  /** Which pending invoice items go on it: the subscription's and the customer's unassigned ones, or only the subscription's. */
  pendingScope: 'customer' | 'subscription';
  /** The subscription's time when the invoice is made (its clock's time on a test clock): its created_at. */
  issuedAt?: Date;
}
