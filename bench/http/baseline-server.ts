// The hand-written yardstick of the HTTP benchmark: a minimal `node:http` server that does the
// same work as scimkit for the five benchmarked operations, written the way a competent engineer
// would without a library. It is not a SCIM implementation: it answers only what the benchmark
// sends and rejects the rest with a bare status.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ACCOUNT_SCHEMA = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const CONTENT_TYPE = 'application/scim+json; charset=utf-8';
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const USER_NAME_EQ = /^\s*userName\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;
const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';

interface User {
  schemas: string[];
  id: string;
  userName: string;
  name?: unknown;
  displayName?: unknown;
  emails?: unknown;
  active: boolean;
  [ACCOUNT_SCHEMA]: { status: string };
  meta: {
    resourceType: 'User';
    created: string;
    lastModified: string;
    version: string;
    location?: string;
  };
}

/** A running baseline server. */
export interface RunningBaseline {
  readonly url: string;
  close(): Promise<void>;
}

let lastMs = -1;
let seq = 0;

// Time-ordered like scimkit's ids: 10 base32 chars of milliseconds, a per-ms sequence, random.
function newId(): string {
  const now = Date.now();
  if (now === lastMs) seq++;
  else {
    lastMs = now;
    seq = 0;
  }
  let time = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = BASE32[t % 32] + time;
  return `${time}${seq.toString(32).padStart(4, '0')}${randomBytes(6).toString('hex')}`;
}

function send(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { 'content-type': CONTENT_TYPE, ...headers }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** Starts the baseline on 127.0.0.1 with one accepted bearer token. */
export async function startBaseline(
  token: string,
  basePath: string,
  port = 0,
): Promise<RunningBaseline> {
  const tokenDigest = createHash('sha256').update(token).digest();
  const byId = new Map<string, User>();
  const idByUserName = new Map<string, string>();
  const order: string[] = [];
  const usersPath = `${basePath}/Users`;

  const located = (user: User, usersUrl: string): User => ({
    ...user,
    meta: { ...user.meta, location: `${usersUrl}/${user.id}` },
  });

  function authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization;
    if (header === undefined || !/^bearer /i.test(header)) return false;
    const digest = createHash('sha256').update(header.slice(7).trim()).digest();
    return timingSafeEqual(digest, tokenDigest);
  }

  async function create(
    req: IncomingMessage,
    res: ServerResponse,
    usersUrl: string,
  ): Promise<void> {
    const body = (await readBody(req)) as Record<string, unknown> | undefined;
    if (
      typeof body !== 'object' ||
      body === null ||
      !Array.isArray(body.schemas) ||
      !body.schemas.includes(USER_SCHEMA)
    ) {
      return send(res, 400);
    }
    const userName = body.userName;
    if (typeof userName !== 'string' || userName.length > 254 || !EMAIL.test(userName))
      return send(res, 400);
    const key = userName.toLowerCase();
    if (idByUserName.has(key)) return send(res, 409);
    const now = new Date().toISOString();
    const active = body.active === true;
    const user: User = {
      schemas: [USER_SCHEMA, ACCOUNT_SCHEMA],
      id: newId(),
      userName,
      active,
      [ACCOUNT_SCHEMA]: { status: active ? 'Invited' : 'Pending' },
      meta: { resourceType: 'User', created: now, lastModified: now, version: 'W/"1"' },
    };
    if (body.name !== undefined) user.name = body.name;
    if (body.displayName !== undefined) user.displayName = body.displayName;
    if (body.emails !== undefined) user.emails = body.emails;
    byId.set(user.id, user);
    idByUserName.set(key, user.id);
    order.push(user.id);
    const out = located(user, usersUrl);
    send(res, 201, out, { etag: user.meta.version, location: out.meta.location ?? '' });
  }

  function list(res: ServerResponse, query: string, usersUrl: string): void {
    const params = new URLSearchParams(query);
    const startIndex = Math.max(1, Number(params.get('startIndex') ?? 1));
    const count = Math.min(100, Math.max(0, Number(params.get('count') ?? 50)));
    const filter = params.get('filter');
    let ids: string[];
    let total: number;
    if (filter !== null) {
      const match = USER_NAME_EQ.exec(filter);
      if (!match) return send(res, 400);
      const id = idByUserName.get(JSON.parse(`"${match[1]}"`).toLowerCase());
      ids = id === undefined ? [] : [id].slice(startIndex - 1, startIndex - 1 + count);
      total = id === undefined ? 0 : 1;
    } else {
      ids = order.slice(startIndex - 1, startIndex - 1 + count);
      total = order.length;
    }
    const resources = ids.map((id) => located(byId.get(id) as User, usersUrl));
    send(res, 200, {
      schemas: [LIST_SCHEMA],
      totalResults: total,
      itemsPerPage: resources.length,
      startIndex,
      Resources: resources,
    });
  }

  async function patch(
    req: IncomingMessage,
    res: ServerResponse,
    user: User,
    usersUrl: string,
  ): Promise<void> {
    const body = (await readBody(req)) as { schemas?: unknown; Operations?: unknown } | undefined;
    if (
      !body ||
      !Array.isArray(body.schemas) ||
      !body.schemas.includes(PATCH_SCHEMA) ||
      !Array.isArray(body.Operations)
    ) {
      return send(res, 400);
    }
    let active = user.active;
    for (const op of body.Operations as { op?: unknown; path?: unknown; value?: unknown }[]) {
      if (
        String(op.op).toLowerCase() !== 'replace' ||
        op.path !== 'active' ||
        typeof op.value !== 'boolean'
      ) {
        return send(res, 400);
      }
      active = op.value;
    }
    if (active !== user.active) {
      const n = Number(user.meta.version.slice(3, -1)) + 1;
      user.active = active;
      user[ACCOUNT_SCHEMA] = { status: active ? 'Invited' : 'Deactivated' };
      user.meta = { ...user.meta, lastModified: new Date().toISOString(), version: `W/"${n}"` };
    }
    send(res, 200, located(user, usersUrl), { etag: user.meta.version });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!authorized(req)) return send(res, 401, undefined, { 'www-authenticate': 'Bearer' });
    const target = req.url ?? '/';
    const mark = target.indexOf('?');
    const path = mark < 0 ? target : target.slice(0, mark);
    const usersUrl = `http://${req.headers.host ?? '127.0.0.1'}${usersPath}`;
    if (path === usersPath || path === `${usersPath}/`) {
      if (req.method === 'POST') return create(req, res, usersUrl);
      if (req.method === 'GET') return list(res, mark < 0 ? '' : target.slice(mark + 1), usersUrl);
      return send(res, 405);
    }
    if (!path.startsWith(`${usersPath}/`)) return send(res, 404);
    const user = byId.get(decodeURIComponent(path.slice(usersPath.length + 1)));
    if (!user) return send(res, 404);
    if (req.method === 'GET')
      return send(res, 200, located(user, usersUrl), { etag: user.meta.version });
    if (req.method === 'PATCH') return patch(req, res, user, usersUrl);
    return send(res, 405);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}${basePath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
