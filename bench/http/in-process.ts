// In-process companion of the HTTP benchmark: the cost of `scim.handle()` alone per operation,
// without sockets or a load generator, so a change in the core shows above the machine's noise.
// Run twice per operation: with the reference `staticApiKeys` verifier (as the example server)
// and with a plain Map lookup, to show what API-key hashing costs per request.
//
//   node --import tsx bench/http/in-process.ts [--iterations 20000] [--ops get,patch] [--verifiers static,map]
import { parseArgs } from 'node:util';
import {
  createScim,
  staticApiKeys,
  type ApiKeyVerifier,
  type ScimRequest,
} from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { newUserBody } from './operations.js';

const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    ops: { type: 'string' },
    verifiers: { type: 'string', default: 'static,map' },
  },
});
const iterations = Number(args.iterations);
const rounds = Number(args.rounds);
const token = 'bench-token-0123456789';
const basePath = '/api/v1/scim/v2';
const baseUrl = 'http://127.0.0.1:8080';
const headers = {
  host: '127.0.0.1:8080',
  authorization: `Bearer ${token}`,
  'content-type': 'application/scim+json',
};
const mapVerifier: ApiKeyVerifier = { verify: async (t) => (t === token ? { id: 'bench' } : null) };

function check(response: { status: number; body: string | undefined }): void {
  if (response.status >= 300)
    throw new Error(`unexpected ${response.status}: ${response.body ?? ''}`);
}

async function measure(verifierName: string, verifier: ApiKeyVerifier): Promise<void> {
  const scim = createScim({
    store: new MemoryUserStore(),
    verifier,
    mailer: { async sendWelcome() {} },
    basePath,
  });
  const request = (method: string, path: string, query: string, body?: string): ScimRequest =>
    body === undefined
      ? { method, path, query, headers, baseUrl }
      : { method, path, query, headers, baseUrl, body };
  const ids: string[] = [];
  const userNames: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const userName = `pre-${i}@bench.example.org`;
    const response = await scim.handle(
      request('POST', `${basePath}/Users`, '', newUserBody(userName)),
    );
    ids.push((JSON.parse(response.body ?? '{}') as { id: string }).id);
    userNames.push(userName);
  }
  let created = 0;
  const slug = verifierName.replace(/\W/g, '-');
  const active = new Map<string, boolean>();
  const ops: Record<string, (i: number) => ScimRequest> = {
    create: () =>
      request(
        'POST',
        `${basePath}/Users`,
        '',
        newUserBody(`ip-${slug}-${created++}@bench.example.org`),
      ),
    'get by id': (i) => request('GET', `${basePath}/Users/${ids[i % ids.length]}`, ''),
    'filter userName': (i) =>
      request(
        'GET',
        `${basePath}/Users`,
        `filter=${encodeURIComponent(`userName eq "${userNames[i % userNames.length]}"`)}`,
      ),
    'list page of 100': (i) =>
      request('GET', `${basePath}/Users`, `count=100&startIndex=${(i % 9) * 100 + 1}`),
    'patch active': (i) => {
      const id = ids[i % ids.length] as string;
      const value = !(active.get(id) ?? false);
      active.set(id, value);
      const body = JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value }],
      });
      return request('PATCH', `${basePath}/Users/${id}`, '', body);
    },
  };
  for (const [name, make] of Object.entries(ops)) {
    if (args.ops && !args.ops.split(',').some((o) => name.includes(o.trim()))) continue;
    const n = name.startsWith('list') ? Math.max(1, iterations / 20) : iterations;
    const samples: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      // CPU time, not wall time: on a shared machine the process is often descheduled.
      const start = process.cpuUsage();
      // Ten in flight at a time, like ten HTTP connections.
      for (let i = 0; i < n; i += 10) {
        const batch: Promise<unknown>[] = [];
        for (let j = i; j < i + 10 && j < n; j++) batch.push(scim.handle(make(j)).then(check));
        await Promise.all(batch);
      }
      const used = process.cpuUsage(start);
      const us = (used.user + used.system) / n;
      if (round > 0) samples.push(us); // round 0 warms up
    }
    samples.sort((a, b) => a - b);
    console.log(
      `${verifierName.padEnd(14)} ${name.padEnd(18)} ${(samples[samples.length >> 1] ?? NaN).toFixed(1).padStart(7)} µs CPU/request (median of ${rounds})`,
    );
  }
  await scim.close();
}

const verifiers = args.verifiers.split(',');
if (verifiers.includes('static'))
  await measure('staticApiKeys', staticApiKeys([{ key: token, tenant: 'bench' }]));
if (verifiers.includes('map')) await measure('Map verifier', mapVerifier);
