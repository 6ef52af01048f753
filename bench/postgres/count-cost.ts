// What the user count costs a create on the database alone: `pgbench` inserting rows shaped as
// the store's users (tenant, id, folded userName, a small jsonb document; a primary key and a
// unique index), 16 clients at once, with and without the count each create keeps for
// `totalResults` (the upsert of the connection's counter row, as `countInsertedUsers` sends it),
// and with the count as a plain `UPDATE` of a row made beforehand (the upsert only when the row
// is missing). Alternating rounds; inserts per second and each ÷ no count. No scimkit code runs:
// the figures are the database's, for deciding how a create counts itself.
//
//   node --import tsx bench/postgres/count-cost.ts [--rounds 3] [--seconds 8] [--clients 16]
//
// Needs `pgbench` (PostgreSQL's, on PATH or in /usr/lib/postgresql/<version>/bin) and the server
// at DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); uses the schema
// `count_cost`, dropped first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './measure.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    clients: { type: 'string', default: '16' },
    database: {
      type: 'string',
      default: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});

function pgbenchPath(): string {
  const lib = '/usr/lib/postgresql';
  const versions = existsSync(lib) ? readdirSync(lib).sort().reverse() : [];
  const found = versions.map((v) => join(lib, v, 'bin', 'pgbench')).find((p) => existsSync(p));
  return found ?? 'pgbench';
}

const S = 'count_cost';
// pgbench reads `:name` as a variable, so the JSON has a space after each colon.
const insert = `INSERT INTO ${S}.users (tenant, id, user_name_key, doc)
  VALUES ('bench', md5(:r::text || clock_timestamp()::text), md5(clock_timestamp()::text || :r::text),
  '{"userName": "u", "active": true, "name": {"givenName": "A", "familyName": "B"}, "emails": [{"value": "a@b.c", "primary": true}]}')`;
const upsert = `INSERT INTO ${S}.counts AS c (tenant, shard, n) SELECT 'bench', pg_backend_pid() % 64, 1 FROM u
  WHERE NOT EXISTS (SELECT 1 FROM upd) ON CONFLICT (tenant, shard) DO UPDATE SET n = c.n + 1`;
const scripts: Record<string, string> = {
  'no count': `${insert};`,
  upsert: `WITH u AS (${insert} RETURNING 1),
    upd AS (SELECT 1 WHERE false),
    c AS (${upsert}) SELECT 1 FROM u;`,
  update: `WITH u AS (${insert} RETURNING 1),
    upd AS (UPDATE ${S}.counts AS c SET n = c.n + 1 FROM u
      WHERE c.tenant = 'bench' AND c.shard = pg_backend_pid() % 64 RETURNING 1),
    c AS (${upsert}) SELECT 1 FROM u;`,
};

const dir = mkdtempSync(join(tmpdir(), 'count-cost-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const psql = (sql: string) =>
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', args.database, '-c', sql], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
psql(`SET client_min_messages = warning; DROP SCHEMA IF EXISTS ${S} CASCADE; CREATE SCHEMA ${S};
  CREATE TABLE ${S}.users (tenant text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL,
    user_name_key text COLLATE "C" NOT NULL, doc jsonb NOT NULL, PRIMARY KEY (tenant, id));
  CREATE UNIQUE INDEX ON ${S}.users (tenant, user_name_key);
  CREATE TABLE ${S}.counts (tenant text COLLATE "C" NOT NULL, shard smallint NOT NULL,
    n bigint NOT NULL, PRIMARY KEY (tenant, shard));`);

const pgbench = pgbenchPath();
const rates = new Map<string, number[]>(Object.keys(scripts).map((k) => [k, []]));
for (let round = 0; round < Number(args.rounds); round += 1) {
  for (const [name, sql] of Object.entries(scripts)) {
    const file = join(dir, `${name.replace(' ', '-')}.sql`);
    writeFileSync(file, `\\set r random(1, 1000000000)\n${sql.replaceAll('\n', ' ')}\n`);
    const out = execFileSync(
      pgbench,
      [
        '-n',
        '-M',
        'prepared',
        '-c',
        args.clients,
        '-j',
        '2',
        '-T',
        args.seconds,
        '-f',
        file,
        args.database,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const tps = /tps = ([\d.]+)/.exec(out)?.[1];
    if (tps === undefined) throw new Error(`no tps from pgbench for ${name}:\n${out}`);
    rates.get(name)?.push(Number(tps));
    console.log(`round ${round + 1} ${name}: ${Math.round(Number(tps))} inserts/s`);
  }
}
psql(`SET client_min_messages = warning; DROP SCHEMA ${S} CASCADE`);

const base = rates.get('no count') ?? [];
console.log('\n| count | inserts/s (median) | ÷ no count, per round |\n| --- | ---: | --- |');
for (const [name, xs] of rates) {
  const ratios = xs.map((x, i) => `${Math.round((100 * x) / (base[i] ?? NaN))}%`).join(', ');
  console.log(`| ${name} | ${Math.round(median(xs))} | ${ratios} |`);
}
