// What the command path needs from the composition root: the database (for the steps that run
// outside the request's transaction), the subscription workflow's client module, the gateways,
// event dispatch.
import type { Db } from '../../db/client';
import type { TemporalProvider } from '../../temporal/client';
import type { WorkflowClients } from '../../temporal/workflow-clients';
import type { ModeGateways } from '../../gateways';

export interface CommandDeps {
  db: Db;
  /** Delivery workflows of the events a command records are started through it. */
  temporal: TemporalProvider;
  workflows: Pick<WorkflowClients, 'subscription'>;
  /** A finished subscription's invoice is collected or voided here, at the acquirer or the bank. */
  gateways: ModeGateways;
  log: (line: string) => void;
}

export { dispatchAfterCommit } from '../dispatch-after-commit';
