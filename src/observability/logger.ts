// The service's logger: pino, one JSON object per line (human-readable through pino-pretty when
// stdout is a terminal, unless LOG_FORMAT=json). LOG_LEVEL sets the level (default info);
// LOG_FILE appends to a file instead of stdout (the test suite uses it to check for leaked secrets).
// Every line is redacted (src/observability/redact.ts) and carries the context it was written in:
// the API request (request_id, merchant, mode) or the Temporal activity (workflow_id,
// workflow_type, activity_type, activity_id, attempt). docs/operations.md lists the fields.
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import { asyncLocalStorage as activityStorage } from '@temporalio/activity';
import { redactText, redactValue } from './redact';

export type Logger = PinoLogger;
/** The plain line logger most code receives as `log` (an info line on the structured logger). */
export type LogLine = (line: string) => void;

export interface RequestLogContext {
  request_id: string;
  merchant?: string;
  mode?: 'test' | 'live';
}

const requestContext = new AsyncLocalStorage<RequestLogContext>();

/** Runs fn with the request's fields on every line logged inside it (the API's request middleware). */
export function withRequestLogContext<T>(context: RequestLogContext, fn: () => T): T {
  return requestContext.run(context, fn);
}

/** The request's context, for middleware that learns the merchant after authentication. */
export function currentRequestLogContext(): RequestLogContext | undefined {
  return requestContext.getStore();
}

function contextFields(): Record<string, unknown> {
  const request = requestContext.getStore();
  // Read field by field: the API's context computes merchant and mode when the line is written (api/observe.ts).
  if (request) return { request_id: request.request_id, merchant: request.merchant, mode: request.mode };
  const activity = activityStorage.getStore();
  if (activity) {
    const info = activity.info;
    return {
      workflow_id: info.workflowExecution?.workflowId,
      workflow_type: info.workflowType,
      activity_type: info.activityType,
      activity_id: info.activityId,
      attempt: info.attempt,
    };
  }
  return {};
}

export interface LoggerOptions {
  /** `api`, `worker`, `start`, …: the `service` field of every line. */
  service: string;
  level?: string;
  /** A file to append to (LOG_FILE); else stdout. */
  file?: string;
  /** Pretty lines instead of JSON (default: stdout is a terminal and LOG_FORMAT is not json). */
  pretty?: boolean;
  /** Where lines go (tests); overrides file and pretty. */
  destination?: DestinationStream;
}

export function createLogger(opts: LoggerOptions): Logger {
  const env = process.env;
  const file = opts.file ?? env.LOG_FILE;
  let destination: DestinationStream;
  if (opts.destination) destination = opts.destination;
  else if (file) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    destination = pino.destination({ dest: file, append: true, sync: true, mkdir: true });
  } else if (opts.pretty ?? (process.stdout.isTTY && env.LOG_FORMAT !== 'json')) {
    const pretty = require('pino-pretty') as (o: object) => DestinationStream;
    destination = pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
  } else destination = pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level: opts.level ?? env.LOG_LEVEL ?? 'info',
      base: { service: opts.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: {
        level: (label) => ({ level: label }),
        // Secret-named fields become [redacted]; keys, tokens and card numbers in strings too.
        log: (fields) => redactValue(fields) as Record<string, unknown>,
      },
      mixin: contextFields,
      hooks: {
        logMethod(args, method) {
          // Messages (and printf-style arguments) pass the same redaction as fields.
          const cleaned = args.map((a) => (typeof a === 'string' ? redactText(a) : a)) as Parameters<typeof method>;
          return method.apply(this, cleaned);
        },
      },
      serializers: { err: (e: Error) => redactValue(e) },
    },
    destination,
  );
}

/**
 * The `log(line)` function handed to code that logs plain lines: info on the logger, warn when the
 * line reports a failure (the existing lines say "failed", "error", "could not").
 */
export function lineLogger(logger: Logger): LogLine {
  return (line: string) => {
    if (/\bunhandled\b/i.test(line)) logger.error(line);
    else if (/\b(fail(ed|s|ure)?|error|could not)\b/i.test(line)) logger.warn(line);
    else logger.info(line);
  };
}

/** Flushes an asynchronous destination (before exit). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
