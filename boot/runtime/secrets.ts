// Start-up step of every process (npm start, npm run api, npm run worker): seals webhook signing
// secrets still stored in plain text (rows from before the migration 20261127330000, which
// could not encrypt them itself: the key is not in the database). Idempotent and serialised by
// an advisory lock, so processes starting together do it once.
import type { Db } from '../../src/db/client';
import { sealPlaintextEndpointSecrets, type SecretKeyConfig } from '../../src/domain/webhooks/endpoint-secrets';

export async function sealSecretsAtStart(db: Db, config: SecretKeyConfig, log: (line: string) => void): Promise<void> {
  const sealed = await sealPlaintextEndpointSecrets(db, config);
  if (sealed > 0) log(`encrypted ${sealed} webhook signing secret(s) that were stored in plain text`);
}
