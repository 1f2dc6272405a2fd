// First start with an empty database: one default test merchant with its keys, printed once.
import type { Db } from '../../src/db/client';
import { insertMerchantWithKeys } from '../../src/domain/merchants/create-merchant';

export async function seedDefaultMerchant(db: Db): Promise<null | { merchantId: string; secretKey: string; publishableKey: string }> {
  // Serialised across processes: two first starts must not both seed.
  // A start on a busy machine waits for its connection rather than failing (Prisma's default is 2 s).
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(7351002002)`;
      if ((await tx.merchant.count()) > 0) return null;
      const created = await insertMerchantWithKeys(tx, { name: 'Default test merchant', currency: 'ISK' });
      return { merchantId: created.merchant.id, secretKey: created.secretKey, publishableKey: created.publishableKey };
    },
    { maxWait: 30_000, timeout: 60_000 },
  );
}
