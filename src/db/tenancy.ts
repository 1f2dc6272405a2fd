// Tenant and mode isolation in the data layer. Every tenant-owned model carries `merchantId`
// and `mode`; a client scoped with `scopedDb(db, tenant)` adds both to every where clause and
// to every created row, so a route cannot forget them: an id of another merchant or of the
// other mode behaves exactly like an unknown id. Raw SQL must filter explicitly (tenantSql).
// test/unit/tenancy-models.test.ts proves TENANT_MODELS matches the schema.
import { Prisma } from '../generated/prisma/client';
import type { Mode } from '../generated/prisma/client';
import type { Db } from './client';
import { TENANT_MODELS } from './tenant-models';

export interface Tenant {
  merchantId: string;
  mode: Mode;
}

export { TENANT_MODELS };

const WHERE_OPERATIONS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'delete',
  'deleteMany',
  'upsert',
]);

export class TenancyViolation extends Error {}

type Row = Record<string, unknown>;

function stampRow(row: Row, tenant: Tenant, model: string): Row {
  for (const k of ['merchantId', 'mode'] as const) {
    if (row[k] !== undefined && row[k] !== tenant[k]) {
      throw new TenancyViolation(`${model}.${k} ${String(row[k])} does not match the scoped tenant`);
    }
  }
  return { ...row, merchantId: tenant.merchantId, mode: tenant.mode };
}

export function tenantExtension(tenant: Tenant) {
  return Prisma.defineExtension({
    name: 'tenant-scope',
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          if (!TENANT_MODELS.has(model)) return query(args);
          const a = (args ?? {}) as Row;
          if (WHERE_OPERATIONS.has(operation)) {
            // AND, not overwrite: a where that names another merchant matches nothing.
            const where = (a.where as Row | undefined) ?? {};
            const and = where.AND === undefined ? [] : Array.isArray(where.AND) ? where.AND : [where.AND];
            a.where = { ...where, AND: [...and, { merchantId: tenant.merchantId, mode: tenant.mode }] };
          }
          if (operation === 'create' || operation === 'upsert') {
            const key = operation === 'create' ? 'data' : 'create';
            a[key] = stampRow((a[key] as Row) ?? {}, tenant, model);
          }
          if (operation === 'createMany' || operation === 'createManyAndReturn') {
            const data = a.data as Row | Row[];
            a.data = Array.isArray(data) ? data.map((r) => stampRow(r, tenant, model)) : stampRow(data, tenant, model);
          }
          if ((operation === 'update' || operation === 'updateMany' || operation === 'upsert') && a.data !== undefined) {
            const data = (operation === 'upsert' ? a.update : a.data) as Row | undefined;
            if (data && ('merchantId' in data || 'mode' in data)) {
              throw new TenancyViolation(`${model}: merchantId and mode cannot be changed`);
            }
          }
          return query(a as typeof args);
        },
      },
    },
  });
}

export function scopedDb(db: Db, tenant: Tenant) {
  return db.$extends(tenantExtension(tenant));
}

export type ScopedDb = ReturnType<typeof scopedDb>;
/** The client inside `scoped.$transaction(async (tx) => …)`: still scoped. */
export type ScopedTx = Parameters<Parameters<ScopedDb['$transaction']>[0]>[0];
/** Either a scoped client or a scoped transaction: what domain functions take. */
export type TenantDb = ScopedDb | ScopedTx;
