import type { Writable } from 'node:stream';
import type { ApiKeyInfo } from '../contracts/api-key-records.js';
import type { IssuedApiKey, ListedApiKey } from '../auth/key-store.js';
import { openKeyStore, type KeyDatabase, type OpenedKeyStore } from './open-key-store.js';
import { parseDuration } from './parse-duration.js';
import { prepareTenantVerb } from './tenant-verbs.js';

/** Where the command line reads its settings and writes its answers. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The clock, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /** Standard output as a stream, for `tenants export` to write with back-pressure. */
  readonly stdout?: Writable;
}

const USAGE = `Usage: scimkit keys <verb> [options]
  issue  --tenant T [--scope read|write] [--expires 90d] [--label L] [--profile P]
  list   --tenant T
  revoke ID
  rotate ID [--overlap 7d]
Usage: scimkit tenants <verb> [options]
  export --tenant T [--out FILE.ndjson]   (NDJSON on standard output without --out)
  delete --tenant T --yes                 (users, groups and API keys, for good)
Every verb takes --json and --data DIR (the PGlite data folder; default SCIMKIT_DATA_DIR).
DATABASE_URL (and SCIMKIT_DB_SCHEMA) select a PostgreSQL server instead.
Durations: a whole number and s, m, h or d (10s, 30m, 12h, 90d).`;

const FLAGS: ReadonlySet<string> = new Set(['--json', '--yes']);
const VALUED: ReadonlySet<string> = new Set([
  '--tenant',
  '--scope',
  '--expires',
  '--label',
  '--profile',
  '--overlap',
  '--data',
  '--out',
]);

const COMMANDS: Readonly<Record<string, readonly string[]>> = {
  keys: ['issue', 'list', 'revoke', 'rotate'],
  tenants: ['export', 'delete'],
};

class UsageError extends Error {}

interface Parsed {
  readonly words: string[];
  readonly options: Map<string, string>;
}

function parse(args: readonly string[]): Parsed {
  const words: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (FLAGS.has(name)) options.set(name, 'true');
    else if (VALUED.has(name)) {
      const value = eq > 0 && name !== arg ? arg.slice(eq + 1) : args[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value.`);
      options.set(name, value);
    } else if (arg.startsWith('--')) throw new UsageError(`Unknown option ${arg}.`);
    else words.push(arg);
  }
  return { words, options };
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function jsonOf(key: ApiKeyInfo & Partial<IssuedApiKey & ListedApiKey>): Record<string, unknown> {
  return {
    id: key.id,
    ...(key.secret === undefined ? {} : { secret: key.secret }),
    tenant: key.tenant,
    ...(key.status === undefined ? {} : { status: key.status }),
    scopes: key.scopes,
    label: key.label,
    profile: key.profile,
    prefix: `scimkit_${key.id}_`,
    createdAt: iso(key.createdAt),
    expiresAt: iso(key.expiresAt),
    revokedAt: iso(key.revokedAt),
    lastUsedAt: iso(key.lastUsedAt),
  };
}

function describeIssued(key: IssuedApiKey, out: CliIo['out']): void {
  out(`Key ${key.id} for tenant "${key.tenant}" (${key.scopes.join(', ')})`);
  out(`Expires: ${key.expiresAt === null ? 'never' : key.expiresAt.toISOString()}`);
  out('The key, shown this once (only its hash is kept):');
  out(`  ${key.secret}`);
}

function need(parsed: Parsed, option: string): string {
  const value = parsed.options.get(option);
  if (value === undefined || value === '') throw new UsageError(`${option} is required.`);
  return value;
}

function idOf(parsed: Parsed, verb: string): string {
  const id = parsed.words[2];
  if (id === undefined || parsed.words.length > 3)
    throw new UsageError(`keys ${verb} takes one key id.`);
  return id;
}

function scopesOf(scope: string | undefined) {
  if (scope === undefined || scope === 'write') return ['scim:read', 'scim:write'] as const;
  if (scope === 'read') return ['scim:read'] as const;
  throw new UsageError(`--scope: "${scope}" is not read or write.`);
}

/**
 * Runs `scimkit keys <verb>` on the key store of `DATABASE_URL` or of the PGlite data folder,
 * and returns the exit code: 0 done, 1 refused (a missing database, an unknown id, a bad
 * value), 2 a malformed command line. Every refusal is one line on `err`.
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(args);
    const [group, verb] = parsed.words;
    if (group === undefined || !(COMMANDS[group]?.includes(verb ?? '') ?? false))
      throw new UsageError(group === undefined ? 'No command given.' : 'Unknown command.');
  } catch (error) {
    io.err(`scimkit: ${(error as Error).message}`);
    io.err(USAGE);
    return 2;
  }
  const json = parsed.options.has('--json');
  const now = io.now ?? Date.now;
  const dataDir = parsed.options.get('--data') ?? io.env['SCIMKIT_DATA_DIR']?.trim();
  const schema = io.env['SCIMKIT_DB_SCHEMA']?.trim();
  const database: KeyDatabase = {
    ...(io.env['DATABASE_URL']?.trim() ? { url: io.env['DATABASE_URL'].trim() } : {}),
    ...(schema ? { schema } : {}),
    ...(dataDir ? { dataDir } : {}),
  };
  let opened: Awaited<ReturnType<typeof openKeyStore>> | undefined;
  try {
    const [group, verb] = parsed.words as [string, string];
    // Every argument is read before the database is opened: a typo changes nothing.
    const run: (db: OpenedKeyStore) => Promise<void> =
      group === 'tenants' ? tenantRun(verb, parsed, io, json) : keyRun(verb, parsed, now, json, io);
    opened = await openKeyStore(database);
    await run(opened);
    return 0;
  } catch (error) {
    const usage = error instanceof UsageError;
    const message = error instanceof Error ? error.message : String(error);
    io.err(`scimkit: ${message.split('\n')[0] ?? ''}`);
    if (usage) io.err(USAGE);
    return usage ? 2 : 1;
  } finally {
    await opened?.close();
  }
}

function keyRun(verb: string, parsed: Parsed, now: () => number, json: boolean, io: CliIo) {
  const run = prepare(verb, parsed, now);
  return (db: OpenedKeyStore) => run(db.keys, json, io.out);
}

function tenantRun(verb: string, parsed: Parsed, io: CliIo, json: boolean) {
  if (parsed.words.length > 2) throw new UsageError(`tenants ${verb} takes no argument.`);
  const run = prepareTenantVerb(verb, {
    tenant: need(parsed, '--tenant'),
    outFile: parsed.options.get('--out'),
    yes: parsed.options.has('--yes'),
    stdout: io.stdout,
  });
  return (db: OpenedKeyStore) => run(db, json, io.out);
}

type Run = (
  keys: Awaited<ReturnType<typeof openKeyStore>>['keys'],
  json: boolean,
  out: CliIo['out'],
) => Promise<void>;

function prepare(verb: string, parsed: Parsed, now: () => number): Run {
  if (verb === 'issue') {
    const tenant = need(parsed, '--tenant');
    const scopes = scopesOf(parsed.options.get('--scope'));
    const expires = parsed.options.get('--expires');
    const ms = expires === undefined ? undefined : parseDuration(expires, '--expires');
    const label = parsed.options.get('--label');
    const profile = parsed.options.get('--profile');
    return async (keys, json, out) => {
      const key = await keys.issue(tenant, {
        scopes,
        ...(ms === undefined ? {} : { expiresAt: new Date(now() + ms) }),
        ...(label === undefined ? {} : { label }),
        ...(profile === undefined ? {} : { profile }),
      });
      if (json) out(JSON.stringify(jsonOf(key)));
      else describeIssued(key, out);
    };
  }
  if (verb === 'list') {
    const tenant = need(parsed, '--tenant');
    return async (keys, json, out) => {
      const listed = await keys.list(tenant);
      if (json) return out(JSON.stringify(listed.map(jsonOf)));
      if (listed.length === 0) return out(`No keys for tenant "${tenant}".`);
      for (const k of listed)
        out(
          `${k.id}  ${k.status.padEnd(7)}  ${k.scopes.join(',').padEnd(20)}  ` +
            `created ${iso(k.createdAt)}  expires ${iso(k.expiresAt) ?? 'never'}  ` +
            `last used ${iso(k.lastUsedAt) ?? 'never'}${k.label === null ? '' : `  "${k.label}"`}`,
        );
    };
  }
  if (verb === 'revoke') {
    const id = idOf(parsed, verb);
    return async (keys, json, out) => {
      await keys.revoke(id);
      out(json ? JSON.stringify({ id, revoked: true }) : `Revoked key ${id}.`);
    };
  }
  const id = idOf(parsed, verb);
  const overlap = parsed.options.get('--overlap');
  const overlapMs = overlap === undefined ? undefined : parseDuration(overlap, '--overlap');
  return async (keys, json, out) => {
    const key = await keys.rotate(id, overlapMs === undefined ? {} : { overlapMs });
    const until = (await keys.list(key.tenant)).find((k) => k.id === id)?.expiresAt ?? null;
    if (json) out(JSON.stringify({ ...jsonOf(key), replaces: id, replacedExpiresAt: iso(until) }));
    else {
      describeIssued(key, out);
      out(`The old key ${id} works until ${iso(until) ?? 'now'}.`);
    }
  };
}
