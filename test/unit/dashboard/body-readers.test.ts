// The two body readers stay hand-written (docs/architecture.md "Libraries and why", request
// bodies): these are the behaviours @koa/bodyparser 6.1.0 (co-body + qs, allowDots forced on,
// a lossy UTF-8 decoder) would change: each case whose title names qs or co-body answered
// differently when run through the library. The others pin today's limit and error messages.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { ApiError } from '../../../src/errors';
import { FORM_LIMIT_BYTES, readForm } from '../../../api/dashboard/http';
import { jsonBody } from '../../../api/middleware/json-body';
import type { AppContext, AppState } from '../../../api/context';

interface Answer {
  status: number;
  code?: string;
  message?: string;
  body?: unknown;
}

describe('request body readers (kept hand-written)', () => {
  let server: Server;
  let base: string;

  before(async () => {
    const app = new Koa<AppState>();
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        ctx.status = e.status;
        ctx.body = { code: e.code, message: e.message };
      }
    });
    app.use(async (ctx, next) => {
      if (ctx.path !== '/form') return next();
      ctx.body = { body: await readForm(ctx as unknown as AppContext) };
    });
    app.use(jsonBody(1024) as unknown as Koa.Middleware<AppState>);
    app.use((ctx) => {
      ctx.body = { body: ctx.state.body ?? null };
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise((resolve) => server.close(resolve)));

  async function post(path: string, contentType: string, body: string | Uint8Array<ArrayBuffer>): Promise<Answer> {
    const res = await fetch(base + path, { method: 'POST', headers: { 'Content-Type': contentType }, body });
    return { status: res.status, ...((await res.json()) as Omit<Answer, 'status'>) };
  }
  const form = (body: string) => post('/form', 'application/x-www-form-urlencoded', body);

  it('keeps dotted and bracketed form names as flat keys (qs would nest them)', async () => {
    const r = await form('credentials.api_token=tok&a%5Bb%5D=1&_csrf=t');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { 'credentials.api_token': 'tok', 'a[b]': '1', _csrf: 't' });
  });

  it('keeps every repeated name as an array, beyond 20 values (qs turns those into an object)', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `e${i}`);
    const r = await form(names.map((n) => `events=${n}`).join('&'));
    assert.deepEqual(r.body, { events: names });
  });

  it('drops no field beyond 1000 parameters (qs stops reading there)', async () => {
    const many = Array.from({ length: 1100 }, (_, i) => `k${i}=1`).join('&');
    const r = await form(`${many}&_csrf=last`);
    const body = r.body as Record<string, string>;
    assert.equal(Object.keys(body).length, 1101);
    assert.equal(body._csrf, 'last');
  });

  it('refuses a form over its limit with body_too_large', async () => {
    const r = await form(`x=${'a'.repeat(FORM_LIMIT_BYTES)}`);
    assert.equal(r.status, 413);
    assert.equal(r.code, 'body_too_large');
    assert.equal(r.message, `Form bodies are limited to ${FORM_LIMIT_BYTES} bytes`);
  });

  it('answers a JSON body that is not UTF-8 with invalid_json (co-body decodes it to U+FFFD)', async () => {
    const r = await post('/v1/x', 'application/json', new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]));
    assert.equal(r.status, 400);
    assert.equal(r.code, 'invalid_json');
    assert.equal(r.message, 'Request body is not valid UTF-8');
  });

  it('treats a whitespace-only JSON body as no body (co-body answers 400)', async () => {
    const r = await post('/v1/x', 'application/json', '  \n');
    assert.equal(r.status, 200);
    assert.equal(r.body, null);
  });

  it('names the position of a JSON syntax error without echoing the body', async () => {
    const r = await post('/v1/x', 'application/json', '{"secret":1,}');
    assert.equal(r.status, 400);
    assert.equal(r.code, 'invalid_json');
    assert.match(r.message ?? '', /^Request body is not valid JSON \(at character \d+\)$/);
    assert.ok(!(r.message ?? '').includes('secret'));
  });
});
