// Records `invoice.voided` for an invoice that just became void (in the caller's transaction).
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Invoice } from '../../generated/prisma/client';
import { recordEvent, type RecordedEvent } from '../../events';
import { presentInvoice } from '../../objects/invoices';

export async function recordInvoiceVoided(db: TenantDb, tenant: Tenant, invoice: Invoice): Promise<RecordedEvent> {
  const lines = await db.invoiceLine.findMany({ where: { invoiceId: invoice.id }, orderBy: { position: 'asc' } });
  return recordEvent(db, tenant, { type: 'invoice.voided', data: presentInvoice(invoice, lines) });
}
