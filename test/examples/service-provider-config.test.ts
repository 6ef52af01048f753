// /ServiceProviderConfig advertises exactly what works: one test reads it from the example
// server and exercises every feature it names, so a claim that stops being true, or a feature
// that works while advertised as unsupported, turns the test red.
import { describe, expect, it } from 'vitest';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { exampleStores, sendTo, serveDuringTests } from './example-stores.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const KEY = 'k1';

const send = (url: string, method: string, body?: unknown, headers = {}) =>
  sendTo(url, method, KEY, body, headers);

// The PostgreSQL server serves what PGlite does (one SQL store): memory and PGlite suffice.
const stores = exampleStores('spc').slice(0, 2);

describe.each(stores)('/ServiceProviderConfig on the example server ($name)', (store) => {
  const served = serveDuringTests(store);

  it('advertises each feature exactly as it works', { timeout: 120_000 }, async () => {
    const url = served();
    const spc = (await send(`${url}/ServiceProviderConfig`, 'GET')).body;
    expect(spc.schemas).toEqual([SPC_SCHEMA]);
    // Every feature RFC 7643 §5 and RFC 9865 §4 define is stated, and nothing else is.
    expect(Object.keys(spc).sort()).toEqual(
      [
        'authenticationSchemes',
        'bulk',
        'changePassword',
        'documentationUri',
        'etag',
        'filter',
        'meta',
        'pagination',
        'patch',
        'schemas',
        'sort',
      ].sort(),
    );

    // bulk: up to maxOperations and maxPayloadSize, 413 beyond either.
    const { maxOperations, maxPayloadSize } = spc.bulk;
    const bulkOf = (operations: unknown[], extra: Record<string, unknown> = {}) =>
      send(`${url}/Bulk`, 'POST', { schemas: [BULK], Operations: operations, ...extra });
    const filler = maxResultsPlusOne(spc.filter.maxResults);
    const created = await bulkOf(
      filler.map((userName, i) => ({
        method: 'POST',
        path: '/Users',
        bulkId: `u${i}`,
        data: { schemas: [USER_SCHEMA], userName },
      })),
    );
    const bulkWorks =
      created.status === 200 &&
      created.body.Operations.every((o: { status: string }) => o.status === '201');
    expect(spc.bulk.supported).toBe(bulkWorks);
    const deletes = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ method: 'DELETE', path: `/Users/none-${i}` }));
    expect((await bulkOf(deletes(maxOperations))).status).toBe(200);
    expect((await bulkOf(deletes(maxOperations + 1))).status).toBe(413);
    const envelope = JSON.stringify({ schemas: [BULK], Operations: [], pad: '' }).length;
    const atLimit = JSON.stringify({
      schemas: [BULK],
      Operations: [],
      pad: 'x'.repeat(maxPayloadSize - envelope),
    });
    expect(new TextEncoder().encode(atLimit).length).toBe(maxPayloadSize);
    expect((await send(`${url}/Bulk`, 'POST', atLimit)).status).toBe(200);
    const over = JSON.stringify({
      schemas: [BULK],
      Operations: [],
      pad: 'x'.repeat(maxPayloadSize - envelope + 1),
    });
    expect((await send(`${url}/Bulk`, 'POST', over)).status).toBe(413);

    // filter: a filter is applied, and one page holds at most maxResults.
    const filter = encodeURIComponent('userName sw "spc-"');
    const filtered = await send(
      `${url}/Users?filter=${filter}&count=${spc.filter.maxResults + 50}`,
      'GET',
    );
    expect(spc.filter.supported).toBe(
      filtered.status === 200 && filtered.body.totalResults === filler.length,
    );
    expect(filtered.body.Resources).toHaveLength(spc.filter.maxResults);

    // patch
    const id = filtered.body.Resources[0].id as string;
    const patched = await send(`${url}/Users/${id}`, 'PATCH', {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'title', value: 'Patched' }],
    });
    expect(spc.patch.supported).toBe(patched.status === 200 && patched.body.title === 'Patched');

    // changePassword: the example server gives no onPassword hook, so a password goes nowhere.
    expect(spc.changePassword.supported).toBe(false);

    // sort
    const sorted = await send(
      `${url}/Users?filter=${filter}&sortBy=userName&sortOrder=descending&count=3`,
      'GET',
    );
    const names =
      sorted.status === 200
        ? sorted.body.Resources.map((r: { userName: string }) => r.userName)
        : [];
    expect(spc.sort.supported).toBe(
      names.length === 3 && names[0] === [...filler].sort().reverse()[0],
    );

    // etag: a version on every read, 304 for a current one, 412 for a stale one.
    const read = await send(`${url}/Users/${id}`, 'GET');
    const etag = read.headers.get('etag') ?? '';
    const notModified = await send(`${url}/Users/${id}`, 'GET', undefined, {
      'if-none-match': etag,
    });
    await send(`${url}/Users/${id}`, 'PATCH', {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'title', value: 'Again' }],
    });
    const stale = await send(
      `${url}/Users/${id}`,
      'PATCH',
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'title', value: 'Lost' }] },
      { 'if-match': etag },
    );
    expect(spc.etag.supported).toBe(
      etag !== '' && notModified.status === 304 && stale.status === 412,
    );

    // pagination (RFC 9865 §4): index paging by default, with its page sizes; cursors.
    const p = spc.pagination;
    const plain = await send(`${url}/Users`, 'GET');
    expect(p.defaultPaginationMethod).toBe('index');
    expect(p.index).toBe(plain.body.startIndex === 1 && plain.body.nextCursor === undefined);
    expect(plain.body.Resources).toHaveLength(p.defaultPageSize);
    const big = await send(`${url}/Users?count=${p.maxPageSize + 1}`, 'GET');
    expect(big.body.Resources).toHaveLength(p.maxPageSize);
    const first = await send(`${url}/Users?cursor=&count=${p.defaultPageSize}`, 'GET');
    const second =
      typeof first.body?.nextCursor === 'string'
        ? await send(
            `${url}/Users?cursor=${encodeURIComponent(first.body.nextCursor)}&count=${p.defaultPageSize}`,
            'GET',
          )
        : undefined;
    const cursorWorks =
      first.status === 200 &&
      second?.status === 200 &&
      second.body.Resources[0]?.id !== first.body.Resources[0]?.id &&
      typeof second.body.previousCursor === 'string';
    expect(p.cursor).toBe(cursorWorks);
    // RFC 9865 §3: a count above maxPageSize is refused with cursors, not lowered.
    const tooMany = await send(`${url}/Users?cursor=&count=${p.maxPageSize + 1}`, 'GET');
    expect([tooMany.status, tooMany.body.scimType]).toEqual([400, 'invalidCount']);
    expect(p.cursorTimeout).toBe(3600);

    // authenticationSchemes: the bearer token is the one way in.
    expect(spc.authenticationSchemes).toEqual([
      expect.objectContaining({ type: 'oauthbearertoken', primary: true }),
    ]);
    const anonymous = await fetch(`${url}/Users`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await send(`${url}/Users?count=1`, 'GET')).status).toBe(200);
  });
});

/** More users than one filtered page may hold: `spc-000@example.org` and on. */
function maxResultsPlusOne(maxResults: number): string[] {
  return Array.from(
    { length: maxResults + 1 },
    (_, i) => `spc-${String(i).padStart(3, '0')}@example.org`,
  );
}

describe('/ServiceProviderConfig changePassword', () => {
  it('is advertised when, and only when, a password a client sends reaches the host', async () => {
    const received: string[] = [];
    const serve = (onPassword?: (t: string, id: string, password: string) => void) =>
      createScim({
        store: new MemoryUserStore(),
        verifier: staticApiKeys([{ key: KEY, tenant: 't' }]),
        mailer: { sendWelcome: async () => {} },
        ...(onPassword ? { onPassword } : {}),
      });
    for (const scim of [serve((_t, _id, password) => void received.push(password)), serve()]) {
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/scim+json' };
      const spc = JSON.parse(
        (await scim.handle({ method: 'GET', path: '/ServiceProviderConfig', headers }))
          .body as string,
      );
      const before = received.length;
      const created = await scim.handle({
        method: 'POST',
        path: '/Users',
        headers,
        body: JSON.stringify({
          schemas: [USER_SCHEMA],
          userName: 'pw@example.org',
          password: 'Secret-1',
        }),
      });
      expect(created.status).toBe(201);
      expect(spc.changePassword.supported).toBe(received.length > before);
      await scim.close();
    }
  });
});
