// VAT per rate on invoices and credit notes as the API returns it (docs/vat.md):
// [{ vat_rate, percent, amount_excluding_vat, vat_amount, amount_including_vat }].
import type { Prisma } from '../generated/prisma/client';

interface StoredRow {
  rate: string;
  basis_points: number;
  net: number;
  vat: number;
  gross: number;
}

export function presentVatBreakdown(value: Prisma.JsonValue | null | undefined) {
  const rows = Array.isArray(value) ? (value as unknown as StoredRow[]) : [];
  return rows.map((r) => ({
    vat_rate: r.rate,
    percent: r.basis_points / 100,
    amount_excluding_vat: r.net,
    vat_amount: r.vat,
    amount_including_vat: r.gross,
  }));
}
