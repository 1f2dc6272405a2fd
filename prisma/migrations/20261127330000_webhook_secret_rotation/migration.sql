-- Webhook signing secrets: encrypted at rest, and rotation with an overlap.
--
-- The encryption key is not in the database (ACCOUNTING_ENCRYPTION_KEY, src/crypto/secret-box.ts),
-- so SQL cannot encrypt the existing secrets. The format of the value is the marker instead: a
-- plain secret starts with `whsec_`, a sealed one with `v1.`. Every process (npm start, npm run
-- api, npm run worker) seals the remaining plain rows at start-up, under an advisory lock, in one
-- transaction (sealPlaintextEndpointSecrets, src/domain/webhooks/endpoint-secrets.ts); until
-- then a plain row still signs (and is sealed by the first process that starts after this
-- migration).

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "previous_secret" TEXT,
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3);
