import { describe, expect, it } from 'vitest';
import { patchBody, setup, USER_SCHEMA } from './harness.js';

// Every spelling of the password the PATCH engine accepts must reach onPassword: the handler
// reads it from what the engine applied, not from a second reading of the body.
function withHook(overrides: Parameters<typeof setup>[0] = {}) {
  const seen: Array<{ tenant: string; id: string; password: string }> = [];
  const ctx = setup({
    onPassword: (tenant, id, password) => void seen.push({ tenant, id, password }),
    ...overrides,
  });
  return { ...ctx, seen };
}

const URN_PATH = `${USER_SCHEMA}:password`;

describe('PATCH /Users/{id} hands the password to onPassword', () => {
  const forms: Array<[string, Record<string, unknown>]> = [
    ['path "password"', { op: 'replace', path: 'password', value: 'pw' }],
    ['path "PassWord"', { op: 'add', path: 'PassWord', value: 'pw' }],
    ['the URN path', { op: 'replace', path: URN_PATH, value: 'pw' }],
    ['the URN path in another case', { op: 'replace', path: URN_PATH.toUpperCase(), value: 'pw' }],
    ['a path-less key', { op: 'replace', value: { password: 'pw' } }],
    ['a path-less key in another case', { op: 'Add', value: { PASSWORD: 'pw' } }],
    ['a path-less URN key', { op: 'replace', value: { [URN_PATH]: 'pw' } }],
    [
      'a path-less core URN object',
      { op: 'replace', value: { [USER_SCHEMA]: { password: 'pw' } } },
    ],
  ];
  for (const [name, operation] of forms) {
    it(`by ${name}`, async () => {
      const { request, createUser, store, seen } = withHook();
      const { id } = await createUser('ada@example.org');
      const reply = await request('PATCH', `/Users/${id}`, { body: patchBody(operation) });
      expect(reply.status).toBe(200);
      expect(seen).toEqual([{ tenant: 'tenant-a', id, password: 'pw' }]);
      expect(JSON.stringify(reply.body)).not.toContain('"pw"');
      expect(JSON.stringify(store.peek('tenant-a', id))).not.toContain('"pw"');
    });
  }

  it('hands over the last password of the request once, beside other changes', async () => {
    const { request, createUser, seen } = withHook();
    const { id } = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${id}`, {
      body: patchBody(
        { op: 'replace', path: 'password', value: 'first' },
        { op: 'replace', value: { displayName: 'Ada', [URN_PATH]: 'second' } },
      ),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.displayName).toBe('Ada');
    expect(seen.map((s) => s.password)).toEqual(['second']);
  });

  it('hands over nothing when the PATCH fails, and refuses a password that is not a string', async () => {
    const { request, createUser, seen } = withHook();
    const { id } = await createUser('ada@example.org');
    const failed = await request('PATCH', `/Users/${id}`, {
      body: patchBody(
        { op: 'replace', path: URN_PATH, value: 'pw' },
        { op: 'replace', path: 'noSuchAttribute', value: 1 },
      ),
    });
    expect(failed.status).toBe(400);
    expect(failed.body.scimType).toBe('invalidPath');
    for (const value of [42, { value: 'pw' }, ['pw']]) {
      const wrong = await request('PATCH', `/Users/${id}`, {
        body: patchBody({ op: 'replace', path: URN_PATH, value }),
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.scimType).toBe('invalidValue');
    }
    const missing = await request('PATCH', `/Users/${id}`, {
      body: patchBody({ op: 'add', path: 'password' }),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.scimType).toBe('invalidValue');
    expect(seen).toEqual([]);
  });

  it('hands over nothing for a remove, and ignores a path-less URN key with urnKeys off', async () => {
    const { request, createUser, seen } = withHook({ patchRules: { urnKeys: false } });
    const { id } = await createUser('ada@example.org');
    for (const operation of [
      { op: 'remove', path: 'password' },
      { op: 'replace', value: { [URN_PATH]: 'pw' } },
    ]) {
      expect((await request('PATCH', `/Users/${id}`, { body: patchBody(operation) })).status).toBe(
        200,
      );
    }
    expect(seen).toEqual([]);
  });
});

describe('POST and PUT read the password from the validated body', () => {
  it('in any case of its name, and refuse one that is not a string', async () => {
    const { request, seen } = withHook();
    const created = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', PassWord: 'p1' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const put = await request('PUT', `/Users/${id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', PASSWORD: 'p2' },
    });
    expect(put.status).toBe(200);
    const wrong = await request('PUT', `/Users/${id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', password: 42 },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.scimType).toBe('invalidValue');
    expect(seen.map((s) => s.password)).toEqual(['p1', 'p2']);
  });
});
