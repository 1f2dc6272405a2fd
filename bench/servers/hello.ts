// Baseline: a bare Koa hello-world returning a small JSON object (no auth, no database).
import Koa from 'koa';

const app = new Koa();
app.use(async (ctx) => {
  ctx.body = { id: 'merch_hello', name: 'hello', created_at: '2026-01-01T00:00:00.000Z' };
});
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as { port: number }).port });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
