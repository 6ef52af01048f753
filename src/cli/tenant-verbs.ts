import { createWriteStream, existsSync, rmSync } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createScim } from '../core/create-scim.js';
import type { Scim } from '../core/scim.js';
import { toNdjson } from '../core/tenants/to-ndjson.js';
import { PostgresUserStore } from '../stores/postgres/postgres-user-store.js';
import { tableNames } from '../stores/postgres/table-names.js';
import type { OpenedKeyStore } from './open-key-store.js';

/** What `scimkit tenants <verb>` was told. */
export interface TenantVerbOptions {
  readonly tenant: string;
  /** `--out`: the NDJSON file `export` writes (a new one); absent: standard output. */
  readonly outFile?: string | undefined;
  /** `--yes`: the confirmation `delete` needs. */
  readonly yes: boolean;
  /** Where `export` writes without `--out`, with back-pressure; absent: one `out` line each. */
  readonly stdout?: Writable | undefined;
}

/** A tenant verb, ready to run on an open database. */
export type TenantRun = (
  db: OpenedKeyStore,
  json: boolean,
  out: (line: string) => void,
) => Promise<void>;

// The service of the database's tables: the users and groups of `PostgresUserStore`, and its
// key store as the verifier, so the tenant's keys go with the rest.
function serviceOn(db: OpenedKeyStore): Scim {
  const schema = db.schema === undefined ? {} : { schema: db.schema };
  return createScim({
    store: new PostgresUserStore({ executor: db.executor, ...schema }),
    verifier: db.keys,
  });
}

/**
 * Checks a `scimkit tenants` verb's options and returns what runs it once the database is
 * open: `export` writes the tenant as NDJSON, `delete` deletes it, printing progress.
 *
 * @throws Error when `delete` lacks `--yes`: nothing is opened or changed.
 */
export function prepareTenantVerb(verb: string, options: TenantVerbOptions): TenantRun {
  const { tenant, outFile, stdout } = options;
  if (verb === 'export' && outFile !== undefined && existsSync(outFile))
    throw new Error(`--out: ${outFile} exists; an export never overwrites a file.`);
  if (verb === 'export')
    return async (db, json, out) => {
      const exported = serviceOn(db).tenants.export(tenant);
      if (outFile === undefined) {
        if (stdout) await pipeline(Readable.from(toNdjson(exported)), stdout, { end: false });
        else for await (const resource of exported) out(JSON.stringify(resource));
        return;
      }
      let count = 0;
      const counted = async function* () {
        for await (const line of toNdjson(exported)) {
          count++;
          yield line;
        }
      };
      // `wx`: an export never overwrites a file, an earlier export among them. A failed export
      // leaves no file that could pass for a whole one.
      try {
        await pipeline(Readable.from(counted()), createWriteStream(outFile, { flags: 'wx' }));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(outFile, { force: true });
        throw error;
      }
      out(
        json
          ? JSON.stringify({ tenant, out: outFile, resources: count })
          : `Exported ${count} resources of tenant "${tenant}" to ${outFile}.`,
      );
    };
  if (!options.yes)
    throw new Error(
      `tenants delete removes every user, group and API key of tenant "${tenant}" for good; ` +
        'add --yes to go ahead (tenants export keeps a copy first).',
    );
  return async (db, json, out) => {
    const result = await serviceOn(db).tenants.delete(tenant, {
      onProgress: (p) => out(json ? JSON.stringify(p) : `${p.step}: ${p.deleted} deleted`),
    });
    const left = await hostResourcesLeft(db, tenant);
    const counts = Object.entries(result.resources).map(([type, n]) => `${n} ${type}`);
    if (json) return out(JSON.stringify({ tenant, deleted: true, ...result, left }));
    out(`Deleted tenant "${tenant}": ${[`${result.keys} keys`, ...counts].join(', ')}.`);
    const kept = Object.entries(left).map(([type, n]) => `${n} ${type}`);
    if (kept.length > 0)
      out(
        `Left: ${kept.join(', ')} (resource types of the application's; ` +
          'delete them with scim.tenants.delete in the application that registers them).',
      );
  };
}

// The command knows no resource type of the host's, so it cannot delete their resources
// through a service; it says what is left rather than leaving it unsaid.
async function hostResourcesLeft(
  db: OpenedKeyStore,
  tenant: string,
): Promise<Record<string, number>> {
  const table = tableNames(db.schema === undefined ? {} : { schema: db.schema }).resources;
  const rows = await db.executor.query<{ resource_type: string; n: number }>(
    `SELECT resource_type, count(*)::int AS n FROM ${table}
     WHERE tenant = $1 GROUP BY resource_type ORDER BY resource_type`,
    [tenant],
  );
  return Object.fromEntries(rows.map((row) => [row.resource_type, row.n]));
}
