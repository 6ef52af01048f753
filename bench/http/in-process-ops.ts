// The in-process benchmark's service and operations, shared by `in-process.ts` (CPU time per
// request) and `count-instructions.ts` (callgrind instruction counts per request): a service on
// the memory store with 1,000 users, and the five operations of the HTTP benchmark as
// `ScimRequest`s sent to `scim.handle()`.
import {
  createScim,
  staticApiKeys,
  type ApiKeyVerifier,
  type Scim,
  type ScimRequest,
} from '../../src/index.js';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scimNode } from '../../src/adapters/node/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { newUserBody } from './operations.js';

const token = 'bench-token-0123456789';
const basePath = '/api/v1/scim/v2';
const baseUrl = 'http://127.0.0.1:8080';
const headers = {
  host: '127.0.0.1:8080',
  authorization: `Bearer ${token}`,
  'content-type': 'application/scim+json',
};

/** The verifiers a run can use: the reference `staticApiKeys`, or a plain lookup. */
export const VERIFIERS: Readonly<Record<string, () => ApiKeyVerifier>> = {
  static: () => staticApiKeys([{ key: token, tenant: 'bench' }]),
  map: () => ({ verify: async (t) => (t === token ? { id: 'bench' } : null) }),
};

/** A service with its users preloaded, and a request maker per operation. */
export interface Bench {
  readonly scim: Scim;
  readonly ops: Readonly<Record<string, (i: number) => ScimRequest>>;
}

function request(method: string, path: string, query: string, body?: string): ScimRequest {
  return body === undefined
    ? { method, path, query, headers, baseUrl }
    : { method, path, query, headers, baseUrl, body };
}

/** Throws unless the response is a success: a benchmark of error answers measures nothing. */
export function check(response: { status: number; body: string | undefined }): void {
  if (response.status >= 300)
    throw new Error(`unexpected ${response.status}: ${response.body ?? ''}`);
}

/**
 * What the memory store keeps of events, and what is sent from them: `on`, the event log and
 * the welcome email (a mailer that sends nothing); `log`, the log without a mailer; `off`, no
 * log, and so no mailer (the welcome email is sent from the log). `log:N` and `on:N` keep the
 * most recent N events (`eventsKept`) instead of the store's default.
 */
export type EventsSetting = string;

// The store and mailer options of an `EventsSetting`; throws for text that is not one.
function eventsOptions(setting: EventsSetting): { events: boolean; kept?: number; mail: boolean } {
  const match = /^(on|log|off)(?::(\d+))?$/.exec(setting);
  if (!match || (match[1] === 'off' && match[2] !== undefined))
    throw new Error(`events: expected on, log or off (on:N, log:N), got "${setting}"`);
  const kept = match[2] === undefined ? {} : { kept: Number(match[2]) };
  return { events: match[1] !== 'off', mail: match[1] === 'on', ...kept };
}

/** Builds the service with `events` (see {@link EventsSetting}), preloads 1,000 users and returns the operations. */
export async function prepareBench(
  verifier: ApiKeyVerifier,
  slug: string,
  events: EventsSetting = 'on',
): Promise<Bench> {
  const setting = eventsOptions(events);
  const scim = createScim({
    store: new MemoryUserStore({
      events: setting.events,
      ...(setting.kept === undefined ? {} : { eventsKept: setting.kept }),
    }),
    verifier,
    ...(setting.mail ? { mailer: { async sendWelcome() {} } } : {}),
    basePath,
  });
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
  // A PATCH of the user `id` that replaces `path` by `value`.
  const replaceAttribute = (id: string, path: string, value: unknown): ScimRequest => {
    const body = JSON.stringify({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path, value }],
    });
    return request('PATCH', `${basePath}/Users/${id}`, '', body);
  };
  // A PUT of the `n`th preloaded user: the same userName, active, with this name.
  const replaceUser = (n: number, givenName: string, familyName: string): ScimRequest => {
    const body = JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: userNames[n],
      active: true,
      name: { givenName, familyName },
    });
    return request('PUT', `${basePath}/Users/${ids[n]}`, '', body);
  };
  let created = 0;
  const active = new Map<string, boolean>();
  const ops: Record<string, (i: number) => ScimRequest> = {
    create: () =>
      request(
        'POST',
        `${basePath}/Users`,
        '',
        newUserBody(`ip-${slug}-${created++}@bench.example.org`),
      ),
    // As the shared kit creates users: active, so each one queues and sends a welcome email.
    'create active': () =>
      request(
        'POST',
        `${basePath}/Users`,
        '',
        newUserBody(`ipa-${slug}-${created++}@bench.example.org`).replace(
          '"active":false',
          '"active":true',
        ),
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
    // As the shared kit replaces a user: the same userName, active, a new given name.
    'put user': (i) => replaceUser(i % ids.length, `Put${i}`, 'Family'),
    'patch active': (i) => {
      const id = ids[i % ids.length] as string;
      const value = !(active.get(id) ?? false);
      active.set(id, value);
      return replaceAttribute(id, 'active', value);
    },
    // The shared kit's PATCH: `active` replaced by `true`. The kit's users are active already;
    // the users preloaded here change on their first one, then never again (no new version).
    'kit patch': (i) => replaceAttribute(ids[i % ids.length] as string, 'active', true),
    // The shared kit's PUT: the same body every time, so after a user's first one nothing
    // changes.
    'kit put': (i) => replaceUser(i % ids.length, 'Given0', 'Family0'),
    // A change of an attribute alone: one `user.updated`, no change of account status.
    'patch displayName': (i) =>
      replaceAttribute(ids[i % ids.length] as string, 'displayName', `Patched ${i}`),
  };
  return { scim, ops };
}

/** Answers one request: `scim.handle()` itself, or a client of a server in the same process. */
export type Sender = (request: ScimRequest) => Promise<void>;

/** Sends `n` requests of one operation, ten in flight at a time, like ten HTTP connections. */
export async function send(
  scim: Scim | Sender,
  make: (i: number) => ScimRequest,
  from: number,
  n: number,
): Promise<void> {
  const one: Sender =
    typeof scim === 'function' ? scim : (request) => scim.handle(request).then(check);
  for (let i = from; i < from + n; i += 10) {
    const batch: Promise<unknown>[] = [];
    for (let j = i; j < i + 10 && j < from + n; j++) batch.push(one(make(j)));
    await Promise.all(batch);
  }
}

/**
 * Serves `scim` with the `node:http` adapter on a loopback port in this process and returns a
 * sender that makes each request over one of ten kept-alive connections: the whole node request
 * path (parser, body read, response write) is then part of what is counted. The client's own
 * cost is the same for every version of the library, so differences between versions are the
 * server's.
 */
export async function serveOverNode(
  scim: Scim,
): Promise<{ readonly send: Sender; close(): Promise<void> }> {
  const server = createServer(scimNode(scim));
  // Under callgrind a request takes long enough for node's 5 s idle timeout to close a
  // connection the client is about to reuse.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  const sender: Sender = (r) =>
    new Promise((resolve, reject) => {
      const query = typeof r.query === 'string' && r.query !== '' ? `?${r.query}` : '';
      const body = typeof r.body === 'string' ? r.body : undefined;
      const headers: Record<string, string> = { ...(r.headers as Record<string, string>) };
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const req = httpRequest(
        { agent, host: '127.0.0.1', port, method: r.method, path: r.path + query, headers },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            try {
              check({ status: res.statusCode ?? 0, body: text });
              resolve();
            } catch (error) {
              reject(error as Error);
            }
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    send: sender,
    close: async () => {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
