import { afterAll, describe, expect, it } from 'vitest';
import {
  createScim,
  staticApiKeys,
  type Scim,
  type SendOptions,
  type UserStore,
  type WelcomeEmail,
} from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresUserStore } from '../../src/stores/postgres/index.js';
import { openPglite, openServer, databaseUrl, type Backend } from '../stores/postgres/harness.js';

// Two instances on one store, both polling, and a mail provider slow enough that one tenant's
// emails take several leases to send one after another: the instance holding the tenant
// renews its claim between emails, so the other never sends one of them too.
const USERS = 8;
const MAIL_MS = 300;
const TIMEOUT_MS = 400;
const LEASE_MS = 2 * TIMEOUT_MS;
const POLL_MS = 50;

/** A mail provider that takes MAIL_MS per email and records what it delivered. */
function slowProvider() {
  const delivered: WelcomeEmail[] = [];
  const mailer = {
    async sendWelcome(email: WelcomeEmail, options?: SendOptions) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, MAIL_MS);
        // A provider call that is cut short delivers nothing.
        options?.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(options.signal.reason);
        });
      });
      delivered.push(email);
    },
  };
  return { mailer, delivered };
}

function instance(
  store: UserStore,
  mailer: ReturnType<typeof slowProvider>['mailer'],
  errors: unknown[],
): Scim {
  return createScim({
    store,
    verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
    mailer,
    mail: {
      delivery: {
        leaseMs: LEASE_MS,
        timeoutMs: TIMEOUT_MS,
        pollIntervalMs: POLL_MS,
        backoff: { initialMs: 50 },
      },
    },
    onError: (error) => errors.push(error),
  });
}

async function createActive(scim: Scim, userName: string): Promise<string> {
  const response = await scim.handle({
    method: 'POST',
    path: '/Users',
    query: '',
    headers: { authorization: 'Bearer k', 'content-type': 'application/scim+json' },
    body: JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName,
      active: true,
    }),
    baseUrl: 'http://127.0.0.1',
  });
  expect(response.status).toBe(201);
  return (JSON.parse(response.body!) as { id: string }).id;
}

/** Two instances on one store: every user gets exactly one welcome email. */
async function exactlyOnce(storeA: UserStore, storeB: UserStore): Promise<void> {
  const { mailer, delivered } = slowProvider();
  const errors: unknown[] = [];
  const a = instance(storeA, mailer, errors);
  const b = instance(storeB, mailer, errors);
  try {
    const ids: string[] = [];
    for (let i = 0; i < USERS; i++) {
      ids.push(await createActive(i % 2 ? b : a, `pupil${i}@example.org`));
    }
    await expect
      .poll(() => new Set(delivered.map((e) => e.userId)).size, { timeout: 30_000 })
      .toBe(USERS);
    // Past several leases and polls: a second delivery of any email would have started.
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS + MAIL_MS));
    const perUser = new Map<string, number>();
    for (const e of delivered) perUser.set(e.userId, (perUser.get(e.userId) ?? 0) + 1);
    expect(
      [...perUser].filter(([, n]) => n > 1),
      'users with more than one email',
    ).toEqual([]);
    expect([...perUser.keys()].sort()).toEqual([...ids].sort());
    expect(new Set(delivered.map((e) => e.idempotencyKey)).size).toBe(USERS);
    // A claim can only be lost to an event-loop stall longer than the lease (a loaded test
    // machine), which is reported. Any other error is a fault.
    expect(errors.filter((e) => (e as Error).name !== 'SubscriptionClaimLost')).toEqual([]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

describe('welcome emails with two instances on one store and a tenant slower to send than a lease', () => {
  const opened: Backend[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((backend) => backend.close()));
  });

  it('sends each email exactly once on a shared memory store', async () => {
    const store = new MemoryUserStore();
    await exactlyOnce(store, store);
  }, 60_000);

  it('sends each email exactly once on one PGlite database', async () => {
    const backend = await openPglite();
    opened.push(backend);
    await exactlyOnce(backend.newStore(), backend.newStore());
  }, 90_000);

  it.skipIf(!databaseUrl)(
    'sends each email exactly once on a PostgreSQL server, each instance with its own pool',
    async () => {
      const backend = await openServer(databaseUrl ?? '');
      opened.push(backend);
      const store = (executor: Backend['executor']) =>
        new PostgresUserStore({ executor, schema: backend.schema, migrate: true });
      await exactlyOnce(store(backend.executor), store(backend.other));
    },
    60_000,
  );
});
