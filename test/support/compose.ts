// Reads docker-compose.yml and the Dockerfile as Docker would (YAML merge keys, `${VAR}`,
// `${VAR:-default}` and `${VAR:?message}` interpolation from a given environment, the final stage's
// ENV and CMD), so tests can start the services' commands as processes with the same environment.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from './processes';

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] | string; interval?: string; retries?: number; start_period?: string };
  ports?: string[];
  restart?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export function readCompose(file = path.join(REPO_ROOT, 'docker-compose.yml')): ComposeFile {
  return parse(readFileSync(file, 'utf8'), { merge: true }) as ComposeFile;
}

/** Compose's variable interpolation: a required variable that is missing throws its message. */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?([-?])([^}]*))?\}/g, (_m, name: string, op: string | undefined, arg: string | undefined) => {
    const v = vars[name];
    if (op === '?' && !v) throw new Error(`compose: ${name}: ${arg}`);
    if (op === '-' && !v) return arg ?? '';
    return v ?? '';
  });
}

/** A service's environment with its variables interpolated (values as strings, as a container sees them). */
export function serviceEnvironment(service: ComposeService, vars: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.environment ?? {})) out[k] = interpolate(v === null ? '' : String(v), vars);
  return out;
}

export interface DockerfileStage {
  from: string;
  name?: string;
  env: Record<string, string>;
  user?: string;
  cmd?: string[];
  lines: string[];
}

/** The Dockerfile's stages (FROM … [AS name]) with their ENV, USER and CMD (exec form). */
export function readDockerfile(file = path.join(REPO_ROOT, 'Dockerfile')): DockerfileStage[] {
  const stages: DockerfileStage[] = [];
  const text = readFileSync(file, 'utf8').replace(/\\\n/g, ' ');
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [instr, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    const upper = instr!.toUpperCase();
    if (upper === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args)!;
      stages.push({ from: m[1]!, name: m[2], env: {}, lines: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile: ${instr} before FROM`);
    stage.lines.push(line);
    if (upper === 'ENV') {
      const m = /^(\S+?)=(.*)$/.exec(args);
      if (m) stage.env[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1');
    } else if (upper === 'USER') stage.user = args;
    else if (upper === 'CMD') stage.cmd = JSON.parse(args) as string[];
  }
  return stages;
}
