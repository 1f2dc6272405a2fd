// Brings the database up for the service: reachable server, database created if missing,
// pending migrations applied.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { DEFAULT_DATABASE_URL } from '../../src/config';
import { ensureDatabase, migrate } from '../../src/db/migrate';

/** Connects once to the URL's database; the error, or null when it answered. */
async function connectError(url: string): Promise<Error | null> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await c.connect();
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  } finally {
    await c.end().catch(() => undefined);
  }
}

const CONNECT_TIMEOUT_MS = 3000;
const TRUST_HINT =
  `The default DATABASE_URL (${DEFAULT_DATABASE_URL}) logs in as "postgres" without a password, which needs ` +
  '`trust` authentication for 127.0.0.1 in pg_hba.conf; otherwise set DATABASE_URL with a user and its password ' +
  '(postgresql://USER:PASSWORD@HOST:5432/billing).';

/** What went wrong connecting to PostgreSQL, in an operator's words: refused, not found, no answer, login refused, missing database. */
export function describeConnectError(err: Error & { code?: string }, url: string, defaultUrl: boolean): string {
  const u = new URL(url);
  const where = `${u.hostname}:${u.port || '5432'}`;
  const user = decodeURIComponent(u.username) || 'the current OS user';
  const db = decodeURIComponent(u.pathname.slice(1));
  const fix = defaultUrl
    ? 'Start a local PostgreSQL (e.g. `pg_ctlcluster 15 main start`, or `docker compose up postgres`), or set DATABASE_URL to a reachable server.'
    : 'Check DATABASE_URL and that the server is running.';
  switch (err.code) {
    case 'ECONNREFUSED':
      return `PostgreSQL refused the connection at ${where} (connection refused: nothing listens there). ${fix}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `PostgreSQL host ${u.hostname} was not found (DNS: ${err.code}). Check DATABASE_URL.`;
    case '28P01':
      return `PostgreSQL at ${where} refused the login of "${user}": password authentication failed (${err.message}). ${defaultUrl ? TRUST_HINT : 'Check the user and password in DATABASE_URL.'}`;
    case '28000':
      return `PostgreSQL at ${where} refused the login of "${user}": ${err.message}. ${defaultUrl ? TRUST_HINT : 'Check the user in DATABASE_URL and pg_hba.conf.'}`;
    case '3D000':
      return `PostgreSQL at ${where} has no database "${db}" (${err.message}).`;
    default:
      if (/timeout|timed out/i.test(err.message)) return `PostgreSQL does not answer at ${where} within ${CONNECT_TIMEOUT_MS / 1000} s (${err.message}). ${fix}`;
      return `PostgreSQL at ${where} could not be used: ${err.message}${err.code ? ` (${err.code})` : ''}. ${fix}`;
  }
}

/** Tries the machine's own cluster manager once (Debian's pg_ctlcluster), as root only. */
function tryStartLocalCluster(log: (line: string) => void): boolean {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/pg_ctlcluster')) return false;
  const versions = spawnSync('sh', ['-c', 'ls /etc/postgresql 2>/dev/null'], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  for (const v of versions) {
    log(`PostgreSQL is not answering; starting the local cluster ${v}/main with pg_ctlcluster`);
    const r = spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start'], { encoding: 'utf8' });
    if (r.status === 0) return true;
  }
  return false;
}

export async function prepareDatabase(databaseUrl: string | undefined, log: (line: string) => void): Promise<string> {
  const url = databaseUrl ?? DEFAULT_DATABASE_URL;
  const shown = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  let err = await connectError(url);
  if ((err as { code?: string } | null)?.code === 'ECONNREFUSED' && !databaseUrl && tryStartLocalCluster(log)) err = await connectError(url);
  if ((err as { code?: string } | null)?.code === '3D000') {
    // A missing database is created (connecting to the server's `postgres` database).
    try {
      if (await ensureDatabase(url)) log(`created database ${new URL(url).pathname.slice(1)}`);
      err = null;
    } catch (createErr) {
      const e = createErr as Error & { code?: string };
      throw new Error(
        `${describeConnectError(err as Error, url, !databaseUrl)} Creating it failed: ${e.code === '42501' ? `the user may not create databases (${e.message})` : describeConnectError(e, url, !databaseUrl)}`,
      );
    }
  }
  if (err) throw new Error(`${describeConnectError(err, url, !databaseUrl)} (${shown})`);
  const res = await migrate(url, log);
  log(`database ready at ${shown} (${res.applied.length} migration(s) applied, ${res.alreadyApplied} already present)`);
  return url;
}
