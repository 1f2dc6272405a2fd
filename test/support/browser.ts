// Headless Chromium for the browser tests: /usr/bin/chromium from the distribution's packages,
// installed by the suite when missing (apt-get, as root). Never `npx playwright install`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(`${CHROMIUM} is missing and this user cannot install it. Run as root: apt-get update && apt-get install -y chromium`);
  }
  console.log(`    ${CHROMIUM} is missing: installing it with apt-get (one time; takes a few minutes)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const r = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (status ${r.status}): ${(r.stderr || r.stdout || String(r.error)).slice(-2000)}`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
}
