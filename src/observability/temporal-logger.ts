// The Temporal SDK's logger (Runtime.install({ logger })) over the service's pino logger: worker,
// workflow and activity lines of the SDK (and `log` inside workflows) come out as the service's
// JSON lines, with the SDK's context fields renamed to the service's names.
import type { Logger as TemporalLogger, LogLevel, LogMetadata } from '@temporalio/common';
import type { Logger } from './logger';

const RENAMED: Record<string, string> = {
  workflowId: 'workflow_id',
  workflowType: 'workflow_type',
  runId: 'run_id',
  activityType: 'activity_type',
  activityId: 'activity_id',
  taskQueue: 'task_queue',
  sdkComponent: 'sdk_component',
};

function fields(meta: LogMetadata | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!meta) return out;
  for (const [k, v] of Object.entries(meta)) out[RENAMED[k] ?? k] = v;
  return out;
}

export function temporalLogger(logger: Logger): TemporalLogger {
  const levels: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };
  const at = (level: LogLevel) => (message: string, meta?: LogMetadata) => logger[levels[level]](fields(meta), message);
  return {
    log: (level, message, meta) => at(level)(message, meta),
    trace: at('TRACE'),
    debug: at('DEBUG'),
    info: at('INFO'),
    warn: at('WARN'),
    error: at('ERROR'),
  };
}
