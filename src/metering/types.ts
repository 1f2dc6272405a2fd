// Shapes the metering functions read. Field names follow the Prisma models (camelCase); a
// Meter row fits `MeterDefinition` once its `filter` JSON is known to be string → string.

export const AGGREGATE_TYPES = ['count', 'sum', 'max', 'min', 'avg', 'unique'] as const;
export type AggregateType = (typeof AGGREGATE_TYPES)[number];

/** Aggregate types that read `aggregateProperty` as a number. */
export const NUMERIC_AGGREGATE_TYPES: ReadonlySet<AggregateType> = new Set<AggregateType>(['sum', 'max', 'min', 'avg']);

export interface MeterDefinition {
  eventName: string;
  aggregateType: AggregateType;
  /** Key in event metadata; null exactly when `aggregateType` is `count`. */
  aggregateProperty: string | null;
  /** Every pair must equal the event's metadata value (a JSON string); null or {} matches all. */
  filter: Readonly<Record<string, string>> | null;
  /** Integer ≥ 1; multiplies the aggregate. */
  unitMultiplier: number;
}

export type EventMetadata = Readonly<Record<string, unknown>>;

export interface MeterEvent {
  eventName: string;
  metadata: EventMetadata | null;
}

export interface StoredMeterEvent extends MeterEvent {
  customerId: string;
  timestamp: Date;
}
