// Products: create, retrieve, list, update (name, description, active, metadata).
// Deactivating a product keeps existing subscriptions running; new subscriptions refuse it
// (see src/domain/prices/price-for-subscription.ts).
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Product } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { metadataOrThrow } from '../checks/metadata';

export interface ProductInput {
  name?: string;
  description?: string | null;
  active?: boolean;
  /** VAT rate identifier (validated at the edge); null: the merchant's default. */
  vat_rate?: string | null;
  metadata?: Record<string, unknown> | null;
}

function name(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw errors.validationFailed('name must not be empty', 'name');
  return trimmed;
}

export async function createProduct(db: TenantDb, tenant: Tenant, input: ProductInput & { name: string }): Promise<Product> {
  return db.product.create({
    data: {
      id: newId('product'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      name: name(input.name),
      description: input.description?.trim() || null,
      active: input.active ?? true,
      vatRate: input.vat_rate ?? null,
      metadata: metadataOrThrow(input.metadata),
    },
  });
}

export async function findProduct(db: TenantDb, id: string): Promise<Product> {
  const row = await db.product.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such product: '${id}'`, 'id');
  return row;
}

export async function updateProduct(db: TenantDb, id: string, input: ProductInput): Promise<Product> {
  const existing = await findProduct(db, id);
  const data: Record<string, unknown> = {};
  if (input.name !== undefined) data.name = name(input.name);
  if (input.description !== undefined) data.description = input.description?.trim() || null;
  if (input.active !== undefined) data.active = input.active;
  if (input.vat_rate !== undefined) data.vatRate = input.vat_rate ?? null;
  if (input.metadata !== undefined) data.metadata = metadataOrThrow(input.metadata);
  if (Object.keys(data).length === 0) return existing;
  return db.product.update({ where: { id: existing.id }, data });
}

export async function listProducts(db: TenantDb, params: PageParams, filter: { active?: boolean } = {}): Promise<Page<Product>> {
  const where = filter.active === undefined ? {} : { active: filter.active };
  return listPage({
    params,
    findCursor: async (cursorId) => {
      const p = await db.product.findFirst({ where: { id: cursorId, ...where }, select: { id: true, createdAt: true } });
      return p && { id: p.id, sortKey: p.createdAt };
    },
    fetch: (after, take) => db.product.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
