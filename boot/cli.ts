// The `billing` command-line tool for operators: merchants, keys and dashboard-managed settings.
//   billing merchants create --name "Acme ehf." [--currency ISK] [--json]
//   billing merchants list [--json]
//   billing merchants go-live <merchant_id>
//   billing keys create --merchant <id> --type secret|publishable --mode test|live [--label L] [--json]
//   billing keys list --merchant <id> [--json]
//   billing keys revoke --merchant <id> <key_id>
//   billing origins add|remove|list --merchant <id> [origin]          (embedded checkout origins)
//   billing redirect-domains add|remove|list --merchant <id> [domain] (hosted checkout return URLs)
//   billing users create --merchant <id> --email E --role owner|developer|finance|read_only [--name N] [--password-stdin] [--json]
//   billing users list --merchant <id> [--json]                       (merchant dashboard users)
//   billing merchants details <merchant_id> [--legal-name …] [--kennitala …] [--vat-number …]
//         [--address-line1 …] [--address-line2 …] [--postal-code …] [--city …] [--country IS]
//         [--support-email …] [--json]     (shows them; given options set them, '' clears one)
//   billing portal settings <merchant_id> [--allow-cancel true|false] [--allow-update-payment-methods …]
//         [--allow-update-billing-details …] [--allow-pay-invoices …] [--show-invoice-history …]
//         [--return-url URL] [--json]
//   billing migrate
//   billing --version; billing [COMMAND] --help
// The command line is parsed and checked before anything else: an unknown command or option is a
// usage error (exit 2) that never opens the database; a command that fails exits 1.
//   billing listen --forward-to URL [--events a,b]   (developer commands: through the API with a
//   billing trigger EVENT_TYPE                         secret test key; boot/developer/)
//   billing demo [--customers N] [--months N]
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, DEFAULT_DATABASE_URL } from '../src/config';
import { createDb, type Db } from '../src/db/client';
import { prepareDatabase } from './runtime/database';
import { createMerchant, goLive, insertKey } from '../src/domain/merchants/create-merchant';
import { ApiError } from '../src/errors';
import { notifyKeyChanged } from '../src/domain/api-keys/invalidation';
import { createDashboardUser } from '../src/domain/dashboard-users/create-dashboard-user';
import { listTeam } from '../src/domain/dashboard-users/manage-team';
import { normaliseAllowedOrigin } from '../src/domain/merchant-settings/allowed-origins';
import { normaliseRedirectDomain } from '../src/domain/merchant-settings/redirect-domains';
import { BUSINESS_DETAIL_PARAMS, getBusinessDetails, updateBusinessDetails, type BusinessDetails } from '../src/domain/merchants/business-details';
import { apiCaller, resolveTarget } from './developer/api-client';
import { listen, parseEventsOption } from './developer/listen';
import { trigger, TRIGGERABLE } from './developer/trigger';
import { runDemo } from './developer/demo';
import { getPortalSettings, PORTAL_SETTING_PARAMS, updatePortalSettings, type PortalSettings } from '../src/domain/customer-portals/portal-settings';

/** --legal-name style option names for the business detail and portal setting fields. */
const optionName = (param: string) => param.replace(/_/g, '-');
const DETAIL_OPTIONS = Object.fromEntries(Object.values(BUSINESS_DETAIL_PARAMS).map((p) => [optionName(p), { type: 'string' as const }]));
const SETTING_OPTIONS = Object.fromEntries(Object.values(PORTAL_SETTING_PARAMS).map((p) => [optionName(p), { type: 'string' as const }]));

function asJson<T extends object>(value: T, params: Record<keyof T, string>): Record<string, unknown> {
  return Object.fromEntries((Object.keys(params) as Array<keyof T>).map((k) => [params[k], value[k]]));
}

function asText(value: Record<string, unknown>): string {
  return Object.entries(value)
    .map(([k, v]) => `${k.padEnd(30)} ${v === null ? '(not set)' : String(v)}`)
    .join('\n');
}

/** Every command and its usage; the CLI parses and checks a command line against these before it opens the database. */
const COMMANDS: Record<string, string> = {
  'merchants create': 'billing merchants create --name NAME [--currency ISK] [--json]',
  'merchants list': 'billing merchants list [--json]',
  'merchants go-live': 'billing merchants go-live MERCHANT_ID',
  'merchants details': `billing merchants details MERCHANT_ID [--legal-name NAME] [--kennitala KT] [--vat-number NO] [--address-line1 …]
        [--address-line2 …] [--postal-code …] [--city …] [--country CC] [--support-email EMAIL] [--json]
        (shows them; given options set them, '' clears one)`,
  'keys create': 'billing keys create --merchant MERCHANT_ID --type secret|publishable --mode test|live [--label LABEL] [--json]',
  'keys list': 'billing keys list --merchant MERCHANT_ID [--json]',
  'keys revoke': 'billing keys revoke --merchant MERCHANT_ID KEY_ID',
  'origins add': 'billing origins add --merchant MERCHANT_ID ORIGIN   (embedded checkout origins)',
  'origins remove': 'billing origins remove --merchant MERCHANT_ID ORIGIN',
  'origins list': 'billing origins list --merchant MERCHANT_ID',
  'redirect-domains add': 'billing redirect-domains add --merchant MERCHANT_ID DOMAIN   (hosted checkout return URLs)',
  'redirect-domains remove': 'billing redirect-domains remove --merchant MERCHANT_ID DOMAIN',
  'redirect-domains list': 'billing redirect-domains list --merchant MERCHANT_ID',
  'users create': 'billing users create --merchant MERCHANT_ID --email EMAIL --role owner|developer|finance|read_only [--name NAME] [--password-stdin] [--json]',
  'users list': 'billing users list --merchant MERCHANT_ID [--json]',
  'portal settings': `billing portal settings MERCHANT_ID [--allow-cancel true|false] [--allow-update-payment-methods true|false]
        [--allow-update-billing-details true|false] [--allow-pay-invoices true|false]
        [--show-invoice-history true|false] [--return-url URL] [--json]`,
  migrate: 'billing migrate   (applies database migrations)',
};

const USAGE = `usage:
${Object.values(COMMANDS)
  .map((u) => `  ${u}`)
  .join('\n')}
  billing --version
  billing [COMMAND] --help
developer commands (test mode, through the API with a secret test key):
  billing listen --forward-to http://localhost:4242/webhooks [--events invoice.paid,…]
  billing trigger EVENT_TYPE          (e.g. invoice.payment_failed; creates the objects that cause it)
  billing demo [--customers 50] [--months 12]   (idempotent: an Icelandic catalog, customers and a year of billing)
        [--api-url URL] [--api-key sk_test_…] [--merchant MERCHANT_ID]
environment: DATABASE_URL (default ${DEFAULT_DATABASE_URL}); for the developer commands
  BILLING_API_URL (default http://localhost:$PORT or 3000), BILLING_API_KEY, BILLING_MERCHANT_ID`;

/** The command a command line names ('keys create', 'migrate'), or null. */
function commandOf(positionals: string[]): string | null {
  const [area, action] = positionals;
  if (area === 'migrate') return 'migrate';
  const name = `${area} ${action}`;
  return Object.hasOwn(COMMANDS, name) ? name : null;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

class UsageError extends Error {}

function out(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
}

async function merchantOrFail(db: Db, id: string | undefined) {
  if (!id) throw new UsageError('--merchant MERCHANT_ID is required');
  const m = await db.merchant.findUnique({ where: { id } });
  if (!m) throw new Error(`no such merchant: ${id}`);
  return m;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const OPTIONS = {
  name: { type: 'string' },
  currency: { type: 'string' },
  merchant: { type: 'string' },
  type: { type: 'string' },
  mode: { type: 'string' },
  label: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  'password-stdin': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  'api-url': { type: 'string' },
  'api-key': { type: 'string' },
  customers: { type: 'string' },
  months: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
  ...DETAIL_OPTIONS,
  ...SETTING_OPTIONS,
} as const;

function usageError(message: string, usage = USAGE): number {
  process.stderr.write(`error: ${message}\n${usage}\n`);
  return 2;
}

/**
 * Runs one command line and returns the exit code: 0 done, 1 the command failed, 2 a usage error.
 * The command line is parsed and checked first: only a known command opens the database (and
 * applies migrations).
 */
export async function runCli(argv: string[], env = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (err) {
    return usageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`billing ${version()}\n`);
    return 0;
  }
  const [area, action, arg] = positionals;
  const command = area ? commandOf(positionals) : null;
  if (!area) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (area === 'listen' || area === 'trigger' || area === 'demo') return runDeveloperCommand(area, action, values, env);
  if (!command) return usageError(`unknown command: ${positionals.join(' ')}`);
  if (values.help) {
    process.stdout.write(`usage:\n  ${COMMANDS[command]}\n`);
    return 0;
  }
  const config = loadConfig(env);
  const url = await prepareDatabase(config.databaseUrl, () => undefined);
  const db = createDb(url, { poolSize: 2 });
  const json = values.json ?? false;
  try {
    if (area === 'migrate') {
      out(json, { ok: true }, 'migrations applied');
    } else if (area === 'merchants' && action === 'create') {
      if (!values.name) throw new UsageError('--name is required');
      const c = await createMerchant(db, { name: values.name, currency: values.currency });
      out(
        json,
        { merchant_id: c.merchant.id, name: c.merchant.name, default_currency: c.merchant.defaultCurrency, secret_key: c.secretKey, publishable_key: c.publishableKey },
        `merchant ${c.merchant.id} (${c.merchant.name}, ${c.merchant.defaultCurrency})\n  secret test key:      ${c.secretKey}\n  publishable test key: ${c.publishableKey}\n(keys are shown once)`,
      );
    } else if (area === 'merchants' && action === 'list') {
      const all = await db.merchant.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      out(
        json,
        all.map((m) => ({ id: m.id, name: m.name, live: m.liveEnabledAt !== null, created_at: m.createdAt.toISOString() })),
        all.map((m) => `${m.id}  ${m.liveEnabledAt ? 'live' : 'test-only'}  ${m.name}`).join('\n') || '(no merchants)',
      );
    } else if (area === 'merchants' && action === 'go-live') {
      if (!arg) throw new UsageError('merchants go-live MERCHANT_ID');
      const m = await goLive(db, arg, new Date());
      out(
        json,
        { id: m.id, live_enabled_at: m.liveEnabledAt?.toISOString() },
        `${m.id} is live since ${m.liveEnabledAt?.toISOString()}; create live keys with: billing keys create --merchant ${m.id} --type secret --mode live`,
      );
    } else if (area === 'merchants' && action === 'details') {
      const m = await merchantOrFail(db, arg ?? values.merchant);
      const patch: Partial<BusinessDetails> = {};
      for (const [field, param] of Object.entries(BUSINESS_DETAIL_PARAMS) as Array<[keyof BusinessDetails, string]>) {
        const v = (values as Record<string, unknown>)[optionName(param)];
        if (typeof v === 'string') patch[field] = v === '' ? null : v;
      }
      const details = Object.keys(patch).length ? await updateBusinessDetails(db, m.id, patch) : await getBusinessDetails(db, m.id);
      const shown = { merchant_id: m.id, ...asJson(details, BUSINESS_DETAIL_PARAMS) };
      out(json, shown, asText(shown));
    } else if (area === 'portal' && action === 'settings') {
      const m = await merchantOrFail(db, arg ?? values.merchant);
      const patch: Partial<PortalSettings> = {};
      for (const [field, param] of Object.entries(PORTAL_SETTING_PARAMS) as Array<[keyof PortalSettings, string]>) {
        const v = (values as Record<string, unknown>)[optionName(param)];
        if (typeof v !== 'string') continue;
        if (field === 'returnUrl') patch.returnUrl = v === '' ? null : v;
        else if (v === 'true' || v === 'false') (patch as Record<string, boolean>)[field] = v === 'true';
        else throw new UsageError(`--${optionName(param)} must be true or false`);
      }
      const settings = Object.keys(patch).length ? await updatePortalSettings(db, m.id, patch) : await getPortalSettings(db, m.id);
      const shown = { merchant_id: m.id, ...asJson(settings, PORTAL_SETTING_PARAMS) };
      out(json, shown, asText(shown));
    } else if (area === 'keys' && action === 'create') {
      const m = await merchantOrFail(db, values.merchant);
      if (values.type !== 'secret' && values.type !== 'publishable') throw new UsageError('--type must be secret or publishable');
      if (values.mode !== 'test' && values.mode !== 'live') throw new UsageError('--mode must be test or live');
      if (values.mode === 'live' && !m.liveEnabledAt) throw new Error(`merchant ${m.id} has not gone live: run billing merchants go-live ${m.id} first`);
      const key = await insertKey(db, m.id, values.type, values.mode, values.label ?? null);
      out(json, { merchant_id: m.id, type: values.type, mode: values.mode, key }, `${key}\n(shown once)`);
    } else if (area === 'keys' && action === 'list') {
      const m = await merchantOrFail(db, values.merchant);
      const keys = await db.apiKey.findMany({ where: { merchantId: m.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      out(
        json,
        keys.map((k) => ({ id: k.id, type: k.type, mode: k.mode, label: k.label, last4: k.last4, revoked: k.revokedAt !== null })),
        keys.map((k) => `${k.id}  ${k.type.padEnd(11)} ${k.mode}  …${k.last4}  ${k.revokedAt ? 'REVOKED' : 'active'}  ${k.label ?? ''}`).join('\n') || '(no keys)',
      );
    } else if (area === 'keys' && action === 'revoke') {
      const m = await merchantOrFail(db, values.merchant);
      if (!arg) throw new UsageError('keys revoke --merchant MERCHANT_ID KEY_ID');
      const revoked = await db.$transaction(async (tx) => {
        const k = await tx.apiKey.findFirst({ where: { id: arg, merchantId: m.id, revokedAt: null } });
        if (!k) return false;
        await tx.apiKey.update({ where: { id: k.id }, data: { revokedAt: new Date() } });
        await notifyKeyChanged(tx, k.keyHash);
        return true;
      });
      if (!revoked) throw new Error(`no active key ${arg} for merchant ${m.id}`);
      out(json, { id: arg, revoked: true }, `revoked ${arg}`);
    } else if ((area === 'origins' || area === 'redirect-domains') && ['add', 'remove', 'list'].includes(action ?? '')) {
      const m = await merchantOrFail(db, values.merchant);
      const field = area === 'origins' ? 'allowedOrigins' : 'redirectDomains';
      let list = [...m[field]];
      if (action !== 'list') {
        if (!arg) throw new UsageError(`${area} ${action} --merchant MERCHANT_ID VALUE`);
        const v = area === 'origins' ? normaliseAllowedOrigin(arg, 'origin') : normaliseRedirectDomain(arg, 'domain');
        list = action === 'add' ? [...new Set([...list, v])] : list.filter((x) => x !== v);
        await db.merchant.update({ where: { id: m.id }, data: { [field]: list } });
      }
      out(json, list, list.join('\n') || '(none)');
    } else if (area === 'users' && action === 'create') {
      const m = await merchantOrFail(db, values.merchant);
      if (!values.email) throw new UsageError('--email is required');
      if (!values.role) throw new UsageError('--role is required (owner, developer, finance or read_only)');
      // Without --password-stdin a strong password is generated and shown once.
      const generated = !values['password-stdin'];
      const password = generated ? randomBytes(15).toString('base64url') : (await readStdin()).replace(/\r?\n$/, '');
      const user = await createDashboardUser(db, { merchantId: m.id, email: values.email, role: values.role, password, name: values.name ?? null });
      out(
        json,
        { id: user.id, merchant_id: m.id, email: user.email, role: user.role, ...(generated ? { password } : {}) },
        `dashboard user ${user.id} ${user.email} (${user.role}) of ${m.id}${generated ? `\n  password: ${password}\n(shown once; change it in the dashboard under Account)` : ''}`,
      );
    } else if (area === 'users' && action === 'list') {
      const m = await merchantOrFail(db, values.merchant);
      const users = await listTeam(db, m.id);
      out(
        json,
        users.map((u) => ({ id: u.id, email: u.email, role: u.role, two_step: u.totpEnabledAt !== null, created_at: u.createdAt.toISOString() })),
        users.map((u) => `${u.id}  ${u.role.padEnd(9)} ${u.email}${u.totpEnabledAt ? '  (two-step)' : ''}`).join('\n') || '(no users)',
      );
    } else {
      throw new Error(`command ${command} is listed but not handled`);
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) return usageError(err.message, `usage:\n  ${COMMANDS[command]}`);
    process.stderr.write(`error: ${err instanceof ApiError ? `${err.message}${err.param ? ` (${err.param})` : ''}` : (err as Error).message}\n`);
    return 1;
  } finally {
    await db.$disconnect();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`error: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}

/** `billing listen` and `billing trigger`: API clients, no database. */
async function runDeveloperCommand(
  area: 'listen' | 'trigger' | 'demo',
  arg: string | undefined,
  values: { 'forward-to'?: string; events?: string; 'api-url'?: string; 'api-key'?: string; merchant?: string; customers?: string; months?: string },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const target = await resolveTarget({ apiUrl: values['api-url'], apiKey: values['api-key'], merchant: values.merchant }, env);
  const write = (line: string) => void process.stdout.write(`${line}\n`);
  if (area === 'demo') {
    const customers = Number(values.customers ?? 50);
    const months = Number(values.months ?? 12);
    if (!Number.isInteger(customers) || customers < 8 || customers > 500) throw new Error('--customers must be a whole number from 8 to 500');
    if (!Number.isInteger(months) || months < 1 || months > 24) throw new Error('--months must be a whole number from 1 to 24');
    write(`Demo data for ${target.merchantId} (test mode): ${customers} customers, ${months} months of history`);
    await runDemo(target, { customers, months, say: write });
    return 0;
  }
  if (area === 'trigger') {
    if (!arg) throw new Error(`usage: billing trigger EVENT_TYPE (one of ${TRIGGERABLE.join(', ')})`);
    write(`Triggering ${arg} in test mode for ${target.merchantId}:`);
    await trigger(apiCaller(target), arg, (line) => write(`  ${line}`));
    write(`Done: ${arg} is recorded (and delivered to your endpoints and any \`billing listen\`).`);
    return 0;
  }
  if (!values['forward-to']) throw new Error('usage: billing listen --forward-to http://localhost:4242/webhooks [--events invoice.paid,…]');
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const forwarded = await listen({ target, forwardTo: values['forward-to'], events: parseEventsOption(values.events), write, signal: stop.signal });
    write(`stopped after forwarding ${forwarded} event(s)`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
