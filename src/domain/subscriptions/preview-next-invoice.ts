// The invoice the subscription's next period end would build, as it would be built now: the
// same builder (build-invoice.ts) with the same periods (periodEndInvoiceInput), run inside a
// transaction that is always rolled back, so the preview can never differ from the real thing
// by a second implementation and never leaves a row behind. Metered usage counts up to now.
import type { Tenant } from '../../db/tenancy';
import type { ScopedDb } from '../../db/tenancy';
import type { Invoice, InvoiceLine } from '../../generated/prisma/client';
import { buildSubscriptionInvoice } from './build-invoice';
import { findSubscription } from './find-subscriptions';
import { periodEndInvoiceInput } from './steps/period-end';

class PreviewRollback extends Error {
  constructor(readonly preview: { invoice: Invoice; lines: InvoiceLine[] } | null) {
    super('preview rollback');
  }
}

export async function previewNextInvoice(db: ScopedDb, tenant: Tenant, subscriptionId: string): Promise<{ invoice: Invoice; lines: InvoiceLine[] } | null> {
  const sub = await findSubscription(db, subscriptionId);
  const plan = periodEndInvoiceInput(sub);
  if (!plan) return null;
  try {
    await db.$transaction(async (tx) => {
      const built = await buildSubscriptionInvoice(tx, tenant, { ...plan, subscription: sub });
      if (!built) throw new PreviewRollback(null);
      const lines = await tx.invoiceLine.findMany({ where: { invoiceId: built.invoice.id }, orderBy: { position: 'asc' } });
      throw new PreviewRollback({ invoice: built.invoice, lines });
    });
  } catch (err) {
    if (err instanceof PreviewRollback) return err.preview;
    throw err;
  }
  return null;
}
