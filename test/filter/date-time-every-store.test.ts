import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAttribute as attr } from '../../src/schema/define-attribute.js';
import { defineSchema } from '../../src/schema/define-schema.js';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { patchBody, setup, USER_SCHEMA } from '../core/harness.js';

const SCHOOL = 'urn:example:params:scim:schemas:extension:school:2.0:User';
const school = defineSchema({
  id: SCHOOL,
  name: 'School',
  description: 'Enrolment',
  attributes: [attr('enrolledAt', 'dateTime')],
});

// A date-time written with IdP spelling (`+0200`) must be found by a date filter, and the same
// text must be a valid filter literal, on every store.
describe.each(everyStore)('date-time values on the $name store', ({ open }) => {
  let opened: OpenedStore;
  let api: ReturnType<typeof setup>;
  beforeAll(async () => {
    opened = await open();
    api = setup({ store: opened.store, extensions: [school] });
  }, 60_000);
  afterAll(() => opened.close());

  const create = async (userName: string, enrolledAt: unknown) =>
    api.request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA, SCHOOL], userName, [SCHOOL]: { enrolledAt } },
    });
  const found = async (filter: string) => {
    const reply = await api.request('GET', '/Users', {
      query: `filter=${encodeURIComponent(filter)}`,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return (reply.body.Resources as Array<{ userName: string }>).map((u) => u.userName).sort();
  };

  it('finds a value stored as +0200 by a date filter, and reads +0200 in a literal', async () => {
    const made = await create('colon-less@x.org', '2026-01-31T12:00:00+0200');
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body[SCHOOL].enrolledAt).toBe('2026-01-31T12:00:00+02:00');
    // Written by PATCH too, with and without a path.
    const patched = await create('patched@x.org', '2020-01-01T00:00:00Z');
    const id = patched.body.id as string;
    const withPath = await api.request('PATCH', `/Users/${id}`, {
      body: patchBody({
        op: 'replace',
        path: `${SCHOOL}:enrolledAt`,
        value: '2026-01-31T11:00:00+0100',
      }),
    });
    expect(withPath.body[SCHOOL].enrolledAt).toBe('2026-01-31T11:00:00+01:00');

    const at = `${SCHOOL}:enrolledAt`;
    expect(await found(`${at} eq "2026-01-31T10:00:00Z"`)).toEqual([
      'colon-less@x.org',
      'patched@x.org',
    ]);
    expect(await found(`${at} eq "2026-01-31T12:00:00+0200"`)).toEqual([
      'colon-less@x.org',
      'patched@x.org',
    ]);
    expect(await found(`${at} gt "2026-01-31T11:59:59+0200"`)).toEqual([
      'colon-less@x.org',
      'patched@x.org',
    ]);
    expect(await found(`${at} lt "2026-01-31T12:00:00+0200"`)).toEqual([]);

    const pathless = await api.request('PATCH', `/Users/${id}`, {
      body: patchBody({ op: 'replace', value: { [at]: '2026-02-01T00:00' } }),
    });
    expect(pathless.body[SCHOOL].enrolledAt).toBe('2026-02-01T00:00:00Z');
    expect(await found(`${at} ge "2026-02-01T00:00:00Z"`)).toEqual(['patched@x.org']);
  });

  it('refuses a date-time a store could not compare, on every way in, with a 400', async () => {
    const made = await create('bad@x.org', '2026-01-31T12:00:00+16:00');
    expect(made.status).toBe(400);
    expect(made.body.scimType).toBe('invalidValue');
    const ok = await create('ok@x.org', '2026-01-31T12:00:00Z');
    const patched = await api.request('PATCH', `/Users/${ok.body.id as string}`, {
      body: patchBody({
        op: 'replace',
        path: `${SCHOOL}:enrolledAt`,
        value: '2026-02-30T00:00:00Z',
      }),
    });
    expect(patched.status).toBe(400);
    expect(patched.body.scimType).toBe('invalidValue');
    expect(await found(`${SCHOOL}:enrolledAt pr`)).toEqual([
      'colon-less@x.org',
      'ok@x.org',
      'patched@x.org',
    ]);
  });
});
