// Keeping a meter's hourly rollups exact across its life (docs/metering.md "Rollups"):
// - creating a meter takes the event name's exclusive lock, then builds the rollups of the raw
//   events already stored (ingestion holds the shared lock from its lookup to its commit, so no
//   event is half-seen: it is either in the build or rolled up by its own INSERT);
// - archiving takes the same lock before stamping archived_at, so every event rolled up for
//   the meter has received_at ≤ archived_at, and every later event has received_at later than
//   archived_at by at least a millisecond (the pause below) and is not rolled up.
import type { Tenant, TenantDb } from '../../db/tenancy';
import { BUILD_METER_ROLLUPS_SQL, LOCK_METER_EVENT_SQL } from '../../metering';

/** Run inside the transaction that creates or archives a meter of this event name. */
export async function lockMeterEventName(db: TenantDb, tenant: Tenant, eventName: string): Promise<void> {
  await db.$executeRawUnsafe(LOCK_METER_EVENT_SQL, tenant.merchantId, tenant.mode, eventName);
}

/** Builds a just-created meter's rollups from stored events; returns the hourly rows written. */
export async function buildMeterRollups(db: TenantDb, tenant: Tenant, meter: { id: string; eventName: string }): Promise<number> {
  const [row] = await db.$queryRawUnsafe<Array<{ n: number }>>(BUILD_METER_ROLLUPS_SQL, tenant.merchantId, tenant.mode, meter.id, meter.eventName);
  return Number(row?.n ?? 0);
}
