-- CreateEnum
CREATE TYPE "DashboardRole" AS ENUM ('owner', 'developer', 'finance', 'read_only');

-- CreateTable
CREATE TABLE "dashboard_users" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "role" "DashboardRole" NOT NULL,
    "password_hash" TEXT NOT NULL,
    "totp_secret" TEXT,
    "totp_enabled_at" TIMESTAMPTZ(3),
    "totp_last_step" BIGINT,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dashboard_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_sessions" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "view_mode" "Mode" NOT NULL DEFAULT 'test',
    "csrf_token" TEXT NOT NULL,
    "second_factor_pending" BOOLEAN NOT NULL DEFAULT false,
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "dashboard_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_sign_in_attempts" (
    "id" BIGSERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "succeeded" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dashboard_sign_in_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_invitations" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "DashboardRole" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dashboard_invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_audit_log" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "object_mode" "Mode",
    "actor_user_id" TEXT,
    "actor_email" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "object_type" TEXT,
    "object_id" TEXT,
    "outcome" TEXT NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dashboard_audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_users_email_key" ON "dashboard_users"("email");

-- CreateIndex
CREATE INDEX "dashboard_users_merchant_id_created_at_idx" ON "dashboard_users"("merchant_id", "created_at");

-- CreateIndex
CREATE INDEX "dashboard_sessions_user_id_revoked_at_idx" ON "dashboard_sessions"("user_id", "revoked_at");

-- CreateIndex
CREATE INDEX "dashboard_sessions_expires_at_idx" ON "dashboard_sessions"("expires_at");

-- CreateIndex
CREATE INDEX "dashboard_sign_in_attempts_email_created_at_idx" ON "dashboard_sign_in_attempts"("email", "created_at");

-- CreateIndex
CREATE INDEX "dashboard_sign_in_attempts_ip_created_at_idx" ON "dashboard_sign_in_attempts"("ip", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_invitations_token_hash_key" ON "dashboard_invitations"("token_hash");

-- CreateIndex
CREATE INDEX "dashboard_invitations_merchant_id_created_at_idx" ON "dashboard_invitations"("merchant_id", "created_at");

-- CreateIndex
CREATE INDEX "dashboard_audit_log_merchant_id_created_at_id_idx" ON "dashboard_audit_log"("merchant_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand edit (docs/database.md): the dashboard audit log is append-only. Rows are inserted and
-- read, never changed or removed, whoever connects.
CREATE FUNCTION dashboard_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'dashboard_audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER dashboard_audit_log_no_update_delete
  BEFORE UPDATE OR DELETE ON "dashboard_audit_log"
  FOR EACH ROW EXECUTE FUNCTION dashboard_audit_log_append_only();

CREATE TRIGGER dashboard_audit_log_no_truncate
  BEFORE TRUNCATE ON "dashboard_audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_audit_log_append_only();
