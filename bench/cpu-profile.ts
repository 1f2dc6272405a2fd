// Summary of a V8 CPU profile (`.cpuprofile`, as `node --cpu-prof` or SOAK_CPU_PROFILE=1 write it):
// where the process spent its time, by package (node_modules/<name>, our own code by top folder,
// node's internals) and by function (self time). Run: `node dist/bench/cpu-profile.js FILE [TOP]`.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** The bucket a script belongs to: an npm package, a folder of ours, node's internals or V8's own entries. */
export function scriptBucket(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const ours = /\/dist\/([^/]+)\//.exec(url);
  if (ours) return `ours: ${ours[1]}`;
  return url.split('/').slice(-2).join('/');
}

export function summarise(profile: Profile, top: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const { functionName, url, lineNumber } = n.callFrame;
    const bucket = scriptBucket(url, functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
  const lines = [`profile: ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s, ${(total / 1e6).toFixed(1)} s sampled`];
  lines.push('self time by package:');
  for (const [b, us] of [...buckets].sort((x, y) => y[1] - x[1]).slice(0, top)) lines.push(`  ${pct(us)}  ${b}`);
  lines.push('self time by function:');
  for (const [f, us] of [...functions].sort((x, y) => y[1] - x[1]).slice(0, top)) lines.push(`  ${pct(us)}  ${f}`);
  return lines;
}

export async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node dist/bench/cpu-profile.js FILE.cpuprofile [TOP]');
  const top = Number(process.argv[3] ?? 30);
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, top).join('\n'));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
