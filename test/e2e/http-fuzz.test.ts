// Generated hostile requests, sent over real HTTP to the example server on the
// memory store, on PGlite and (when SCIMKIT_TEST_DATABASE_URL is set) on PostgreSQL, never get
// a 5xx, and a refused request changes no user or group. Replay a failure with the printed size and
// seed: SCIMKIT_FUZZ_RUNS=… SCIMKIT_FUZZ_SEED=… npx vitest run test/e2e/http-fuzz.test.ts
import fc from 'fast-check';
import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyStore } from '../core/every-store.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { BASE, KEY_A, KEY_B, PATCH_SCHEMA, USER_SCHEMA } from '../core/harness.js';
import {
  ENTERPRISE,
  bodies,
  headerSets,
  hostileStrings,
  methods,
  patchBodies,
  paths,
  queries,
  text,
  userBodies,
  type Json,
} from '../core/request-generators.js';

const RUNS = Number(process.env['SCIMKIT_FUZZ_RUNS'] ?? 250);
const SEED = Number(process.env['SCIMKIT_FUZZ_SEED'] ?? Date.now() % 2 ** 31);
/** A request that takes longer than this has stalled the server. */
const REQUEST_TIMEOUT_MS = 15_000;

// ---------------------------------------------------------------- what goes on the wire

/** Text nobody should be able to store: NUL, lone surrogates, control characters, deep arrays. */
const issueStrings = fc.constantFrom(
  '\u0000',
  'a\u0000b@example.org',
  '\uD800',
  '\uDC00x',
  '\u0001@example.org',
  'ada\u007F@example.org',
  '\u0085',
  '\u{1F600}',
  'e\u0301',
  '\u202Eevil',
);
const issueBodies = fc.oneof(
  fc
    .tuple(fc.constantFrom('emails', 'roles', 'name', 'x', 'displayName', ENTERPRISE), fc.nat(6000))
    .map(
      ([attribute, depth]) =>
        `{"schemas":["${USER_SCHEMA}"],"userName":"deep@example.org","${attribute}":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    ),
  fc
    .tuple(fc.constantFrom('userName', 'displayName', 'title', 'externalId'), issueStrings)
    .map(([attribute, value]) => ({
      schemas: [USER_SCHEMA],
      userName: 'text@example.org',
      [attribute]: value,
    })),
  fc
    .tuple(
      fc.constantFrom('add', 'replace', 'remove'),
      fc.constantFrom('userName', 'displayName', 'emails', 'emails[type eq "work"].value', 'x'),
      issueStrings,
    )
    .map(([op, path, value]) => ({ schemas: [PATCH_SCHEMA], Operations: [{ op, path, value }] })),
  fc.constant(
    `{"schemas":["${PATCH_SCHEMA}"],"Operations":[{"op":"add","path":"emails[value eq \\"\\\\u0000\\"].type","value":"x"}]}`,
  ),
);
const issueFilters = fc
  .tuple(
    fc.constantFrom('userName', 'displayName', 'emails.value', 'id'),
    issueStrings,
    fc.boolean(),
  )
  .map(([attribute, value, escaped]) => {
    // JSON.stringify writes U+0000 and lone surrogates as \u escapes the filter parser decodes.
    const literal = escaped ? JSON.stringify(value) : `"${value}"`;
    return `filter=${percentEncode(`${attribute} eq ${literal}`)}`;
  });
/** A request target of the `/Me` endpoint (names match in any letter case). */
const ME = new RegExp(`^${BASE}/me(?:[/?]|$)`, 'i');
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
/**
 * Group bodies for a POST, PUT or PATCH of /Groups: hostile display names, and members that are
 * users of the tenant, of the other tenant, or no resource at all.
 */
const groupBodies = (memberIds: string[]) => {
  const memberValue = fc.oneof(fc.constantFrom(...memberIds), issueStrings, text);
  const members = fc.array(
    fc.oneof(
      memberValue.map((value) => ({ value })),
      fc.tuple(memberValue, fc.constantFrom('User', 'Group', 'user', 'x')).map(([value, type]) => ({
        value,
        type,
      })),
    ),
    { maxLength: 4 },
  );
  return fc.oneof(
    fc
      .tuple(fc.oneof(issueStrings, text), members)
      .map(([displayName, list]) => ({ schemas: [GROUP_SCHEMA], displayName, members: list })),
    fc
      .tuple(
        fc.constantFrom('add', 'remove', 'replace', 'Add'),
        fc.constantFrom('members', 'displayName', 'members[value eq "x"]', 'members.value'),
        fc.oneof(members, issueStrings, text),
      )
      .map(([op, path, value]) => ({ schemas: [PATCH_SCHEMA], Operations: [{ op, path, value }] })),
  );
};
const issueIds = fc.oneof(
  hostileStrings.map(percentEncode),
  fc.constantFrom(
    'x%00',
    '%00',
    '%ED%A0%80',
    '%C0%80',
    '%uD800',
    '%',
    '%%',
    '%2F..%2F',
    '%E2%80%AE',
  ),
  text.map(percentEncode),
);

/** Percent-encodes what cannot stand in a request target as a real client would (UTF-8). */
function percentEncode(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0x20 && code < 0x7f) out += char;
    else if (code >= 0xd800 && code <= 0xdfff)
      out += '%ED%A0%80'; // what a lax encoder sends
    else
      for (const byte of Buffer.from(char))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Keeps what a header can carry: raw UTF-8 bytes are sent, characters HTTP forbids are dropped. */
function headerValue(value: string): string {
  return Buffer.from(value, 'utf8')
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

interface WireRequest {
  method: string;
  target: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

function toWire(
  method: string,
  path: string,
  query: unknown,
  headers: Record<string, string | string[]>,
  body: unknown,
): WireRequest | undefined {
  // Not an HTTP token: no client can send it (node:http refuses); CONNECT is a tunnel, not SCIM.
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method) || method.toUpperCase() === 'CONNECT')
    return undefined;
  let search = '';
  if (typeof query === 'string') search = query.startsWith('?') ? query.slice(1) : query;
  else if (query instanceof URLSearchParams) search = query.toString();
  else if (query !== undefined && query !== null) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query as Json))
      for (const v of [value].flat()) params.append(key, String(v));
    search = params.toString();
  }
  const target = `${percentEncode(path.startsWith('/') ? path : `/${path}`)}${search ? `?${percentEncode(search)}` : ''}`;
  const wireHeaders: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    wireHeaders[name] = Array.isArray(value) ? value.map(headerValue) : headerValue(value);
  const wire: WireRequest = { method, target, headers: wireHeaders };
  if (typeof body === 'string') wire.body = Buffer.from(body, 'utf8');
  else if (body instanceof Uint8Array) wire.body = Buffer.from(body);
  else if (body !== undefined) wire.body = Buffer.from(JSON.stringify(body) ?? 'null', 'utf8');
  // node:http frames a GET or DELETE body with neither header, so the server would read the body
  // as the next request: say its length, as every real client does.
  if (wire.body) wireHeaders['content-length'] = String(wire.body.length);
  return wire;
}

interface WireResponse {
  status: number;
  contentType: string;
  body: string;
}

function send(origin: URL, agent: Agent, wire: WireRequest): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: origin.hostname,
        port: origin.port,
        method: wire.method,
        path: wire.target,
        headers: wire.headers,
        agent,
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(wire.body);
  });
}

// ---------------------------------------------------------------- the property

describe.each(everyStore)('HTTP fuzz on the example server, $name store', ({ name, open }) => {
  let running: RunningServer;
  let closeStore: () => Promise<void>;
  let agent: Agent;
  let origin: URL;
  const faults: string[] = [];

  beforeAll(async () => {
    const opened = await open();
    closeStore = () => opened.close();
    running = await startServer(
      {
        host: '127.0.0.1',
        port: 0,
        keys: [
          { key: KEY_A, tenant: 'tenant-a' },
          { key: KEY_B, tenant: 'tenant-b' },
        ],
        generatedKey: false,
        mailLog: undefined,
        activationSecret: 'fuzz',
      },
      {
        store: opened.store,
        print: (line) => void (line.startsWith('[error]') && faults.push(line)),
      },
    );
    origin = new URL(running.url);
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  }, 60_000);
  afterAll(async () => {
    agent?.destroy();
    await running?.close();
    await closeStore?.();
  });

  const scimHeaders = (key: string) => ({
    authorization: `Bearer ${key}`,
    'content-type': 'application/scim+json',
  });

  async function create(key: string, user: Json): Promise<string> {
    const reply = await send(origin, agent, {
      method: 'POST',
      target: `${BASE}/Users`,
      headers: scimHeaders(key),
      body: Buffer.from(JSON.stringify({ schemas: [USER_SCHEMA], ...user })),
    });
    expect(reply.status, reply.body).toBe(201);
    return (JSON.parse(reply.body) as Json).id as string;
  }

  async function createGroup(key: string, displayName: string, members: string[]) {
    const reply = await send(origin, agent, {
      method: 'POST',
      target: `${BASE}/Groups`,
      headers: scimHeaders(key),
      body: Buffer.from(
        JSON.stringify({
          schemas: [GROUP_SCHEMA],
          displayName,
          members: members.map((value) => ({ value })),
        }),
      ),
    });
    expect(reply.status, reply.body).toBe(201);
    return (JSON.parse(reply.body) as Json).id as string;
  }

  /** Each resource as GET returns it (version included), keyed by tenant and id. */
  async function read(
    resources: [string, string][],
    endpoint = 'Users',
  ): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [key, id] of resources) {
      const reply = await send(origin, agent, {
        method: 'GET',
        target: `${BASE}/${endpoint}/${id}`,
        headers: scimHeaders(key),
      });
      out[`${key}/${id}`] = `${reply.status} ${reply.body}`;
    }
    return out;
  }

  it('answers every generated request below 500 and changes no user or group it refuses', async () => {
    const full = {
      active: true,
      displayName: 'Ada',
      emails: [{ value: 'ada@example.org', type: 'work', primary: true }],
      roles: [{ value: 'teacher' }],
      [ENTERPRISE]: { employeeNumber: '7', manager: { value: 'm1' } },
    };
    // Targets: requests name their ids. Sentinels: no request names them, so they never change.
    const targets: [string, string][] = [
      [KEY_A, await create(KEY_A, { userName: 'ada@example.org', ...full })],
      [KEY_A, await create(KEY_A, { userName: 'bob@example.org' })],
      [KEY_B, await create(KEY_B, { userName: 'carol@example.org' })],
    ];
    const sentinels: [string, string][] = [
      [KEY_A, await create(KEY_A, { userName: 'sentinel@example.org', ...full })],
      [KEY_B, await create(KEY_B, { userName: 'sentinel@example.org', ...full })],
    ];
    const sentinelsBefore = await read(sentinels);
    const ids = targets.map(([, id]) => id);
    // Groups of the targets, one per tenant: requests name them, as they name the users.
    const groups: [string, string][] = [
      [KEY_A, await createGroup(KEY_A, 'Teachers', [targets[0]![1], targets[1]![1]])],
      [KEY_B, await createGroup(KEY_B, 'Teachers', [targets[2]![1]])],
    ];
    const readAll = async () => ({ ...(await read(targets)), ...(await read(groups, 'Groups')) });

    const anyRequest = fc.tuple(methods, paths(ids), queries, headerSets, bodies);
    const issueRequest = fc.tuple(
      fc.constantFrom('POST', 'PUT', 'PATCH', 'GET', 'DELETE'),
      fc.oneof(
        fc.constantFrom(...ids).map((id) => `${BASE}/Users/${id}`),
        fc.constant(`${BASE}/Users`),
        issueIds.map((id) => `${BASE}/Users/${id}`),
      ),
      fc.oneof(fc.constant(undefined), issueFilters, queries),
      fc.constantFrom(scimHeaders(KEY_A), scimHeaders(KEY_B)),
      fc.oneof(issueBodies, userBodies, patchBodies, bodies),
    );
    const groupRequest = fc.tuple(
      fc.constantFrom('POST', 'PUT', 'PATCH', 'GET', 'DELETE'),
      fc.oneof(
        fc.constantFrom(...groups).map(([, id]) => `${BASE}/Groups/${id}`),
        fc.constantFrom(`${BASE}/Groups`, `${BASE}/Groups/.search`),
        issueIds.map((id) => `${BASE}/Groups/${id}`),
      ),
      fc.oneof(fc.constant(undefined), issueFilters, queries),
      fc.constantFrom(scimHeaders(KEY_A), scimHeaders(KEY_B)),
      fc.oneof(groupBodies(ids), patchBodies, bodies),
    );

    let sent = 0;
    let refused = 0;
    console.log(`[http-fuzz] ${name}: SCIMKIT_FUZZ_RUNS=${RUNS} SCIMKIT_FUZZ_SEED=${SEED}`);
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(anyRequest, issueRequest, groupRequest),
        async ([method, path, query, headers, body]) => {
          const wire = toWire(
            method,
            path,
            query,
            headers as Record<string, string | string[]>,
            body,
          );
          if (wire === undefined) return;
          const what = `${wire.method} ${wire.target.slice(0, 200)} ${JSON.stringify(wire.headers).slice(0, 200)} ${wire.body?.toString('utf8').slice(0, 300) ?? ''}`;
          const write = !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
          const before = write ? await readAll() : undefined;
          faults.length = 0;
          const reply = await send(origin, agent, wire);
          sent++;
          // This server has no /Me hook: 501 is /Me's documented answer there, and only there.
          const notServed = reply.status === 501 && ME.test(wire.target);
          const status = notServed ? 499 : reply.status;
          expect(
            status,
            `${what}\n→ ${reply.status} ${reply.body.slice(0, 300)} ${faults.join('\n')}`,
          ).toBeLessThan(500);
          const scimPath = wire.target.startsWith(`${BASE}/`) || wire.target === BASE;
          if (reply.status >= 400 && scimPath && reply.body !== '') {
            expect(reply.contentType, what).toMatch(/^application\/scim\+json/);
            expect(typeof (JSON.parse(reply.body) as Json).detail, what).toBe('string');
          }
          if (before && reply.status >= 400) {
            refused++;
            expect(
              await readAll(),
              `${what}\n→ ${reply.status}: refused, so nothing changes`,
            ).toEqual(before);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    expect(await read(sentinels)).toEqual(sentinelsBefore);
    console.log(
      `[http-fuzz] ${name}: ${sent} requests (${refused} refused writes) in ${Math.round(performance.now() - started)} ms`,
    );
  }, 240_000);
});
