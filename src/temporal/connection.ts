// Where the workflow client modules get their Temporal client: the API's lazily connected
// provider (src/temporal/client.ts), or the worker's client inside an activity.
import type { Client } from '@temporalio/client';

export interface TemporalTarget {
  client(): Promise<Client>;
  readonly taskQueue: string;
}

/** Temporal could not be reached (no connection): callers answer "retry shortly". */
export class TemporalUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The workflow service is unavailable: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'TemporalUnavailableError';
  }
}

export async function connectedClient(target: TemporalTarget): Promise<Client> {
  try {
    return await target.client();
  } catch (err) {
    throw new TemporalUnavailableError(err);
  }
}
