// Serves the Koa app; close() stops accepting, lets in-flight requests finish (bounded), then
// closes idle keep-alive sockets.
import http from 'node:http';
import type Koa from 'koa';

export interface HttpHandle {
  server: http.Server;
  port: number;
  close(graceMs?: number): Promise<void>;
}

/** How long listen() waits for an app's `ready()` (the auth cache's LISTEN) before serving anyway. */
const READY_WAIT_MS = 5000;

export async function listen(app: Koa<any> & { ready?: () => Promise<void> }, port: number, host = '0.0.0.0'): Promise<HttpHandle> {
  if (app.ready) {
    // Serving before the auth cache listens is correct (requests go to the database), but
    // starting settled makes the first requests behave like every later one.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([app.ready(), new Promise<void>((r) => (timer = setTimeout(r, READY_WAIT_MS)))]);
    clearTimeout(timer);
  }
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as { port: number }).port;
  return {
    server,
    port: actual,
    close: (graceMs = 15_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
