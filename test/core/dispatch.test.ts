import { describe, expect, it } from 'vitest';
import type {
  ScimAdmission,
  ScimRequest,
  ScimRequestHead,
  ScimResponse,
  Tenant,
} from '../../src/index.js';
import { BASE, KEY_A, ORIGIN, USER_SCHEMA, setup } from './harness.js';

const MiB = 1024 * 1024;

function head(path: string, headers: Record<string, string>, method = 'GET'): ScimRequestHead {
  return { method, path: `${BASE}${path}`, headers, baseUrl: ORIGIN };
}

function asResponse(admission: ScimAdmission): ScimResponse {
  if (typeof admission === 'function') throw new Error('expected an answer, got the body phase');
  return admission;
}

const userJson = (userName: string): Uint8Array =>
  new TextEncoder().encode(JSON.stringify({ schemas: [USER_SCHEMA], userName }));

describe('scim.begin: the head phase, before any body is read', () => {
  it('answers 401 before the body is read', async () => {
    const { scim } = setup();
    const admitted = scim.begin(
      head(
        '/Users',
        { 'content-type': 'application/scim+json', 'content-length': `${MiB}` },
        'POST',
      ),
    );
    const response = asResponse(await admitted);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    // Its body is still on the wire: the answer closes the connection instead of reading it.
    expect(response.headers.connection).toBe('close');
  });

  it('keeps the connection of a refused request that declared no body', async () => {
    const { scim } = setup();
    const response = asResponse(await scim.begin(head('/Users', {})));
    expect(response.status).toBe(401);
    expect(response.headers.connection).toBeUndefined();
  });

  it('admits a request and answers it in the body phase', async () => {
    const { scim } = setup();
    const headers = {
      authorization: `Bearer ${KEY_A}`,
      'content-type': 'application/scim+json',
      'content-length': '60',
    };
    const admitted = await scim.begin(head('/Users', headers, 'POST'));
    expect(typeof admitted).toBe('function');
    const phase = admitted as Exclude<ScimAdmission, ScimResponse>;
    const created = await phase(userJson('phases@example.org'), 'complete');
    expect(created.status).toBe(201);
    expect(created.headers.connection).toBeUndefined();
  });

  it('hands the handler the head with the body read, and a host hook sees every field', async () => {
    const seen: ScimRequest[] = [];
    const { scim } = setup({
      me: (_tenant, request) => {
        seen.push(request);
        return null;
      },
    });
    const headers = { authorization: `Bearer ${KEY_A}`, 'content-length': '2' };
    const sent = { ...head('/Me', headers, 'PUT'), query: 'attributes=userName' };
    const phase = (await scim.begin(sent, () => 'session-7')) as Exclude<
      ScimAdmission,
      ScimResponse
    >;
    const body = new TextEncoder().encode('{}');
    expect((await phase(body, 'complete')).status).toBe(404);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ ...sent, context: 'session-7', body });
    expect(sent).not.toHaveProperty('body');
  });

  it.each([
    ['a Content-Length over the limit', { 'content-length': `${2 * MiB}` }, 413],
    ['a media type scimkit does not read', { 'content-type': 'text/plain' }, 415],
  ])('answers %s from the headers alone', async (_case, extra, status) => {
    const { scim } = setup();
    const headers = {
      authorization: `Bearer ${KEY_A}`,
      'content-type': 'application/scim+json',
      'content-length': '100',
      ...extra,
    };
    const response = asResponse(await scim.begin(head('/Users', headers, 'POST')));
    expect(response.status).toBe(status);
    expect(response.headers.connection).toBe('close');
  });

  it('answers 404 and 405 before the body', async () => {
    const { scim } = setup();
    const headers = { authorization: `Bearer ${KEY_A}`, 'transfer-encoding': 'chunked' };
    expect(asResponse(await scim.begin(head('/Widgets', headers, 'POST'))).status).toBe(404);
    expect(asResponse(await scim.begin(head('/Users', headers, 'DELETE'))).status).toBe(405);
  });
});

describe('the body phase', () => {
  const headers = {
    authorization: `Bearer ${KEY_A}`,
    'content-type': 'application/scim+json',
    'transfer-encoding': 'chunked',
  };
  const phaseOf = async (scim: ReturnType<typeof setup>['scim']) =>
    (await scim.begin(head('/Users', headers, 'POST'))) as Exclude<ScimAdmission, ScimResponse>;

  it('answers 408 and closes when the body did not arrive in time, writing nothing', async () => {
    const { scim, allUsers } = setup();
    const response = await (await phaseOf(scim))(undefined, 'timeout');
    expect(response.status).toBe(408);
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body ?? '')).toMatchObject({ status: '408' });
    expect(await allUsers()).toEqual([]);
  });

  it('answers 400 and closes when the client went away mid-body', async () => {
    const { scim } = setup();
    const response = await (await phaseOf(scim))(undefined, 'aborted');
    expect(response.status).toBe(400);
    expect(response.headers.connection).toBe('close');
  });

  it('answers 413 and closes for a body cut at the limit', async () => {
    const { scim } = setup();
    const response = await (await phaseOf(scim))(new Uint8Array(MiB + 1), 'cut');
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe('close');
  });

  it('closes after answering a request whose declared body the adapter did not read', async () => {
    const { scim } = setup();
    const get = (await scim.begin(
      head('/Users', { ...headers, 'content-length': '10' }),
    )) as Exclude<ScimAdmission, ScimResponse>;
    const response = await get(undefined);
    expect(response.status).toBe(200);
    expect(response.headers.connection).toBe('close');
  });
});

describe('the context hook', () => {
  it('runs inside the core after authentication: a throw is a SCIM 500 that onError sees', async () => {
    const errors: { error: unknown; request: ScimRequest | undefined }[] = [];
    const { scim } = setup({ onError: (error, request) => errors.push({ error, request }) });
    let calls = 0;
    const failing = () => {
      calls++;
      throw new Error('host detail: pool exhausted');
    };
    const anonymous = asResponse(await scim.begin(head('/Users', {}), failing));
    expect(anonymous.status).toBe(401);
    expect(calls).toBe(0);
    const response = asResponse(
      await scim.begin(head('/Users', { authorization: `Bearer ${KEY_A}` }), failing),
    );
    expect(response.status).toBe(500);
    expect(response.body).not.toContain('pool exhausted');
    expect(errors).toHaveLength(1);
    expect((errors[0]?.error as Error).message).toBe('host detail: pool exhausted');
    expect(errors[0]?.request?.path).toBe(`${BASE}/Users`);
  });
});

describe('the rateLimit hook', () => {
  const authorised = head('/Users', { authorization: `Bearer ${KEY_A}` });

  it('receives the tenant and the head with its context, and lets true through', async () => {
    const seen: { tenant: Tenant; context: unknown }[] = [];
    const { scim } = setup({
      rateLimit: (tenant, request) => {
        seen.push({ tenant, context: request.context });
        return true;
      },
    });
    const admitted = await scim.begin(authorised, () => ({ requestId: 'r-1' }));
    expect(typeof admitted).toBe('function');
    expect(seen).toEqual([{ tenant: { id: 'tenant-a' }, context: { requestId: 'r-1' } }]);
  });

  it.each([
    ['false', () => false, null],
    ['a wait of 2.1 s', () => ({ retryAfterSeconds: 2.1 }), '3'],
    ['a promise of a wait', () => Promise.resolve({ retryAfterSeconds: 0 }), '0'],
  ])('answers 429 to %s', async (_case, verdict, retryAfter) => {
    const { scim } = setup({ rateLimit: verdict });
    const response = asResponse(await scim.begin(authorised));
    expect(response.status).toBe(429);
    expect(JSON.parse(response.body ?? '')).toMatchObject({ status: '429' });
    expect(response.headers['retry-after'] ?? null).toBe(retryAfter);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('redis down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('redis down'))],
  ])('answers a SCIM 500 when the hook %s, and tells onError', async (_case, hook) => {
    const errors: unknown[] = [];
    const { scim } = setup({ rateLimit: hook, onError: (error) => errors.push(error) });
    const response = asResponse(await scim.begin(authorised));
    expect(response.status).toBe(500);
    expect(response.body).not.toContain('redis');
    expect(errors).toHaveLength(1);
  });

  it('applies to handle() too, which runs the same two phases', async () => {
    const { request } = setup({ rateLimit: () => false });
    expect((await request('GET', '/Users')).status).toBe(429);
  });
});

describe('handle() with the body at hand', () => {
  it('does not ask to close the connection: there is nothing left to read', async () => {
    const { scim } = setup();
    const response = await scim.handle({
      method: 'POST',
      path: `${BASE}/Users`,
      headers: { 'content-type': 'application/scim+json', 'content-length': '40' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.connection).toBeUndefined();
  });
});
