/**
 * Membership at scale over HTTP (issue 13 item 5): the requests Entra ID and Okta send, through
 * `scim.handle` in-process (routing, auth, body parsing, PATCH translation, the store, the
 * response), for groups of 10, 10,000 and 100,000 members side by side in one run, on the
 * memory store, PGlite, and a PostgreSQL server when SCIMKIT_TEST_DATABASE_URL or DATABASE_URL
 * is set: PATCH add one member, PATCH remove one member (`members[value eq "<id>"]`), and
 * GET with `excludedAttributes=members`. Medians; the sizes are timed interleaved (10, 10k,
 * 100k, 10, ...) so load hits them alike. Prints the load average before and after.
 *
 *   npm run bench:groups -- [--rounds 200] [--budget-ms 6000]
 */
import { loadavg } from 'node:os';
import type { UserStore } from '../../src/contracts/user-store.js';
import { createScim, staticApiKeys, type ScimRequest } from '../../src/index.js';
import { compareInterleaved, median } from '../postgres/measure.js';
import {
  numberArg,
  onEveryLoadedStore,
  printSizeTable,
  type Fixture,
} from './membership-fixtures.js';

const ROUNDS = numberArg('--rounds', 200);
const BUDGET_MS = numberArg('--budget-ms', 6_000);
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

async function measure(name: string, store: UserStore, fixtures: readonly Fixture[]) {
  const scim = createScim({
    store,
    verifier: staticApiKeys(fixtures.map((f) => ({ key: f.tenant, tenant: f.tenant }))),
    mailer: { sendWelcome: async () => undefined },
  });
  const send = async (f: Fixture, want: number, request: Partial<ScimRequest>) => {
    const headers: Record<string, string> = { authorization: `Bearer ${f.tenant}` };
    if (request.body !== undefined) headers['content-type'] = 'application/scim+json';
    const reply = await scim.handle({
      method: 'GET',
      path: `/Groups/${f.groupId}`,
      query: '',
      headers,
      baseUrl: 'http://localhost',
      ...request,
    });
    if (reply.status !== want) throw new Error(`${name}: ${reply.status} ${reply.body}`);
  };
  const patch = (...operations: unknown[]) =>
    JSON.stringify({ schemas: [PATCH_OP], Operations: operations });
  const add = (f: Fixture) =>
    send(f, 204, {
      method: 'PATCH',
      body: patch({ op: 'add', path: 'members', value: [{ value: f.joiner }] }),
    });
  const remove = (f: Fixture) =>
    send(f, 204, {
      method: 'PATCH',
      body: patch({ op: 'remove', path: `members[value eq "${f.joiner}"]` }),
    });
  const get = (f: Fixture) => send(f, 200, { query: 'excludedAttributes=members' });

  // Add and remove alternate within a round, so each add finds the joiner out of the group.
  const changes = await compareInterleaved(
    fixtures.flatMap((f) => [() => add(f), () => remove(f)]),
    ROUNDS,
    BUDGET_MS,
  );
  const reads = await compareInterleaved(
    fixtures.map((f) => () => get(f)),
    ROUNDS,
    BUDGET_MS,
  );
  const medians = (times: number[][], from: number, step: number) =>
    fixtures.map((_, i) => median(times[from + i * step] ?? []));
  const rounds = `${changes[0]?.length ?? 0} rounds of changes, ${reads[0]?.length ?? 0} of reads`;
  printSizeTable(`${name}, over HTTP (scim.handle); ${rounds}`, [
    ['PATCH add one member', medians(changes, 0, 2)],
    ['PATCH remove one member', medians(changes, 1, 2)],
    ['GET excludedAttributes=members', medians(reads, 0, 1)],
  ]);
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
console.log(`rounds ${ROUNDS}, at most ${BUDGET_MS} ms per table; medians`);
console.log(`load average (1 / 5 / 15 min) before: ${load()}`);
await onEveryLoadedStore(measure);
console.log(`\nload average after: ${load()}`);
