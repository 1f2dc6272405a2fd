// Tells every API process to drop cached authentication for a key or a merchant. NOTIFY is
// transactional: it is delivered when (and only if) the surrounding transaction commits.
export const AUTH_CHANNEL = 'billing_auth_invalidate';

interface RawExecutor {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
}

export async function notifyKeyChanged(db: RawExecutor, keyHash: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${AUTH_CHANNEL}, ${`key:${keyHash}`})`;
}

export async function notifyMerchantChanged(db: RawExecutor, merchantId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${AUTH_CHANNEL}, ${`merchant:${merchantId}`})`;
}
