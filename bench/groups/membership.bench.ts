/**
 * Membership at scale (issue 13 item 5): adding or removing one member, reading a group
 * without its members and a user's groups, for groups of 10, 10,000 and 100,000 members side by
 * side in one run, on the memory store, PGlite, and a PostgreSQL server when
 * SCIMKIT_TEST_DATABASE_URL or DATABASE_URL is set. Medians; the sizes of one operation are
 * timed interleaved (10, 10k, 100k, 10, ...) so load hits them alike.
 *
 *   node --import tsx bench/groups/membership.bench.ts [--rounds 300] [--budget-ms 8000]
 */
import type { UserStore } from '../../src/contracts/user-store.js';
import { compareInterleaved, median } from '../postgres/measure.js';
import {
  numberArg,
  onEveryLoadedStore,
  printSizeTable,
  type Fixture,
} from './membership-fixtures.js';

const ROUNDS = numberArg('--rounds', 300);
const BUDGET_MS = numberArg('--budget-ms', 8_000);

/** Times the operations across the sizes and prints one markdown table. */
async function measure(name: string, store: UserStore, fixtures: readonly Fixture[]) {
  const groups = store.groups;
  if (!groups) throw new Error(`${name} has no groups`);
  const operations: [string, (f: Fixture) => Promise<unknown>][] = [
    [
      'add one member + remove it',
      async (f) => {
        await groups.addMembers(f.tenant, f.groupId, [{ value: f.joiner }]);
        await groups.removeMembers(f.tenant, f.groupId, [f.joiner]);
      },
    ],
    ['get without members', (f) => groups.get(f.tenant, f.groupId, { members: false })],
    ['groupsOf(member)', (f) => groups.groupsOf(f.tenant, f.member)],
  ];
  const rows: [string, number[]][] = [];
  for (const [label, run] of operations) {
    const times = await compareInterleaved(
      fixtures.map((f) => () => run(f)),
      ROUNDS,
      BUDGET_MS,
    );
    rows.push([label, times.map((t) => median(t))]);
  }
  printSizeTable(name, rows);
}

console.log(`rounds ${ROUNDS}, at most ${BUDGET_MS} ms per operation; medians`);
await onEveryLoadedStore(measure);
