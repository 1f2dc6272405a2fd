export function log(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${line}\n`);
}

export function fail(err: unknown): never {
  process.stderr.write(`\nerror: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
