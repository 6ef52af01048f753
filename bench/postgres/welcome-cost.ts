/**
 * What the welcome email costs the database per create, and whether its deliveries keep up:
 * `createScim` on `PostgresUserStore` over a `pg` Pool of 16 (the kit's), N creates of active
 * users (each invited, so each gets an email) sent through `scim.handle` C at a time, every
 * statement counted by wrapping the store's executor. Reports creates per second, the
 * statements per create besides the create's own (the welcome subscriber's walk, claims and
 * records, and its reads of the users), how many emails were sent by the time the last create
 * was answered, and how long after it the last email went.
 *
 *   node --import tsx bench/postgres/welcome-cost.ts [--users 3000] [--concurrency 1,16]
 *
 * Against `SCIMKIT_BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/test), in a
 * schema of its own per run, dropped at the end.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createScim, staticApiKeys } from '../../src/index.js';
import {
  PostgresUserStore,
  pgExecutor,
  type QueryExecutor,
  type QueryOptions,
  type Row,
  type TransactionOptions,
} from '../../src/stores/postgres/index.js';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '1,16' },
  },
});
const URL = process.env['SCIMKIT_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const TOKEN = 'w'.repeat(32);
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

// Statements by what they do, from the table they touch first.
function kindOf(sql: string): string {
  if (/subscription_|dead_letters|delivery_attempts/.test(sql)) return 'subscriber state';
  if (/^\s*SELECT b\.known/.test(sql)) return 'event log reads';
  if (/^\s*(WITH u AS \(INSERT|INSERT INTO \S+\."users")/.test(sql)) return 'creates';
  if (/^\s*SELECT doc/.test(sql)) return 'user reads';
  return 'other';
}

function counting(inner: QueryExecutor, counts: Map<string, number>): QueryExecutor {
  const note = (sql: string) => {
    const kind = kindOf(sql);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  };
  return {
    query<R = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      note(sql);
      return inner.query<R>(sql, params, options);
    },
    transaction<T>(fn: (tx: QueryExecutor) => Promise<T>, options?: TransactionOptions) {
      return inner.transaction((tx) => fn(counting(tx, counts)), options);
    },
  };
}

async function run(users: number, concurrency: number) {
  const pool = new pg.Pool({ connectionString: URL, max: 16 });
  const schema = `scimkit_welcome_cost_${process.pid}_${concurrency}`;
  const counts = new Map<string, number>();
  const store = new PostgresUserStore({ executor: counting(pgExecutor(pool), counts), schema });
  await store.migrate();
  let sent = 0;
  let lastSentAt = 0;
  const scim = createScim({
    store,
    auth: { verifier: staticApiKeys([{ key: TOKEN, tenant: 'bench' }]) },
    mail: {
      mailer: {
        async sendWelcome() {
          sent++;
          lastSentAt = performance.now();
        },
      },
    },
    schema: { userNameRule: 'email' },
  });
  counts.clear();
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/scim+json' };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < users) {
        const i = next++;
        const body = JSON.stringify({
          schemas: [USER],
          userName: `w${i}@example.org`,
          active: true,
        });
        const reply = await scim.handle({ method: 'POST', path: '/Users', headers, body });
        if (reply.status !== 201) throw new Error(`create answered ${reply.status}`);
      }
    }),
  );
  const loaded = performance.now();
  const sentByEnd = sent;
  // Bounded: the emails that are due are sent within seconds.
  for (let i = 0; i < 600 && sent < users; i++) await new Promise((r) => setTimeout(r, 100));
  await scim.close();
  await pool.query(`DROP SCHEMA ${schema} CASCADE`);
  await pool.end();
  const per = (kind: string) => ((counts.get(kind) ?? 0) / users).toFixed(2);
  const welcome = [...counts].reduce((n, [k, v]) => (k === 'creates' ? n : n + v), 0) / users;
  return {
    concurrency,
    createsPerSecond: Math.round(users / ((loaded - started) / 1000)),
    welcomePerCreate: welcome.toFixed(2),
    subscriberState: per('subscriber state'),
    logReads: per('event log reads'),
    userReads: per('user reads'),
    other: per('other'),
    sentByLastAnswer: `${sentByEnd} of ${users}`,
    lastEmailAfterLastAnswerMs: sent < users ? 'not all sent' : Math.round(lastSentAt - loaded),
  };
}

const users = Number(args.users);
console.log(
  '| concurrency | creates/s | welcome statements per create | subscriber state | log reads | user reads | other | emails sent by the last answer | last email after it (ms) |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const c of args.concurrency.split(',').map(Number)) {
  const r = await run(users, c);
  console.log(
    `| ${r.concurrency} | ${r.createsPerSecond} | ${r.welcomePerCreate} | ${r.subscriberState} | ${r.logReads} | ${r.userReads} | ${r.other} | ${r.sentByLastAnswer} | ${r.lastEmailAfterLastAnswerMs} |`,
  );
}
