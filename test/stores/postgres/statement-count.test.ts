// How many statements and round trips each SCIM operation sends to PostgreSQL, measured through
// the whole service (createScim over PostgresUserStore) by wrapping the store's executor, and
// held to the table in docs/postgres.md: an operation that sends more than the table says fails,
// and so does one that sends fewer until the table says so.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys, type Scim } from '../../../src/index.js';
import {
  PostgresUserStore,
  type QueryExecutor,
  type QueryOptions,
  type Row,
  type TransactionOptions,
} from '../../../src/stores/postgres/index.js';
import { backends, type Backend } from './harness.js';

/** What one operation sent. */
interface Sent {
  /** The SQL of each statement, in order. */
  readonly statements: string[];
  /** Statements plus the `BEGIN` and `COMMIT` of each transaction. */
  roundTrips: number;
}

/**
 * Wraps an executor so that each statement is recorded: a transaction costs its `BEGIN` and
 * `COMMIT` round trips besides its statements (pgExecutor sends a statement timeout in the
 * same round trip as `BEGIN`), a nested one joins the outer one and costs nothing.
 */
function counting(inner: QueryExecutor, sent: () => Sent, nested = false): QueryExecutor {
  return {
    query<R = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      sent().statements.push(sql);
      sent().roundTrips += 1;
      return inner.query<R>(sql, params, options);
    },
    transaction<T>(fn: (tx: QueryExecutor) => Promise<T>, options?: TransactionOptions) {
      if (!nested) sent().roundTrips += 2;
      return inner.transaction((tx) => fn(counting(tx, sent, true)), options);
    },
  };
}

/** One row of the table in docs/postgres.md. */
interface Documented {
  readonly statements: number;
  readonly roundTrips: number;
}

/** Reads the table of statements per operation from docs/postgres.md, by operation name. */
function documentedCounts(): Map<string, Documented> {
  const doc = readFileSync(new URL('../../../docs/postgres.md', import.meta.url), 'utf8');
  const section = doc.split('<!-- statement-counts -->')[1];
  if (section === undefined) throw new Error('docs/postgres.md: no statement-counts table');
  const counts = new Map<string, Documented>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const [, name, statements, roundTrips] = cells;
    if (!name || !/^\d+$/.test(statements ?? '') || !/^\d+$/.test(roundTrips ?? '')) continue;
    counts.set(name.replace(/`/g, ''), {
      statements: Number(statements),
      roundTrips: Number(roundTrips),
    });
  }
  return counts;
}

const TOKEN = 'count-token';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/scim+json' };
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

for (const { name, open } of backends) {
  describe(`statements per operation (${name})`, () => {
    let backend: Backend;
    let scim: Scim;
    let current: Sent = { statements: [], roundTrips: 0 };
    const documented = documentedCounts();
    const measured = new Map<string, Sent>();
    let sequence = 0;

    const request = async (method: string, target: string, body?: unknown) => {
      const [path = target, query] = target.split('?');
      const response = await scim.handle({
        method,
        path,
        ...(query === undefined ? {} : { query }),
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: JSON.parse(response.body || 'null') as Row };
    };
    /** Runs `step` alone and records what it sent under `operation`. */
    const measure = async <T>(operation: string, step: () => Promise<T>): Promise<T> => {
      current = { statements: [], roundTrips: 0 };
      const result = await step();
      measured.set(operation, current);
      // What runs between measurements is not anyone's.
      current = { statements: [], roundTrips: 0 };
      return result;
    };
    const newUser = () => {
      sequence += 1;
      return {
        schemas: [USER_SCHEMA],
        userName: `count${sequence}@example.org`,
        active: true,
        name: { givenName: `Given${sequence}`, familyName: 'Family' },
      };
    };

    beforeAll(async () => {
      backend = await open();
      const executor = counting(backend.executor, () => current);
      const store = new PostgresUserStore({ executor, schema: backend.schema });
      await store.migrate();
      scim = createScim({
        store,
        verifier: staticApiKeys([{ key: TOKEN, tenant: 't-count' }]),
        userNameRule: 'email',
      });
      // A tenant with users and a group, as a directory in use; each is read once so that
      // the first-use work (a connection's session settings) is not counted below.
      for (let i = 0; i < 3; i++)
        expect((await request('POST', '/Users', newUser())).status).toBe(201);
      await request('GET', '/Users?count=2');
    }, 60_000);
    afterAll(async () => {
      await backend?.close();
    });

    it('sends what docs/postgres.md lists for each operation', async () => {
      const created = await measure('create', () => request('POST', '/Users', newUser()));
      expect(created.status).toBe(201);
      const id = created.body?.['id'] as string;
      const userName = created.body?.['userName'] as string;

      expect((await measure('get', () => request('GET', `/Users/${id}`))).status).toBe(200);
      const filter = encodeURIComponent(`userName eq "${userName}"`);
      const found = await measure('filter', () => request('GET', `/Users?filter=${filter}`));
      expect(found.body?.['totalResults']).toBe(1);
      const page = await measure('list page', () => request('GET', '/Users?startIndex=1&count=2'));
      expect(page.body?.['totalResults']).toBe(4);

      const patch = {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Changed' }],
      };
      expect((await measure('patch', () => request('PATCH', `/Users/${id}`, patch))).status).toBe(
        200,
      );
      const put = { ...newUser(), userName };
      expect((await measure('put', () => request('PUT', `/Users/${id}`, put))).status).toBe(200);

      const group = await measure('group create', () =>
        request('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'G' }),
      );
      expect(group.status).toBe(201);
      const groupId = group.body?.['id'] as string;
      const add = {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }],
      };
      const added = await measure('group member add', () =>
        request('PATCH', `/Groups/${groupId}`, add),
      );
      expect(added.status).toBe(204);
      const groupRead = await measure('group get', () => request('GET', `/Groups/${groupId}`));
      expect(groupRead.body?.['members']).toHaveLength(1);
      // A member's GET shows the group it is in: the `groups` read is part of the count.
      const member = await measure('get (in a group)', () => request('GET', `/Users/${id}`));
      expect(member.body?.['groups']).toHaveLength(1);
      // A group in a group: the indirect groups take a read of their own.
      const parent = await request('POST', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: 'Parent',
        members: [{ value: groupId }],
      });
      expect(parent.status).toBe(201);
      const nested = await measure('get (in a nested group)', () => request('GET', `/Users/${id}`));
      const shown = (nested.body?.['groups'] as Row[]).map((g) => [g['value'], g['type']]);
      expect(shown).toEqual([
        [groupId, 'direct'],
        [parent.body?.['id'], 'indirect'],
      ]);

      expect((await measure('delete', () => request('DELETE', `/Users/${id}`))).status).toBe(204);

      const report = [...measured].map(([operation, sent]) => ({
        operation,
        statements: sent.statements.length,
        roundTrips: sent.roundTrips,
      }));
      const expected = report.map(({ operation }) => ({
        operation,
        statements: documented.get(operation)?.statements,
        roundTrips: documented.get(operation)?.roundTrips,
      }));
      expect(report, JSON.stringify([...measured], null, 1)).toEqual(expected);
    });
  });
}
