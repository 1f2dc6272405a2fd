// What each command gets while it runs inside apply-command.ts's transaction (the subscription
// row locked, the command id recorded), and the helpers several commands share.
import type { Tenant, TenantDb } from '../../../db/tenancy';
import type { Subscription } from '../../../generated/prisma/client';
import { errors } from '../../../errors';
import type { RecordedEvent } from '../../../events';
import { mergeMetadataPatch, validateMetadataPatch, type Metadata } from '../../../validation';
import { metadataOrThrow } from '../../checks/metadata';
import { recordSubscriptionEvent } from '../subscription-events';

export interface CommandOutcome {
  objectId: string | null;
  events: RecordedEvent[];
  /** A voided invoice's bank claim, to cancel at the bank after commit. */
  claimToCancel: { invoiceId: string; claimId: string } | null;
}

export interface CommandContext {
  tx: TenantDb;
  tenant: Tenant;
  sub: Subscription;
  /** The subscription's time (its test clock's, or the workflow's). */
  now: Date;
  commandId: string;
  outcome: CommandOutcome;
}

export type SubscriptionEventType = 'subscription.updated' | 'subscription.canceled' | 'subscription.paused' | 'subscription.resumed';

export async function emit(ctx: CommandContext, type: SubscriptionEventType, sub: Subscription): Promise<void> {
  ctx.outcome.events.push(await recordSubscriptionEvent(ctx.tx, ctx.tenant, type, sub));
}

/** A metadata patch merged into the existing metadata (keys with null are removed), or a validation error. */
export function mergedMetadata(existing: Metadata, patch: unknown, param: string): Metadata {
  const problems = validateMetadataPatch(patch);
  if (problems.length > 0) throw errors.validationFailed(problems[0]!.message, param);
  const merged = mergeMetadataPatch(existing ?? {}, patch as Record<string, string | null> | null);
  return metadataOrThrow(merged, param);
}
