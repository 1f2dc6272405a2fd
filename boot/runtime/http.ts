// Serves the Koa app; close() stops accepting, lets in-flight requests finish (bounded), then
// closes idle keep-alive sockets.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { errorBody, errors } from '../../src/errors';

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
  server.on('clientError', answerClientError);
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

/**
 * A request Node's HTTP parser refuses before the application sees it (headers or URL over
 * 16 KB, malformed HTTP) still gets the error envelope and an X-Request-Id, then the connection
 * closes. Timeouts and resets of a silent or vanished client get no answer.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const apiError = tooLarge
    ? errors.requestHeaderTooLarge('The request line and headers must be at most 16 KB together (a long query string is the usual cause)')
    : errors.malformedRequest('The request is not valid HTTP/1.1');
  const requestId = `req_${randomUUID().replace(/-/g, '')}`;
  const body = JSON.stringify(errorBody(apiError, requestId));
  socket.end(
    `HTTP/1.1 ${apiError.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
