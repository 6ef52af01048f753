import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  databaseUrl,
  failuresByKey,
  freshSchema,
  killAll,
  listUsers,
  readMail,
  scratch,
  sleep,
  spawnServer,
  tally,
  type ServerProcess,
} from './harness.js';

const NAMES = Array.from({ length: 20 }, (_, i) => `pupil${i}@example.org`);

// Two processes share one database only on a PostgreSQL server (PGlite serves one process):
// set SCIMKIT_TEST_DATABASE_URL (.ci/run does) to run these.
describe.skipIf(!databaseUrl)('two example-server processes on one PostgreSQL database', () => {
  const url = databaseUrl ?? '';
  const { schema, drop } = freshSchema(url);
  let folder: ReturnType<typeof scratch> | undefined;
  let mailLog = '';
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    folder = scratch();
    mailLog = join(folder.dir, 'mail.jsonl');
    const env = {
      DATABASE_URL: url,
      SCIMKIT_DB_SCHEMA: schema,
      SCIMKIT_MAIL_LOG: mailLog,
      // Every email fails its first three attempts, in whichever process tries it.
      SCIMKIT_MAIL_FAIL_FIRST: '3',
      SCIMKIT_MAIL_RETRY_MS: '50',
      SCIMKIT_MAIL_POLL_MS: '200',
      SCIMKIT_MAIL_MAX_ATTEMPTS: '10',
      // 100 concurrent creates per process with one key: above the default per-key cap (32),
      // which would answer some of them 429; this test is about the writes, not the cap.
      SCIMKIT_MAX_REQUESTS_PER_KEY: '200',
    };
    // Both start at once, so both run the migrations at once on the empty schema.
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  }, 60_000);
  afterAll(async () => {
    await killAll();
    await drop();
    folder?.remove();
  });

  it('warns that activation links need a shared SCIMKIT_ACTIVATION_SECRET', () => {
    for (const server of [a, b]) {
      expect(server.output()).toMatch(/Store: PostgreSQL at .*schema "scimkit_e2e_/);
      expect(server.output()).toMatch(/SCIMKIT_ACTIVATION_SECRET is unset/);
    }
  });

  it('turns 200 concurrent creates of 20 userNames into 20 users and 20 welcome emails, each sent once despite three failed attempts', async () => {
    const attempts = Array.from({ length: 200 }, (_, i) => {
      const name = NAMES[i % 20]!;
      // Odd rounds send the names in upper case: uniqueness holds regardless of case.
      const userName = Math.floor(i / 20) % 2 ? name.toUpperCase() : name;
      return createUser(i % 2 ? b.url : a.url, userName, true);
    });
    const results = await Promise.all(attempts);
    const created = results.flatMap((r) => (r.user ? [r.user] : []));
    expect(created).toHaveLength(20);
    expect(tally(results.map((r) => `${r.status} ${r.scimType ?? ''}`))).toEqual(
      new Map([
        ['201 ', 20],
        ['409 uniqueness', 180],
      ]),
    );
    const stored = (await listUsers(a.url)).map((u) => u.userName.toLowerCase());
    expect(stored.sort()).toEqual([...NAMES].sort());
    expect(await listUsers(b.url)).toEqual(await listUsers(a.url));

    await expect.poll(() => readMail(mailLog).length, { timeout: 20_000 }).toBe(20);
    // Longer than several poll rounds and retry delays: a duplicate would show up by now.
    await sleep(1500);
    const lines = readMail(mailLog);
    expect(lines).toHaveLength(20);
    expect(new Set(lines.map((l) => l.idempotencyKey)).size).toBe(20);
    expect(new Set(lines.map((l) => l.userId))).toEqual(new Set(created.map((u) => u.id)));
    const failures = failuresByKey(a.output() + b.output());
    for (const line of lines) expect(failures.get(line.idempotencyKey)).toBeGreaterThanOrEqual(3);
    // Which process makes the final, successful attempt of each email is a race between their
    // welcome subscribers' polls, so the test asserts exactly-once delivery, not how the work was shared.
  }, 45_000);
});
