/**
 * Measures POST/PUT body validation on a typical Entra ID POST body: the frozen hand-written
 * validator (the first one scimkit had), the current `validateResourceInput` (one walk over the
 * compiled value rules, the same for every body), the same body with its names in other letter
 * cases, and, for scale, a whole `POST /Users` through `scim.handle` on the memory store. The
 * last line estimates how much the core's request path changed: (current − baseline) / whole
 * POST.
 *
 * Run: `node --import tsx bench/schema/validate-user.bench.ts`
 */
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { Bench } from 'tinybench';
import { createScim, staticApiKeys } from '../../src/index.js';
import { compileResourceInput } from '../../src/schema/compile-resource-input.js';
import { validateResourceInput } from '../../src/schema/validate-resource-input.js';
import { accountSchema, enterpriseUserSchema, userSchema } from '../../src/schema/user-schema.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { validateUserInput as baselineValidate } from './baseline-validate-user.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const schemas = [userSchema, enterpriseUserSchema, accountSchema];
const compiled = compileResourceInput(schemas);

/** A POST body as Entra ID sends it when it provisions a user with the default mappings. */
const entraPost = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE],
  externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
  userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@contoso.com',
  active: 'True',
  displayName: 'Test User',
  title: 'Manager',
  preferredLanguage: 'en-US',
  meta: { resourceType: 'User' },
  name: { formatted: 'Test User', familyName: 'User', givenName: 'Test' },
  emails: [{ primary: true, type: 'work', value: 'Test_User_ab6490ee@contoso.com' }],
  phoneNumbers: [
    { type: 'work', value: '+1 425 555 0100' },
    { type: 'mobile', value: '+1 425 555 0101' },
    { type: 'fax', value: null },
  ],
  addresses: [
    {
      type: 'work',
      formatted: '1 Microsoft Way, Redmond, WA 98052, US',
      streetAddress: '1 Microsoft Way',
      locality: 'Redmond',
      region: 'WA',
      postalCode: '98052',
      country: 'US',
      primary: false,
    },
  ],
  roles: [],
  [ENTERPRISE]: {
    employeeNumber: '701984',
    department: 'Tour Operations',
    costCenter: null,
    manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' },
  },
};

// Both validators must agree before their speed means anything.
// (Key order may differ: the compiled schemas emit attributes in definition order.)
if (
  !isDeepStrictEqual(
    validateResourceInput(entraPost, compiled),
    baselineValidate(entraPost, schemas),
  )
) {
  throw new Error('validateResourceInput and the baseline disagree on the Entra ID body');
}

// The same body as a client that spells names its own way sends it.
const { userName, displayName, name, ...rest } = entraPost;
const otherCases = { ...rest, USERNAME: userName, DisplayName: displayName, NAME: name };
if (validateResourceInput(otherCases, compiled).attributes.userName !== userName) {
  throw new Error('validateResourceInput did not read the names in other letter cases');
}

const scim = createScim({
  store: new MemoryUserStore(),
  verifier: staticApiKeys([{ key: 'bench-key', tenant: 'bench' }]),
  mailer: { async sendWelcome() {} },
});
let n = 0;
const headers = { authorization: 'Bearer bench-key', 'content-type': 'application/scim+json' };

const bench = new Bench({ time: 1500, warmupTime: 500 });
bench.add('baseline (hand-written, before)', () => void baselineValidate(entraPost, schemas));
bench.add('validateResourceInput (current)', () => void validateResourceInput(entraPost, compiled));
bench.add(
  'validateResourceInput, names in other cases',
  () => void validateResourceInput(otherCases, compiled),
);
bench.add('POST /Users through scim.handle', async () => {
  const body = JSON.stringify({ ...entraPost, userName: `user${n++}@contoso.com` });
  const reply = await scim.handle({
    method: 'POST',
    path: '/Users',
    query: '',
    headers,
    body,
    baseUrl: 'https://h',
  });
  if (reply.status !== 201) throw new Error(`POST answered ${reply.status}: ${String(reply.body)}`);
});
await bench.run();

const median = (name: string) => {
  const task = bench.tasks.find((t) => t.name === name);
  const latency = task?.result && 'latency' in task.result ? task.result.latency : undefined;
  if (!latency) throw new Error(`no result for ${name}`);
  return latency.p50 ?? latency.mean;
};
const before = median('baseline (hand-written, before)');
const after = median('validateResourceInput (current)');
const post = median('POST /Users through scim.handle');
console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'}`);
console.table(
  bench.tasks.map((t) => ({ task: t.name, 'median µs': (median(t.name) * 1000).toFixed(2) })),
);
console.log(`validation: current/baseline = ${(after / before).toFixed(2)}×`);
console.log(
  `POST /Users path change ≈ ${(((after - before) / post) * 100).toFixed(1)}% of a whole POST`,
);
