// Activities start and signal workflows with the worker's own client, read from the running
// activity's context (so the module is built once, outside any activity).
import { Context } from '@temporalio/activity';
import { createWorkflowClients, type WorkflowClients } from '../src/temporal/workflow-clients';

export function workflowClientsOfActivity(): WorkflowClients {
  return createWorkflowClients({
    client: async () => Context.current().client,
    get taskQueue() {
      return Context.current().info.taskQueue;
    },
  });
}
