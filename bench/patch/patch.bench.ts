/**
 * Compares scimkit's PatchOp engine with scim-patch (`scimPatch`) in one run, on the same
 * operations applied to the same stored user.
 *
 * Both engines work on a copy and leave the input untouched: scim-patch runs with
 * `mutateDocument: false` (its default edits the input in place, which is neither atomic nor
 * repeatable) and `treatMissingAsAdd: true` (its default), after `patchBodyValidation`, since
 * scimkit's `applyPatch` validates the message too.
 *
 * Run: `node --import tsx bench/patch/patch.bench.ts`
 */
import os from 'node:os';
import {
  patchBodyValidation,
  scimPatch,
  type ScimPatchOperation,
  type ScimResource,
} from 'scim-patch';
import { Bench } from 'tinybench';
import { applyPatch } from '../../src/patch/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';

const options = { resourceType: userResourceType() };
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A stored user of realistic size: every attribute an IdP typically provisions. */
const user = {
  schemas: [
    'urn:ietf:params:scim:schemas:core:2.0:User',
    'urn:scimkit:params:scim:schemas:extension:account:2.0:User',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  ],
  id: '0192f1c4-aaaa-7000-8000-000000000001',
  externalId: '5e1c3b1d-8f2a-4c4e-9d6b-2a7f1e0c9b11',
  userName: 'bjensen@example.com',
  name: {
    formatted: 'Ms. Barbara J Jensen III',
    familyName: 'Jensen',
    givenName: 'Barbara',
    middleName: 'Jane',
  },
  displayName: 'Babs Jensen',
  title: 'Tour Guide',
  active: true,
  emails: [
    { value: 'bjensen@example.com', type: 'work', primary: true },
    { value: 'babs@jensen.org', type: 'home' },
  ],
  phoneNumbers: [{ value: '555-555-5555', type: 'work' }],
  roles: [{ value: 'reader' }, { value: 'editor' }],
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': {
    employeeNumber: '701984',
    department: 'Tour Operations',
  },
  'urn:scimkit:params:scim:schemas:extension:account:2.0:User': { status: 'Activated' },
  meta: {
    resourceType: 'User',
    created: '2026-01-01T00:00:00Z',
    lastModified: '2026-01-01T00:00:00Z',
    version: 'W/"3"',
  },
};

const SHAPES: Record<string, ScimPatchOperation[]> = {
  'replace active': [{ op: 'replace', path: 'active', value: false }],
  'replace name.givenName': [{ op: 'replace', path: 'name.givenName', value: 'Babs' }],
  'add to emails through a value filter': [
    { op: 'add', path: 'emails[type eq "other"].value', value: 'bj@other.example' },
  ],
  'path-less replace of an object': [
    {
      op: 'replace',
      value: {
        active: false,
        displayName: 'B. Jensen',
        name: { givenName: 'Babs', familyName: 'Jensen' },
      },
    },
  ],
};

const bench = new Bench({ time: 1500, warmupTime: 300 });
const results: { name: string; ours: string; theirs: string }[] = [];

for (const [label, operations] of Object.entries(SHAPES)) {
  const body = { schemas: [PATCH_OP], Operations: operations };
  const ours = applyPatch(user, body, options).resource;
  const theirs = scimPatch(user as unknown as ScimResource, operations, {
    mutateDocument: false,
    treatMissingAsAdd: true,
  });
  const same = JSON.stringify(ours) === JSON.stringify(theirs);
  console.log(`${label}: results ${same ? 'identical' : 'differ'}`);
  if (!same)
    console.log('  scimkit:   ', JSON.stringify(ours), '\n  scim-patch:', JSON.stringify(theirs));

  const a = `${label} · scimkit`;
  const b = `${label} · scim-patch`;
  bench.add(a, () => applyPatch(user, body, options));
  bench.add(b, () => {
    patchBodyValidation(body as Parameters<typeof patchBodyValidation>[0]);
    return scimPatch(user as unknown as ScimResource, operations, {
      mutateDocument: false,
      treatMissingAsAdd: true,
    });
  });
  results.push({ name: label, ours: a, theirs: b });
}

await bench.run();
console.table(bench.table());

const median = (name: string): number => {
  const result = bench.getTask(name)?.result;
  if (result?.state !== 'completed') throw new Error(`${name} did not complete`);
  return result.throughput.p50;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

console.log(
  `\n${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}) · Node ${process.version}\n`,
);
console.log('| shape | scimkit ops/s (median) | scim-patch ops/s (median) | ratio |');
console.log('|---|---:|---:|---:|');
for (const r of results) {
  const a = median(r.ours);
  const b = median(r.theirs);
  console.log(`| ${r.name} | ${fmt(a)} | ${fmt(b)} | ${(a / b).toFixed(2)}x |`);
}
