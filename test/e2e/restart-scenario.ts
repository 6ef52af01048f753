import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createUser,
  failuresByKey,
  killAll,
  listUsers,
  readMail,
  scratch,
  setActive,
  sleep,
  tally,
  type ServerProcess,
  type SeenUser,
  spawnServer,
} from './harness.js';

/** What a backend gives the scenario: the environment of every process, and its cleanup. */
export interface ScenarioBackend {
  /** The store's variables (SCIMKIT_DATA_DIR or DATABASE_URL ...) for a scratch folder. */
  env(dir: string): Record<string, string>;
  /** True for PGlite: a second process must not open the same data folder. */
  readonly singleProcess?: boolean;
  /** Drops what the backend made outside the scratch folder. */
  cleanup(): Promise<void>;
}

// Generous for a busy machine: PGlite's first start in an empty folder alone can take 20 s there.
const RESTART_MS = 90_000;
/** Does what the activation page's button does: posts the link's token. */
const activate = (link: string) =>
  fetch(new URL('/activate', link), {
    method: 'POST',
    body: new URLSearchParams({ token: new URL(link).searchParams.get('token') ?? '' }),
  });
const names = (users: readonly SeenUser[]) => users.map((u) => `${u.userName}=${u.status}`);

/**
 * Declares the restart tests on one store, run in order on one data folder or database:
 * 1. users created, activated and deactivated by one process are all there, with their
 *    statuses, after a clean restart, and activation links mailed before it still work;
 * 2. a process killed (SIGKILL) after creating users but before their emails went out loses
 *    none: the next process, whose mailer fails each email's first three attempts, delivers
 *    each exactly once.
 */
export function restartScenario(backend: ScenarioBackend): void {
  // Made in the hook, not here: a skipped describe still runs this function, but no hook.
  let folder: ReturnType<typeof scratch> | undefined;
  let mailLog = '';
  const env = (extra: Record<string, string> = {}) => ({
    ...backend.env(folder!.dir),
    SCIMKIT_MAIL_LOG: mailLog,
    ...extra,
  });
  let first: SeenUser[] = [];
  let second: ServerProcess | undefined;

  beforeAll(() => {
    folder = scratch();
    mailLog = join(folder.dir, 'mail.jsonl');
  });
  afterAll(async () => {
    await killAll();
    await backend.cleanup();
    folder?.remove();
  });

  it(
    'keeps users and their statuses across a restart, and mailed activation links keep working',
    async () => {
      const one = await spawnServer(env());
      const made = await Promise.all([
        createUser(one.url, 'ada@example.org', true),
        createUser(one.url, 'bob@example.org', true),
        createUser(one.url, 'cy@example.org', true),
        createUser(one.url, 'dee@example.org', false),
      ]);
      const [ada, bob, cy] = made.map((m) => m.user!);
      await expect.poll(() => readMail(mailLog).length, { timeout: 10_000 }).toBe(3);
      const links = new Map(readMail(mailLog).map((line) => [line.userId, line.activationLink]));
      expect((await activate(links.get(ada!.id)!)).status).toBe(200);
      await setActive(one.url, bob!.id, false);
      first = await listUsers(one.url);
      expect(names(first)).toEqual([
        'ada@example.org=Activated',
        'bob@example.org=Deactivated',
        'cy@example.org=Invited',
        'dee@example.org=Pending',
      ]);
      expect(await one.stop()).toBe(0);

      // The next process holds each email for a minute, so it can be killed before sending.
      second = await spawnServer(
        env({ SCIMKIT_MAIL_DELAY_MS: '60000', SCIMKIT_MAIL_LEASE_MS: '1000' }),
      );
      expect(await listUsers(second.url)).toEqual(first);
      // The link was signed before the restart, for the old port: only the origin changes.
      const cyLink = new URL(links.get(cy!.id)!);
      const relinked = `${second.origin}${cyLink.pathname}${cyLink.search}`;
      expect((await activate(relinked)).status).toBe(200);
      // A used link stays used across the restart.
      const adaLink = new URL(links.get(ada!.id)!);
      expect((await activate(`${second.origin}${adaLink.pathname}${adaLink.search}`)).status).toBe(
        410,
      );
    },
    RESTART_MS,
  );

  it(
    'delivers, exactly once, the emails of a process killed between the write and the send',
    async () => {
      if (!second) throw new Error('needs the first test');
      const made = await Promise.all([
        createUser(second.url, 'eve@example.org', true),
        createUser(second.url, 'fay@example.org', true),
      ]);
      expect(made.map((m) => m.status)).toEqual([201, 201]);
      const ids = made.map((m) => m.user!.id);
      // The write is committed and the mailer holds an email: kill now.
      await expect.poll(() => second!.output(), { timeout: 10_000 }).toMatch(/held 60000 ms/);
      if (backend.singleProcess) {
        // A second process on the same data folder would corrupt it: it must refuse to start.
        await expect(spawnServer(env())).rejects.toThrow(/in use by process/);
      }
      await second.kill();
      expect(readMail(mailLog)).toHaveLength(3);

      const third = await spawnServer(
        env({
          SCIMKIT_MAIL_POLL_MS: '100',
          SCIMKIT_MAIL_RETRY_MS: '50',
          SCIMKIT_MAIL_FAIL_FIRST: '3',
        }),
      );
      const delivered = () => readMail(mailLog).filter((line) => ids.includes(line.userId));
      await expect.poll(() => delivered().length, { timeout: 15_000 }).toBe(2);
      // Several more poll rounds and retry delays: nothing may be sent a second time.
      await sleep(1000);
      const lines = readMail(mailLog);
      expect(lines).toHaveLength(5);
      expect([...tally(lines.map((l) => l.idempotencyKey)).values()]).toEqual([1, 1, 1, 1, 1]);
      expect([...tally(lines.map((l) => l.userId)).values()]).toEqual([1, 1, 1, 1, 1]);
      const failures = failuresByKey(third.output());
      for (const line of delivered()) expect(failures.get(line.idempotencyKey)).toBe(3);

      expect(names(await listUsers(third.url))).toEqual([
        'ada@example.org=Activated',
        'bob@example.org=Deactivated',
        'cy@example.org=Activated',
        'dee@example.org=Pending',
        'eve@example.org=Invited',
        'fay@example.org=Invited',
      ]);
      expect(await third.stop()).toBe(0);
    },
    RESTART_MS,
  );
}
