import type { Product } from '../generated/prisma/client';
import { iso } from './iso';

export function presentProduct(p: Product) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    active: p.active,
    vat_rate: p.vatRate,
    metadata: p.metadata,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}
