// Creates a merchant with its first secret and publishable test keys (CLI and first start),
// and turns live mode on. Merchants are not tenant-scoped: only composition roots call these.
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { isSupportedCurrency } from '../../billing/currency';
import { generateKey, type KeyMode, type KeyType } from '../api-keys/key-material';
import { notifyMerchantChanged } from '../api-keys/invalidation';
import type { Merchant } from '../../generated/prisma/client';

export interface CreatedMerchant {
  merchant: Merchant;
  secretKey: string;
  publishableKey: string;
}

type Tx = Pick<Db, 'merchant' | 'apiKey'>;

export async function createMerchant(db: Db, input: { name: string; currency?: string }): Promise<CreatedMerchant> {
  return db.$transaction((tx) => insertMerchantWithKeys(tx, input));
}

/** The same inside a transaction the caller already holds. */
export async function insertMerchantWithKeys(tx: Tx, input: { name: string; currency?: string }): Promise<CreatedMerchant> {
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw errors.validationFailed('name must be 1 to 200 characters', 'name');
  const currency = (input.currency ?? 'ISK').toUpperCase();
  if (!isSupportedCurrency(currency)) throw errors.validationFailed(`unsupported currency ${currency}`, 'currency');
  const merchant = await tx.merchant.create({ data: { id: newId('merchant'), name, defaultCurrency: currency } });
  const sk = await insertKey(tx, merchant.id, 'secret', 'test', 'Default secret test key');
  const pk = await insertKey(tx, merchant.id, 'publishable', 'test', 'Default publishable test key');
  return { merchant, secretKey: sk, publishableKey: pk };
}

/** Used by the CLI (`billing keys create`), which acts for the merchant outside any request. */
export async function insertKey(db: Pick<Db, 'apiKey'>, merchantId: string, type: KeyType, mode: KeyMode, label: string | null): Promise<string> {
  const material = generateKey(type, mode);
  await db.apiKey.create({
    data: { id: newId('apiKey'), merchantId, mode, type, label, keyHash: material.hash, last4: material.last4 },
  });
  return material.key;
}

export async function goLive(db: Db, merchantId: string, now: Date): Promise<Merchant> {
  const m = await db.merchant.findUnique({ where: { id: merchantId } });
  if (!m) throw errors.resourceMissing(`No such merchant: '${merchantId}'`, 'id');
  if (m.liveEnabledAt) return m;
  return db.$transaction((tx) => markMerchantLive(tx, merchantId, now));
}

/** The same inside a transaction the caller already holds (the dashboard's "Go live"). */
export async function markMerchantLive(tx: Pick<Db, 'merchant' | '$executeRaw'>, merchantId: string, now: Date): Promise<Merchant> {
  const m = await tx.merchant.findUnique({ where: { id: merchantId } });
  if (!m) throw errors.resourceMissing(`No such merchant: '${merchantId}'`, 'id');
  if (m.liveEnabledAt) return m;
  const updated = await tx.merchant.update({ where: { id: merchantId }, data: { liveEnabledAt: now } });
  await notifyMerchantChanged(tx, merchantId);
  return updated;
}
