// Retrieve, list and update prices. After creation only `active`, `accounting_code` and
// `metadata` change; the route refuses any other create field with parameter_not_allowed.
import type { TenantDb } from '../../db/tenancy';
import type { Price } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { metadataOrThrow } from '../checks/metadata';

/** Create fields that cannot change afterwards (docs/catalog.md). */
export const IMMUTABLE_PRICE_FIELDS = ['product', 'type', 'currency', 'unit_amount', 'recurring', 'tiers_mode', 'tiers', 'meter', 'included_units'] as const;

export interface UpdatePriceInput {
  active?: boolean;
  accounting_code?: string | null;
  vat_rate?: string | null;
  metadata?: Record<string, unknown> | null;
}

export async function findPrice(db: TenantDb, id: string): Promise<Price> {
  const row = await db.price.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such price: '${id}'`, 'id');
  return row;
}

/** `body` is the raw request body, checked for immutable fields before anything else. */
export function assertOnlyMutablePriceFields(body: Record<string, unknown>): void {
  for (const field of IMMUTABLE_PRICE_FIELDS) {
    if (Object.hasOwn(body, field)) {
      throw errors.parameterNotAllowed(
        `${field} cannot be changed after a price is created; only active, accounting_code, vat_rate and metadata can. Create a new price instead.`,
        field,
      );
    }
  }
}

export async function updatePrice(db: TenantDb, id: string, input: UpdatePriceInput): Promise<Price> {
  const existing = await findPrice(db, id);
  const data: Record<string, unknown> = {};
  if (input.active !== undefined) data.active = input.active;
  if (input.accounting_code !== undefined) data.accountingCode = input.accounting_code?.trim() || null;
  if (input.vat_rate !== undefined) data.vatRate = input.vat_rate ?? null;
  if (input.metadata !== undefined) data.metadata = metadataOrThrow(input.metadata);
  if (Object.keys(data).length === 0) return existing;
  return db.price.update({ where: { id: existing.id }, data });
}

export async function listPrices(db: TenantDb, params: PageParams, filter: { product?: string; active?: boolean } = {}): Promise<Page<Price>> {
  if (filter.product !== undefined) {
    // A filter naming no product of the caller is refused, as on every list (docs/errors.md "Ids").
    const product = await db.product.findFirst({ where: { id: filter.product }, select: { id: true } });
    if (!product) throw errors.resourceNotFound(`No such product: '${filter.product}'`, 'product');
  }
  const where: Record<string, unknown> = {};
  if (filter.product !== undefined) where.productId = filter.product;
  if (filter.active !== undefined) where.active = filter.active;
  return listPage({
    params,
    findCursor: async (cursorId) => {
      const p = await db.price.findFirst({ where: { id: cursorId, ...where }, select: { id: true, createdAt: true } });
      return p && { id: p.id, sortKey: p.createdAt };
    },
    fetch: (after, take) => db.price.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
