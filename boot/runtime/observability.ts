// Logs and metrics of a process (composition roots only): the pino logger, the metrics registry,
// the Temporal SDK's Runtime routed into that logger with its Prometheus exporter on
// TEMPORAL_METRICS_PORT, and for a worker process a small listener on METRICS_PORT
// (/metrics, /livez, /readyz). docs/operations.md describes the variables and series.
import http from 'node:http';
import { Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { createLogger, flushLogger, lineLogger, type LogLine, type Logger } from '../../src/observability/logger';
import { createMetrics, type Metrics } from '../../src/observability/metrics';
import { temporalLogger } from '../../src/observability/temporal-logger';

export interface Observability {
  logger: Logger;
  log: LogLine;
  metrics: Metrics;
  flush(): Promise<void>;
}

export function createObservability(service: string): Observability {
  const logger = createLogger({ service });
  return { logger, log: lineLogger(logger), metrics: createMetrics({ processMetrics: true }), flush: () => flushLogger(logger) };
}

/**
 * Installs the Temporal SDK runtime (once, before the worker's connection): SDK, workflow and
 * activity logs go to the service's logger; with TEMPORAL_METRICS_PORT set, the SDK's own worker
 * metrics (task slots, poll and schedule-to-start latencies, sticky cache, …) are served in
 * Prometheus format on that port.
 */
export function installTemporalRuntime(logger: Logger, env: NodeJS.ProcessEnv = process.env): string | null {
  const port = env.TEMPORAL_METRICS_PORT ? Number(env.TEMPORAL_METRICS_PORT) : null;
  const bindAddress = port ? `${env.TEMPORAL_METRICS_HOST || '0.0.0.0'}:${port}` : null;
  Runtime.install({
    logger: temporalLogger(logger.child({ component: 'temporal-sdk' })),
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      ...(bindAddress ? { metrics: { prometheus: { bindAddress, countersTotalSuffix: true, useSecondsForDurations: true } } } : {}),
    },
  });
  return bindAddress;
}

/** A worker process's own listener: GET /metrics (METRICS_TOKEN bearer when set), /livez, /readyz (given check). */
export async function serveWorkerMetrics(opts: {
  port: number;
  metrics: Metrics;
  metricsToken: string | null;
  ready: () => Promise<{ ready: boolean; checks: Record<string, unknown> }>;
}): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/livez') return send(res, 200, 'application/json', JSON.stringify({ status: 'ok' }));
      if (path === '/readyz') {
        const r = await opts.ready();
        return send(res, r.ready ? 200 : 503, 'application/json', JSON.stringify({ status: r.ready ? 'ready' : 'not_ready', checks: r.checks }));
      }
      if (path === '/metrics') {
        if (opts.metricsToken && req.headers.authorization !== `Bearer ${opts.metricsToken}`) return send(res, 401, 'text/plain', 'unauthorized\n');
        return send(res, 200, opts.metrics.registry.contentType, await opts.metrics.registry.metrics());
      }
      send(res, 404, 'text/plain', 'not found\n');
    })().catch(() => send(res, 500, 'text/plain', 'error\n'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '0.0.0.0', resolve);
  });
  return server;
}

function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': type });
  res.end(body);
}
