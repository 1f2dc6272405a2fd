// Create, list, rotate and revoke API keys. A key manages only keys of its own mode (a test key
// cannot mint live keys): the scoped client enforces merchant and mode on every query.
import type { Tenant, TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { generateKey, type KeyType } from './key-material';
import { notifyKeyChanged } from './invalidation';
import type { ApiKey } from '../../generated/prisma/client';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export interface CreatedKey {
  row: ApiKey;
  key: string;
}

export interface RotatedKey extends CreatedKey {
  /** Hash of the value that stopped working (for evicting auth caches). */
  previousHash: string;
}

export async function createApiKey(db: TenantDb, tenant: Tenant, input: { type: KeyType; label?: string | null }): Promise<CreatedKey> {
  const material = generateKey(input.type, tenant.mode);
  const row = await db.apiKey.create({
    data: {
      id: newId('apiKey'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      type: input.type,
      label: input.label ?? null,
      keyHash: material.hash,
      last4: material.last4,
    },
  });
  return { row, key: material.key };
}

/** Active keys of the tenant's mode, newest first, paged like every list. */
export async function listApiKeys(db: TenantDb, params: PageParams): Promise<Page<ApiKey>> {
  return listPage({
    params,
    findCursor: async (id) => {
      const k = await db.apiKey.findFirst({ where: { id, revokedAt: null }, select: { id: true, createdAt: true } });
      return k && { id: k.id, sortKey: k.createdAt };
    },
    fetch: (after, take) => db.apiKey.findMany({ where: { revokedAt: null, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}

async function findActiveKey(db: TenantDb, id: string): Promise<ApiKey> {
  const row = await db.apiKey.findFirst({ where: { id, revokedAt: null } });
  if (!row) throw errors.resourceMissing(`No such API key: '${id}'`, 'id');
  return row;
}

/** New value for the same key id (created_at unchanged); the old value fails from this commit on. */
export async function rotateApiKey(db: TenantDb, id: string, now: Date): Promise<RotatedKey> {
  const existing = await findActiveKey(db, id);
  const material = generateKey(existing.type, existing.mode);
  // Compare-and-set on the old hash: two concurrent rotations cannot both hand out a valid key.
  const updated = await db.apiKey.updateMany({
    where: { id, revokedAt: null, keyHash: existing.keyHash },
    data: { keyHash: material.hash, last4: material.last4, rotatedAt: now },
  });
  if (updated.count !== 1) throw errors.resourceConflict('The key was rotated or revoked concurrently; retry', 'id');
  await notifyKeyChanged(db, existing.keyHash);
  return { row: { ...existing, keyHash: material.hash, last4: material.last4, rotatedAt: now }, key: material.key, previousHash: existing.keyHash };
}

/** Permanent: the row stays for audit with revoked_at set and is never valid again. */
export async function revokeApiKey(db: TenantDb, id: string, now: Date): Promise<{ revokedHash: string }> {
  const existing = await findActiveKey(db, id);
  await db.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
  await notifyKeyChanged(db, existing.keyHash);
  return { revokedHash: existing.keyHash };
}
