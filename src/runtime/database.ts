// Brings the database up for the service: reachable server, database created if missing,
// pending migrations applied.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { DEFAULT_DATABASE_URL } from '../config';
import { ensureDatabase, migrate } from '../db/migrate';

async function reachable(url: string): Promise<boolean> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const c = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
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
  if (!(await reachable(url))) {
    if (databaseUrl || !tryStartLocalCluster(log) || !(await reachable(url))) {
      throw new Error(
        `PostgreSQL does not answer at ${shown}.\n` +
          (databaseUrl
            ? 'Check DATABASE_URL and that the server is running.'
            : 'Start a local PostgreSQL (e.g. `pg_ctlcluster 15 main start`, or `docker compose up postgres`), or set DATABASE_URL to a reachable server.'),
      );
    }
  }
  if (await ensureDatabase(url)) log(`created database ${new URL(url).pathname.slice(1)}`);
  const res = await migrate(url, log);
  log(`database ready at ${shown} (${res.applied.length} migration(s) applied, ${res.alreadyApplied} already present)`);
  return url;
}
