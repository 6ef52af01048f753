import { describe, expect, it } from 'vitest';
import { patchBody, setup, USER_SCHEMA } from '../core/harness.js';

// POST, PUT and PATCH read values under the same dialect switches: with
// `patchRules.stringBooleans: false`, "True" is refused by all three, not by PATCH alone.
describe('the dialect switches hold on POST, PUT and PATCH alike', () => {
  const user = (extra: Record<string, unknown>) => ({
    schemas: [USER_SCHEMA],
    userName: 'ada@x.org',
    ...extra,
  });

  it('stringBooleans off: "True" is a 400 on POST, PUT and PATCH; true still works', async () => {
    const api = setup({ patchRules: { stringBooleans: false } });
    const post = await api.request('POST', '/Users', { body: user({ active: 'True' }) });
    expect(post.status).toBe(400);
    expect(post.body.detail).toBe('"active" must be a boolean; got "True".');
    const made = await api.request('POST', '/Users', { body: user({ active: true }) });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const put = await api.request('PUT', `/Users/${id}`, {
      body: user({ emails: [{ value: 'ada@x.org', primary: 'False' }] }),
    });
    expect(put.status).toBe(400);
    expect(put.body.scimType).toBe('invalidValue');
    const patch = await api.request('PATCH', `/Users/${id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: 'False' }),
    });
    expect(patch.status).toBe(400);
    expect((await api.request('GET', `/Users/${id}`)).body.active).toBe(true);
  });

  it('stringBooleans on (the default): "True" is true everywhere', async () => {
    const api = setup();
    const made = await api.request('POST', '/Users', { body: user({ active: 'True' }) });
    expect(made.body.active).toBe(true);
    const put = await api.request('PUT', `/Users/${made.body.id as string}`, {
      body: user({ active: 'FALSE' }),
    });
    expect(put.body.active).toBe(false);
  });

  it('managerString off: a bare string for a complex value is a 400 on POST as on PATCH', async () => {
    const api = setup({ patchRules: { managerString: false } });
    const post = await api.request('POST', '/Users', { body: user({ emails: ['ada@x.org'] }) });
    expect(post.status).toBe(400);
    expect(post.body.scimType).toBe('invalidValue');
  });
});
