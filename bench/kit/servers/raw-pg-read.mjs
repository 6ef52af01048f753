/* global process, Buffer, URLSearchParams, console, setTimeout */
// A bound for scimkit's PostgreSQL writes: the kit's `raw-pg` (hand-written `node:http` + `pg`
// on one `users` table, no validation) with the statements any server keeping this service's
// contract must send where raw-pg sends a blind `UPDATE`. A PATCH or PUT reads the user and its
// version, applies the request to it here, and writes it back with `UPDATE … WHERE version = $v`
// (read again on a lost race): a PATCH engine that handles every path, immutability, `If-Match`
// and the events' before and after needs the resource it applies to; raw-pg's `jsonb_set` of a
// top-level path does not. `globalThis.rawPgChecks` adds, comma-separated:
//
// - `events`: each write records one event carrying the resource, in a CTE of its own
//   statement, in a table shaped as scimkit's log (`(xid, seq)` key, tenant and time indexes),
//   so that the write and its event commit together. One event per write, fewer than scimkit
//   records for a PATCH of `active` (two): a bound from below.
// - `status` (with `events`): a PATCH or PUT that changes `active` also records the account's
//   event (`user.deactivated`, or `user.reactivated`), as scimkit records two events for such
//   a write, and the events of one write are stored as scimkit's log stores them: one row, the
//   resource once, its type column listing their types (a create's `user.created` and, with
//   `invite`, its `user.invited` too).
// - `count`: a create adds one to its connection's counter row in its own statement, and a
//   page sums the tenant's rows instead of `count(*)`, as scimkit's store keeps `totalResults`.
// - `invite` (with `events`): a user created active also records `user.invited`, carrying the
//   resource, in the create's statement, and a loop in this process delivers the welcome emails
//   from the log: it reads the next page of up to 100 settled events after its checkpoint (the
//   JSON of the `user.invited` ones, which an email is made from), sends those to a mailer that
//   sends nothing, and in one statement records an attempt row per email (in a table shaped as
//   scimkit's `delivery_attempts`) and moves its checkpoint; a page without an invitation moves
//   it in memory only, and after a page that was not full the loop waits 5 ms. No lease, no
//   check that the user still exists: less than any server keeping the durable email of the
//   contract must do.
// - `groups`: every read of a user (GET, `userName eq`, a page, and the read before a PATCH or
//   PUT) also reads the user's direct groups in the same statement, as a column, from tables
//   shaped as scimkit's `groups` and `group_members` (empty in the kit): the User's `groups`
//   attribute, which is computed from memberships, returned by default, and no write of a user
//   keeps. The answer shows them when there are any.
// - `shared`: concurrent statements of one kind go several to a statement, one statement of a
//   kind at a time, as scimkit's PostgreSQL store sends them: the reads of users by id (a GET,
//   the read before a PATCH or PUT), the `userName eq` lookups, the creates and the
//   read-modify-writes' writes. A statement takes up to 100 of the requests waiting, never two
//   writes of one user; a request alone runs its own statement, and a write a shared statement
//   did not make (a lost race, a taken userName) runs alone after it.
//
// It answers the kit's routes as raw-pg does (create, get, `userName eq`, pages, PATCH
// replace/add of top-level paths, PUT) and is not an implementation. Served alone it is the kit
// server `raw-pg-read`; raw-pg-read-events.mjs (`events`), raw-pg-read-events-count.mjs
// (`events,count`), raw-pg-read-events-count-invite.mjs (`events,count,invite`) and
// raw-pg-read-groups.mjs (`groups`), raw-pg-read-shared.mjs (`shared`),
// raw-pg-read-shared-all.mjs (every check but `status`) and raw-pg-read-shared-all-status.mjs
// (every check) import it. Env as raw-pg: PORT, HOST, PREFIX,
// SCIM_TOKEN, DATABASE_URL, RAW_PG_POOL (default 16); the schema is the variant's name (dropped
// and re-created on start).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const PORT = Number(process.env.PORT ?? 3000);
const HOST = process.env.HOST ?? '127.0.0.1';
const PREFIX = process.env.PREFIX ?? '/api/v1/scim/v2';
const TOKEN = process.env.SCIM_TOKEN ?? 'bench-token';

const checks = new Set(
  String(globalThis.rawPgChecks ?? '')
    .split(',')
    .filter(Boolean),
);
if (checks.has('invite') && !checks.has('events')) throw new Error('invite needs events');
if (checks.has('status') && !checks.has('events')) throw new Error('status needs events');
const NAME = ['raw-pg-read', ...checks].join('-');
const SCHEMA = NAME.replaceAll('-', '_');
const T = `${SCHEMA}.users`;
const E = `${SCHEMA}.events`;
const C = `${SCHEMA}.user_counts`;
const A = `${SCHEMA}.delivery_attempts`;
const K = `${SCHEMA}.checkpoints`;
const G = `${SCHEMA}.groups`;
const M = `${SCHEMA}.group_members`;
// With `groups`: the user's direct groups as a JSON array of [id, displayName, nested], NULL
// for a user in none, read beside `doc` (the user's row is `u`).
const GROUPS = checks.has('groups')
  ? `, (SELECT json_agg(json_build_array(g.id, g.display_name,
        (SELECT 1 FROM ${M} AS n WHERE n.tenant = $1 AND n.member_id = g.id LIMIT 1) IS NOT NULL)
        ORDER BY g.id)
      FROM ${M} AS gm JOIN ${G} AS g ON g.tenant = gm.tenant AND g.id = gm.group_id
      WHERE gm.tenant = $1 AND gm.member_id = u.id::text) AS groups`
  : '';
const TENANT = 'bench';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const USERS = `${PREFIX}/Users`;
const AUTH = `Bearer ${TOKEN}`;
const MAX_COUNT = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILTER_EQ = /^\s*userName\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  max: Number(process.env.RAW_PG_POOL ?? 16),
  // With `shared`: the statements of several users find each by its key. The kit's table is
  // new and never analyzed, and without statistics the planner would join them by reading
  // every user of the tenant.
  ...(checks.has('shared')
    ? { options: '-c enable_hashjoin=off -c enable_mergejoin=off -c enable_bitmapscan=off' }
    : {}),
});

/**
 * What a write records after its CTE `w` (0 or more rows written): with `events`, the event
 * (`event`, an SQL jsonb expression) of each row; with `invite` and `invited` given, the
 * `user.invited` event of each row where it is not NULL; with `counted` and `count`, the rows
 * added to the count.
 */
function recordings(event, invited = undefined, counted = false) {
  const ctes = [];
  if (checks.has('events')) {
    ctes.push(`ev AS (INSERT INTO ${E} (tenant, type, occurred_at, event)
      SELECT $1, (${event})->>'type', now(), ${event} FROM w)`);
  }
  if (invited !== undefined && checks.has('invite')) {
    ctes.push(`inv AS (INSERT INTO ${E} (tenant, type, occurred_at, event)
      SELECT $1, 'user.invited', now(), ${invited} FROM w WHERE ${invited} IS NOT NULL)`);
  }
  if (counted && checks.has('count')) {
    ctes.push(`c AS (INSERT INTO ${C} AS c (tenant, shard, n)
      SELECT $1, pg_backend_pid() % 64, count(*) FROM w HAVING count(*) > 0
      ON CONFLICT (tenant, shard) DO UPDATE SET n = c.n + excluded.n)`);
  }
  return ctes;
}

/**
 * `statement` with what it records (see `recordings`; $e: the event, and with `invited`, the
 * `user.invited` event's parameter, NULL for none).
 */
function recorded(statement, e, counted = false, invited = undefined) {
  const ctes = recordings(`${e}::jsonb`, invited && `${invited}::jsonb`, counted);
  if (ctes.length === 0) return statement;
  return `WITH w AS (${statement}), ${ctes.join(', ')} SELECT * FROM w`;
}

// Named statements, as raw-pg's: parsed and planned once per connection.
const SQL = {
  insert: {
    name: 'rc_insert',
    text: recorded(
      `INSERT INTO ${T} (tenant, id, user_name_key, doc, version) VALUES ($1, $2, $3, $4::jsonb, 1) RETURNING id`,
      '$5',
      true,
      '$6',
    ),
  },
  get: { name: 'rc_get', text: `SELECT doc${GROUPS} FROM ${T} AS u WHERE tenant = $1 AND id = $2` },
  read: {
    name: 'rc_read',
    text: `SELECT doc, version${GROUPS} FROM ${T} AS u WHERE tenant = $1 AND id = $2`,
  },
  byKey: {
    name: 'rc_by_key',
    text: `SELECT doc${GROUPS} FROM ${T} AS u WHERE tenant = $1 AND user_name_key = $2`,
  },
  page: {
    name: 'rc_page',
    text: `SELECT doc${GROUPS} FROM ${T} AS u WHERE tenant = $1 ORDER BY id LIMIT $2 OFFSET $3`,
  },
  count: {
    name: 'rc_count',
    text: checks.has('count')
      ? `SELECT COALESCE(sum(n), 0)::int AS n FROM ${C} WHERE tenant = $1`
      : `SELECT count(*)::int AS n FROM ${T} WHERE tenant = $1`,
  },
  // The read-modify-write: the document made here, written at the version it was made from.
  write: {
    name: 'rc_write',
    text: recorded(
      `UPDATE ${T} SET user_name_key = $3, doc = $4::jsonb, version = version + 1
       WHERE tenant = $1 AND id = $2 AND version = $5 RETURNING version`,
      '$6',
    ),
  },
  // The welcome loop (`invite`): the next page of settled events (the invitations' JSON), then
  // its attempts and checkpoint in one statement.
  feed: {
    name: 'rc_feed',
    text: `SELECT xid::text AS xid, seq,
        CASE WHEN type = 'user.invited' OR type = 'user.created user.invited' THEN event END AS event
      FROM ${E} WHERE tenant = $1 AND (xid, seq) > ($2::xid8, $3::bigint)
        AND xid < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY xid, seq LIMIT $4`,
  },
  delivered: {
    name: 'rc_delivered',
    text: `WITH a AS (INSERT INTO ${A} (subscriber, tenant, event_id, event_type, attempt, status, at)
        SELECT 'welcome', $1, x, 'user.invited', 1, 'ok', now() FROM unnest($2::text[]) AS x)
      UPDATE ${K} SET xid = $3::xid8, seq = $4 WHERE subscriber = 'welcome' AND tenant = $1`,
  },
};
const q = (stmt, values) => pool.query({ ...stmt, values });

/**
 * With `shared`: the statement whose CTEs `first` end with `w`, the rows it wrote (with the
 * columns `id`, `event` and `invited` of their items), with what it records.
 */
const recordedMany = (first, counted = false) =>
  `WITH ${[...first, ...recordings('event', 'invited', counted)].join(', ')}
  SELECT id::text AS id FROM w`;
/** The items of a shared write ($2, a JSON array), as rows. */
const ITEMS = `jsonb_to_recordset($2::jsonb)
  AS x(id uuid, key text, doc jsonb, version int, event jsonb, invited jsonb)`;
// Named, as scimkit prepares its own: parsed and planned once per connection.
const MANY = {
  read: {
    name: 'rc_read_many',
    text: `SELECT id::text AS id, doc, version${GROUPS} FROM ${T} AS u
      WHERE tenant = $1 AND id = ANY($2::uuid[])`,
  },
  byKey: {
    name: 'rc_by_key_many',
    text: `SELECT user_name_key, doc${GROUPS} FROM ${T} AS u
      WHERE tenant = $1 AND user_name_key = ANY($2::text[])`,
  },
  insert: {
    name: 'rc_insert_many',
    text: recordedMany(
      [
        `x AS (SELECT * FROM ${ITEMS})`,
        `i AS (INSERT INTO ${T} (tenant, id, user_name_key, doc, version)
          SELECT $1, id, key, doc, 1 FROM x ON CONFLICT DO NOTHING RETURNING id)`,
        `w AS (SELECT i.id, x.event, x.invited FROM i JOIN x USING (id))`,
      ],
      true,
    ),
  },
  write: {
    name: 'rc_write_many',
    text: recordedMany([
      `w AS (UPDATE ${T} AS u SET user_name_key = x.key, doc = x.doc, version = u.version + 1
        FROM ${ITEMS} WHERE u.tenant = $1 AND u.id = x.id AND u.version = x.version
        RETURNING u.id, x.event, x.invited)`,
    ]),
  },
};

/**
 * With `shared`: runs items of one kind several to a statement (`many(items)`, answering each
 * in order; an item alone, `one(item)`), one statement at a time; the items that arrive meanwhile
 * wait for the next, which takes up to 100 of them, never two of one row (`rowOf`, for writes).
 */
function sharedKind(many, one, rowOf = () => undefined) {
  let waiting = [];
  let running = false;
  const start = () => {
    if (running || waiting.length === 0) return;
    const batch = [];
    const rest = [];
    const rows = new Set();
    for (const w of waiting) {
      const row = rowOf(w.item);
      if (batch.length >= 100 || (row !== undefined && rows.has(row))) rest.push(w);
      else {
        batch.push(w);
        if (row !== undefined) rows.add(row);
      }
    }
    waiting = rest;
    running = true;
    const items = batch.map((w) => w.item);
    (items.length === 1 ? one(items[0]).then((answer) => [answer]) : many(items))
      .then(
        (answers) => batch.forEach((w, i) => w.resolve(answers[i])),
        (e) => batch.forEach((w) => w.reject(e)),
      )
      .finally(() => {
        running = false;
        start();
      });
  };
  return (item) =>
    new Promise((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      start();
    });
}

/** A shared write's item as an element of its JSON array; its JSON members are already texts. */
const itemJson = ({ id, key, doc, version, event, invited }) =>
  `{"id":"${id}","key":${JSON.stringify(key)},"doc":${doc},"version":${version ?? 1}` +
  `,"event":${event ?? 'null'},"invited":${invited ?? 'null'}}`;

/** Rows of a shared read, by the column `by`, for each of `keys`. */
async function readMany(stmt, keys, by) {
  const { rows } = await q(stmt, [TENANT, [...new Set(keys)]]);
  const found = new Map();
  for (const row of rows) {
    const list = found.get(row[by]);
    if (list) list.push(row);
    else found.set(row[by], [row]);
  }
  return keys.map((key) => found.get(key) ?? []);
}

/**
 * A shared write of `items`: whether each was written. Where the server refuses the statement
 * for a value (a userName taken by a PUT), none was, and each is left to run alone.
 */
async function writeMany(stmt, items) {
  try {
    const { rows } = await q(stmt, [TENANT, `[${items.map(itemJson).join(',')}]`]);
    const wrote = new Set(rows.map((row) => row.id));
    return items.map((item) => wrote.has(item.id));
  } catch (e) {
    if (/^(22|23|40)/.test(String(e?.code))) return items.map(() => false);
    throw e;
  }
}

const shared = checks.has('shared')
  ? {
      read: sharedKind(
        (ids) => readMany(MANY.read, ids, 'id'),
        async (id) => (await q(SQL.read, [TENANT, id])).rows,
      ),
      byKey: sharedKind(
        (keys) => readMany(MANY.byKey, keys, 'user_name_key'),
        async (key) => (await q(SQL.byKey, [TENANT, key])).rows,
      ),
      // A write alone is left to the caller's own statement.
      insert: sharedKind(
        (items) => writeMany(MANY.insert, items),
        async () => false,
      ),
      write: sharedKind(
        (items) => writeMany(MANY.write, items),
        async () => false,
        (item) => item.id,
      ),
    }
  : undefined;
/** The event a write records (with `events`), as a parameter: the resource it wrote. */
const event = (type, resource) =>
  JSON.stringify({
    id: randomUUID(),
    type,
    tenant: TENANT,
    occurredAt: new Date().toISOString(),
    data: { resource },
  });
const withEvent = (values, type, resource) =>
  checks.has('events') ? [...values, event(type, resource)] : values;
/**
 * With `status`: the events `types` of one write carrying `resource`, as one row's parameter
 * (each event's id and type, the resource once, the type column listing the types).
 */
const rowOfEvents = (types, resource) =>
  JSON.stringify({
    type: types.join(' '),
    tenant: TENANT,
    occurredAt: new Date().toISOString(),
    data: { resource },
    events: types.map((type) => [randomUUID(), type]),
  });
/**
 * With `status`: the events of a write from `before` to `after` as one row's parameter when it
 * changes `active` (`user.updated` and the account's event); else undefined.
 */
const statusEvents = (before, after) => {
  if (!checks.has('status') || typeof before.active !== 'boolean') return undefined;
  if (before.active === after.active) return undefined;
  const account = after.active === true ? 'user.reactivated' : 'user.deactivated';
  return rowOfEvents(['user.updated', account], after);
};
/** The id of the invitation in a row the welcome loop read: its own, or in a row of a write's. */
const invitationId = (e) =>
  e.events ? e.events.find(([, type]) => type === 'user.invited')[0] : e.id;

/** A read row's `groups` (with `groups`), or undefined for a user in none. */
const groupsOf = (row) =>
  row.groups?.map(([value, display]) => ({ value, display, type: 'direct' }));

/** `doc` with `groups` when there are any. */
const withGroups = (doc, groups) => (groups ? { ...doc, groups } : doc);

/** A read row's user, with its groups. */
const userOf = (row) => withGroups(row.doc, groupsOf(row));

function send(res, status, obj) {
  const body = JSON.stringify(obj);
  res.writeHead(status, {
    'content-type': 'application/scim+json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
const error = (res, status, detail, scimType) =>
  send(res, status, {
    schemas: [ERROR_SCHEMA],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  });
const fail = (res) => (e) =>
  e?.code === '23505'
    ? error(res, 409, 'userName taken', 'uniqueness')
    : error(res, 500, String(e?.message ?? e));

function readBody(req, cb) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = undefined;
    }
    cb(body);
  });
}

async function list(res, query) {
  const startIndex = Math.max(1, Number.parseInt(query.get('startIndex') ?? '1', 10) || 1);
  const count = Math.min(
    MAX_COUNT,
    Math.max(0, Number.parseInt(query.get('count') ?? String(MAX_COUNT), 10) || 0),
  );
  const filter = query.get('filter');
  let total;
  let page;
  if (filter !== null) {
    const m = FILTER_EQ.exec(filter);
    if (!m) return error(res, 400, 'only userName eq is supported here', 'invalidFilter');
    const key = JSON.parse(`"${m[1]}"`).toLowerCase();
    const rows = shared ? await shared.byKey(key) : (await q(SQL.byKey, [TENANT, key])).rows;
    total = rows.length;
    page = rows.slice(startIndex - 1, startIndex - 1 + count).map(userOf);
  } else {
    const [p, c] = await Promise.all([
      q(SQL.page, [TENANT, count, startIndex - 1]),
      q(SQL.count, [TENANT]),
    ]);
    total = c.rows[0].n;
    page = p.rows.map(userOf);
  }
  send(res, 200, {
    schemas: [LIST_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: page.length,
    Resources: page,
  });
}

async function create(res, body) {
  if (
    !body ||
    typeof body.userName !== 'string' ||
    !Array.isArray(body.schemas) ||
    !body.schemas.includes(USER_SCHEMA)
  ) {
    return error(res, 400, 'invalid User', 'invalidValue');
  }
  const id = randomUUID();
  const now = new Date().toISOString();
  const { schemas: _s, id: _i, meta: _m, ...attrs } = body;
  const user = {
    schemas: [USER_SCHEMA],
    id,
    ...attrs,
    meta: { resourceType: 'User', created: now, lastModified: now, location: `${USERS}/${id}` },
  };
  const values = withEvent(
    [TENANT, id, body.userName.toLowerCase(), JSON.stringify(user)],
    'user.created',
    user,
  );
  if (checks.has('invite')) values.push(body.active === true ? event('user.invited', user) : null);
  // With `status`, the invitation shares the create's row.
  if (checks.has('status') && values[5] !== null && values[5] !== undefined) {
    values[4] = rowOfEvents(['user.created', 'user.invited'], user);
    values[5] = null;
  }
  const [, , key, doc, e, invited] = values;
  if (!shared || !(await shared.insert({ id, key, doc, event: e, invited })))
    await q(SQL.insert, values);
  send(res, 201, user);
}

/**
 * Reads the user, makes its next document with `next(doc)`, writes it at the version read and
 * answers it; a write that lost a race reads again.
 */
async function readModifyWrite(res, id, type, next) {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const rows = shared ? await shared.read(id) : (await q(SQL.read, [TENANT, id])).rows;
    if (rows.length === 0) return error(res, 404, 'not found');
    const doc = next(rows[0].doc);
    const groups = groupsOf(rows[0]);
    doc.meta = { ...doc.meta, lastModified: new Date().toISOString() };
    const values = withEvent(
      [TENANT, id, doc.userName.toLowerCase(), JSON.stringify(doc), rows[0].version],
      type,
      doc,
    );
    const both = statusEvents(rows[0].doc, doc);
    if (both !== undefined) values[5] = both;
    const [, , key, text, version, e] = values;
    const wrote =
      (shared && (await shared.write({ id, key, doc: text, version, event: e }))) ||
      (await q(SQL.write, values)).rows.length === 1;
    if (wrote) return send(res, 200, withGroups(doc, groups));
  }
  return error(res, 409, 'too many concurrent writes');
}

async function replace(res, id, body) {
  if (!body || typeof body.userName !== 'string')
    return error(res, 400, 'invalid User', 'invalidValue');
  const { schemas: _s, id: _i, meta: _m, ...attrs } = body;
  return readModifyWrite(res, id, 'user.updated', (doc) => ({
    schemas: [USER_SCHEMA],
    id,
    ...attrs,
    meta: doc.meta,
  }));
}

async function patch(res, id, body) {
  if (!body || !Array.isArray(body.Operations))
    return error(res, 400, 'invalid PatchOp', 'invalidSyntax');
  const set = {};
  for (const op of body.Operations) {
    const kind = String(op.op).toLowerCase();
    if (
      (kind !== 'replace' && kind !== 'add') ||
      typeof op.path !== 'string' ||
      op.path.includes('.') ||
      op.path.includes('[')
    ) {
      return error(res, 400, 'unsupported op here', 'invalidPath');
    }
    if (op.path.toLowerCase() === 'username') return error(res, 400, 'not here', 'mutability');
    set[op.path] = op.value;
  }
  return readModifyWrite(res, id, 'user.updated', (doc) => ({ ...doc, ...set }));
}

async function get(res, id) {
  const rows = shared ? await shared.read(id) : (await q(SQL.get, [TENANT, id])).rows;
  return rows.length ? send(res, 200, userOf(rows[0])) : error(res, 404, 'not found');
}

const server = http.createServer((req, res) => {
  if (req.headers.authorization !== AUTH) return error(res, 401, 'unauthorized');
  const qi = req.url.indexOf('?');
  const pathname = qi === -1 ? req.url : req.url.slice(0, qi);
  if (pathname === USERS) {
    if (req.method === 'GET')
      return list(res, new URLSearchParams(qi === -1 ? '' : req.url.slice(qi + 1))).catch(
        fail(res),
      );
    if (req.method === 'POST') return readBody(req, (b) => create(res, b).catch(fail(res)));
    return error(res, 405, 'method not allowed');
  }
  if (pathname.startsWith(`${USERS}/`)) {
    const id = decodeURIComponent(pathname.slice(USERS.length + 1));
    if (!UUID.test(id)) return error(res, 404, 'not found');
    if (req.method === 'GET') return get(res, id).catch(fail(res));
    if (req.method === 'PUT') return readBody(req, (b) => replace(res, id, b).catch(fail(res)));
    if (req.method === 'PATCH') return readBody(req, (b) => patch(res, id, b).catch(fail(res)));
    return error(res, 405, 'method not allowed');
  }
  error(res, 404, 'not found');
});
server.keepAliveTimeout = 65_000;

await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
await pool.query(`CREATE SCHEMA ${SCHEMA}`);
await pool.query(`CREATE TABLE ${T} (
  tenant text NOT NULL,
  id uuid PRIMARY KEY,
  user_name_key text NOT NULL,
  doc jsonb NOT NULL,
  version int NOT NULL,
  UNIQUE (tenant, user_name_key)
)`);
if (checks.has('events')) {
  await pool.query(`CREATE TABLE ${E} (
    xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    seq bigint GENERATED ALWAYS AS IDENTITY,
    tenant text COLLATE "C" NOT NULL,
    type text COLLATE "C" NOT NULL,
    occurred_at timestamptz NOT NULL,
    event jsonb NOT NULL,
    PRIMARY KEY (xid, seq)
  )`);
  await pool.query(`CREATE INDEX ON ${E} (tenant, xid, seq)`);
  await pool.query(`CREATE INDEX ON ${E} (occurred_at)`);
}
if (checks.has('count')) {
  await pool.query(`CREATE TABLE ${C} (
    tenant text COLLATE "C" NOT NULL,
    shard smallint NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (tenant, shard)
  )`);
}
if (checks.has('groups')) {
  await pool.query(`CREATE TABLE ${G} (
    tenant text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    display_name text NOT NULL,
    doc jsonb NOT NULL,
    PRIMARY KEY (tenant, id)
  )`);
  await pool.query(`CREATE TABLE ${M} (
    tenant text COLLATE "C" NOT NULL,
    group_id text COLLATE "C" NOT NULL,
    member_id text COLLATE "C" NOT NULL,
    PRIMARY KEY (tenant, group_id, member_id)
  )`);
  await pool.query(`CREATE INDEX ON ${M} (tenant, member_id)`);
}
let stopping = false;
let delivering = Promise.resolve();
if (checks.has('invite')) {
  await pool.query(`CREATE TABLE ${A} (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscriber text COLLATE "C" NOT NULL,
    tenant text COLLATE "C" NOT NULL,
    event_id text COLLATE "C" NOT NULL,
    event_type text NOT NULL,
    attempt integer NOT NULL,
    status text NOT NULL,
    error text,
    at timestamptz NOT NULL
  )`);
  await pool.query(`CREATE INDEX ON ${A} (tenant, seq)`);
  await pool.query(`CREATE INDEX ON ${A} (at)`);
  await pool.query(`CREATE TABLE ${K} (
    subscriber text COLLATE "C" NOT NULL,
    tenant text COLLATE "C" NOT NULL,
    xid xid8 NOT NULL,
    seq bigint NOT NULL,
    PRIMARY KEY (subscriber, tenant)
  )`);
  await pool.query(`INSERT INTO ${K} VALUES ('welcome', $1, '0', 0)`, [TENANT]);
  delivering = deliver();
}

/** A welcome email made from an invitation, as scimkit's mailer receives it. */
const welcome = (e) => ({
  to: e.data.resource.userName,
  userId: e.data.resource.id,
  idempotencyKey: invitationId(e),
});
/** The kit's mailer: sends nothing. */
const sendWelcome = async () => {};

// Delivers the welcome emails page by page, from the checkpoint, until the server stops.
async function deliver() {
  let xid = '0';
  let seq = 0;
  while (!stopping) {
    const { rows } = await q(SQL.feed, [TENANT, xid, seq, 100]);
    if (rows.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      continue;
    }
    // Past every event, not only the invitations: a checkpoint left at the last invitation
    // would have each read scan all the writes after it.
    const invitations = rows.filter((row) => row.event !== null);
    const last = rows[rows.length - 1];
    if (invitations.length > 0) {
      await Promise.all(invitations.map((row) => sendWelcome(welcome(row.event))));
      await q(SQL.delivered, [
        TENANT,
        invitations.map((row) => invitationId(row.event)),
        last.xid,
        last.seq,
      ]);
    }
    ({ xid, seq } = last);
    if (rows.length < 100) await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, () => {
    stopping = true;
    delivering.finally(() => pool.end()).finally(() => process.exit(0));
  });
server.listen(PORT, HOST, () =>
  console.log(`${NAME} listening on http://${HOST}:${PORT}${PREFIX} pid=${process.pid}`),
);
