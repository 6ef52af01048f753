// Migration 11 moves the welcome-email outbox into the welcome subscriber's state: every email
// not sent yet is sent once by a service with a mailer, under the idempotency key it had (the
// row's id); one that failed for good is a dead letter with its error; the outbox goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys, type WelcomeEmail } from '../../../src/index.js';
import { applyMigrations } from '../../../src/stores/postgres/migrate.js';
import { migrations } from '../../../src/stores/postgres/migrations.js';
import { PostgresUserStore } from '../../../src/stores/postgres/index.js';
import { backends, makeUser, type Backend } from './harness.js';

const upTo = (version: number) => migrations.filter((m) => m.version <= version);

/** An outbox row as the outbox store left it, by its delivery state. */
interface Row {
  readonly id: string;
  readonly tenant: string;
  readonly userId: string;
  readonly to: string;
  readonly givenName?: string;
  readonly state: 'due' | 'retrying' | 'leased' | 'failed' | 'sent';
}

describe.each(backends)(
  'the outbox moved to the welcome subscriber (migration 11) on $name',
  ({ open }) => {
    let backend: Backend;
    beforeAll(async () => {
      backend = await open();
    }, 60_000);
    afterAll(() => backend?.close());

    it('sends the unsent emails once under their old ids and keeps the failed one as a dead letter', async () => {
      const schema = `${backend.schema}_m11`;
      const { executor } = backend;
      await applyMigrations(executor, { schema }, upTo(10));
      const before = new PostgresUserStore({ executor, schema });
      const users = ['a', 'a', 'a', 'b', 'a', 'a'].map((tenant) => ({ tenant, user: makeUser() }));
      for (const { tenant, user } of users) await before.create(tenant, user);
      const [due, retrying, leased, failed, sent, deleted] = users;
      const rows: Row[] = [
        { ...row(due!, 'due'), givenName: 'Ada' },
        row(retrying!, 'retrying'),
        row(leased!, 'leased'),
        row(failed!, 'failed'),
        row(sent!, 'sent'),
        row(deleted!, 'due'),
      ];
      for (const r of rows) await insertRow(executor, schema, r);
      // A user deleted before delivery gets no email after the move either.
      await before.delete(deleted!.tenant, deleted!.user.id);

      const result = await applyMigrations(executor, { schema }, migrations);
      expect(result.applied[0]).toBe(11);
      const [outbox] = await executor.query<{ t: string | null }>(
        `SELECT to_regclass('"${schema}".outbox')::text AS t`,
      );
      expect(outbox?.t).toBeNull();

      const emails: WelcomeEmail[] = [];
      const store = new PostgresUserStore({ executor, schema });
      const scim = createScim({
        store,
        auth: { verifier: staticApiKeys([{ key: 'k', tenant: 'a' }]) },
        mail: { mailer: { sendWelcome: async (email) => void emails.push(email) } },
      });
      try {
        await scim.mail?.drain();
        await scim.mail?.drain();
        const byKey = (a: WelcomeEmail, b: WelcomeEmail) =>
          a.idempotencyKey < b.idempotencyKey ? -1 : 1;
        const expected = [rows[0]!, rows[1]!, rows[2]!].map((r) => ({
          id: r.id,
          idempotencyKey: r.id,
          tenant: r.tenant,
          userId: r.userId,
          to: r.to,
          kind: 'welcome',
          ...(r.givenName === undefined ? {} : { givenName: r.givenName }),
        }));
        expect(emails.sort(byKey)).toEqual(
          expected
            .sort((a, b) => (a.id < b.id ? -1 : 1))
            .map((e) => ({ ...e, createdAt: CREATED })),
        );
        const letters = await scim.mail?.deadLetters();
        expect(letters?.map((l) => [l.event.id, l.tenant, l.state, l.error, l.attempts])).toEqual([
          [rows[3]!.id, 'b', 'dead', 'no such mailbox', 8],
        ]);
      } finally {
        await scim.close();
        await executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
    });
  },
);

const CREATED = '2025-03-04T05:06:07.089Z';

function row(
  entry: { tenant: string; user: { id: string; userName: string } },
  state: Row['state'],
): Row {
  const { tenant, user } = entry;
  return { id: `welcome-${user.id}`, tenant, userId: user.id, to: user.userName, state };
}

// Inserts an outbox row as the outbox store wrote and updated it.
async function insertRow(executor: Backend['executor'], schema: string, r: Row): Promise<void> {
  const payload = {
    id: r.id,
    kind: 'welcome',
    tenant: r.tenant,
    userId: r.userId,
    to: r.to,
    createdAt: CREATED,
    ...(r.givenName === undefined ? {} : { givenName: r.givenName }),
  };
  const future = '2999-01-01T00:00:00Z';
  const states = {
    due: { attempts: 0, due: CREATED },
    retrying: { attempts: 2, due: future, error: 'SMTP 451' },
    leased: { attempts: 0, due: CREATED, lease: future, token: 'held' },
    failed: { attempts: 8, due: CREATED, error: 'no such mailbox', failed: CREATED },
    sent: { attempts: 0, due: CREATED, sent: CREATED },
  } as const;
  const s: {
    attempts: number;
    due: string;
    error?: string;
    lease?: string;
    token?: string;
    failed?: string;
    sent?: string;
  } = states[r.state];
  await executor.query(
    `INSERT INTO "${schema}".outbox (id, tenant, user_id, kind, payload, created_at, due_at,
       attempts, lease_until, sent_at, failed_at, last_error, claim_token)
     VALUES ($1, $2, $3, 'welcome', $4::jsonb, $5::timestamptz, $6::timestamptz, $7,
       $8::timestamptz, $9::timestamptz, $10::timestamptz, $11, $12)`,
    [
      r.id,
      r.tenant,
      r.userId,
      JSON.stringify(payload),
      CREATED,
      s.due,
      s.attempts,
      s.lease ?? null,
      s.sent ?? null,
      s.failed ?? null,
      s.error ?? null,
      s.token ?? null,
    ],
  );
}
