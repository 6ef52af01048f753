// Creates with their welcome emails, measured to the last email: each server answers wrk's
// creates (16 connections, every user active and so invited) for `--seconds`, and the run
// then waits until the server has sent every email. A server that answers faster by putting
// its emails off (an outbox dispatcher that falls behind) pays for them here, after the
// window, where the kit's create scenario stops looking. Reports the creates answered per
// second in the window, the share of emails sent by its end, how long the rest took, and the
// sustained rate: users ÷ (window + that wait).
//
//   node --import tsx bench/postgres/sustained-creates.ts [--seconds 5] [--rounds 2]
//     [--servers scimkit-node-pg,before=<checkout>/bench/kit/servers/node-pg.mjs]
//
// `--servers` as `cpu-split.ts` takes them (the kit's names, scimkit's PostgreSQL kit servers,
// `name=path` for another checkout's kit server, built). Emails are counted in the server's
// schema: the outbox's sent rows where it has one, else the welcome subscriber's delivered
// attempts. Needs wrk and the kit (`../shared/bench`, `setup.sh` run); run `npm run build`.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { KIT_SOURCE } from '../kit/kit.js';
import { kitServers } from './kit-servers.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    servers: { type: 'string', default: 'scimkit-node-pg' },
    wait: { type: 'string', default: '120' },
    database: {
      type: 'string',
      default: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const SECONDS = Number(args.seconds);
const WAIT_MS = Number(args.wait) * 1000;
const { names, startServer } = await kitServers(args.servers);

const admin = new pg.Pool({ connectionString: args.database, max: 1 });

/** Users in the schema, and the welcome emails sent to them so far. */
async function counts(schema: string): Promise<{ users: number; sent: number }> {
  const { rows: outbox } = await admin.query(
    `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'outbox'`,
    [schema],
  );
  const sent =
    outbox.length > 0
      ? `SELECT count(*)::int AS n FROM ${schema}.outbox WHERE sent_at IS NOT NULL`
      : `SELECT count(*)::int AS n FROM ${schema}.delivery_attempts
         WHERE status = 'ok' AND event_type = 'user.invited'`;
  const [users, emails] = await Promise.all([
    admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.users`),
    admin.query<{ n: number }>(sent),
  ]);
  return { users: users.rows[0]?.n ?? 0, sent: emails.rows[0]?.n ?? 0 };
}

interface Result {
  readonly answered: number;
  readonly sentAtEnd: number;
  readonly drainMs: number;
  readonly users: number;
}

async function measure(name: string, port: number, round: number): Promise<Result> {
  const schema = `sustained_${name.replaceAll('-', '_')}`;
  const server = await startServer(name, {
    port,
    cpu: '',
    env: { DATABASE_URL: args.database, SCIMKIT_PG_SCHEMA: schema },
  });
  try {
    const out = execFileSync(
      'wrk',
      [
        '-t2',
        '-c16',
        `-d${SECONDS}s`,
        '-s',
        join(KIT_SOURCE, 'wrk/scim.lua'),
        `http://127.0.0.1:${port}`,
        '--',
        'create',
        '/api/v1/scim/v2',
        'bench-token',
        '-',
        `sustained${round}`,
      ],
      { encoding: 'utf8', timeout: (SECONDS + 30) * 1000 },
    );
    const end = performance.now();
    const json = /WRKJSON (\{.*\})/.exec(out)?.[1];
    const errors = json ? (JSON.parse(json) as { errors: Record<string, number> }).errors : {};
    const failed = Object.values(errors).reduce((a, b) => a + b, 0);
    if (failed > 0)
      throw new Error(`${name}: ${failed} creates failed (${JSON.stringify(errors)})`);
    const atEnd = await counts(schema);
    let now = atEnd;
    while (now.sent < now.users && performance.now() - end < WAIT_MS) {
      await new Promise((r) => setTimeout(r, 50));
      now = await counts(schema);
    }
    if (now.sent < now.users) throw new Error(`${name}: ${now.users - now.sent} emails unsent`);
    return {
      answered: atEnd.users,
      sentAtEnd: atEnd.sent,
      drainMs: performance.now() - end,
      users: now.users,
    };
  } finally {
    await server.stop();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}

const results = new Map<string, Result[]>(names.map((n) => [n, []]));
for (let round = 0; round < Number(args.rounds); round++) {
  // Alternate the order, so that neither server always runs on a warmer database.
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const [i, name] of order.entries()) {
    results.get(name)?.push(await measure(name, 3950 + i, round));
    console.error(`round ${round} ${name} done`);
  }
}
await admin.end();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
console.log(
  '| server | creates/s answered | emails sent by the last answer | last email after it (s) | sustained users/s |',
);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, runs] of results) {
  const answered = median(runs.map((r) => r.answered / SECONDS));
  const share = median(runs.map((r) => (100 * r.sentAtEnd) / r.answered));
  const drain = median(runs.map((r) => r.drainMs / 1000));
  const sustained = median(runs.map((r) => r.users / (SECONDS + r.drainMs / 1000)));
  console.log(
    `| ${name} | ${answered.toFixed(0)} | ${share.toFixed(0)}% | ${drain.toFixed(1)} | ${sustained.toFixed(0)} |`,
  );
}
