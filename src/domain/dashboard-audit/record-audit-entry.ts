// Writes one entry of the dashboard's append-only audit log (who, what, which object, when, from
// where, how it ended). A succeeded action's entry is written in the same transaction as the
// action, so there is never a change without its entry; refusals and failures are written on
// their own after the rollback.
import type { Db } from '../../db/client';
import { newId } from '../../ids';
import type { Mode, Prisma } from '../../generated/prisma/client';

export type AuditOutcome = 'succeeded' | 'failed' | 'denied';

export interface AuditEntryInput {
  merchantId: string;
  objectMode: Mode | null;
  actorUserId: string | null;
  actorEmail: string;
  action: string;
  objectType?: string | null;
  objectId?: string | null;
  outcome: AuditOutcome;
  detail?: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
  now?: Date;
}

export async function recordAuditEntry(db: Pick<Db, 'dashboardAuditEntry'>, e: AuditEntryInput): Promise<void> {
  await db.dashboardAuditEntry.create({
    data: {
      id: newId('dashboardAuditEntry'),
      merchantId: e.merchantId,
      objectMode: e.objectMode,
      actorUserId: e.actorUserId,
      actorEmail: e.actorEmail.slice(0, 254),
      action: e.action,
      objectType: e.objectType ?? null,
      objectId: e.objectId?.slice(0, 255) ?? null,
      outcome: e.outcome,
      detail: (e.detail ?? {}) as Prisma.InputJsonValue,
      ip: e.ip?.slice(0, 100) ?? null,
      userAgent: e.userAgent?.slice(0, 500) ?? null,
      ...(e.now ? { createdAt: e.now } : {}),
    },
  });
}
