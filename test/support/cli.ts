// The `billing` operator CLI (bin/billing.js) run as a real process against the test database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { TestEnv } from './env';
import { REPO_ROOT } from './processes';

const bin = path.join(REPO_ROOT, 'bin', 'billing.js');

/** Runs `billing ...args` with `stdin` as its input (none when not given) and resolves when it exits. */
export function billing(env: Pick<TestEnv, 'databaseUrl'>, args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, DATABASE_URL: env.databaseUrl } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}
