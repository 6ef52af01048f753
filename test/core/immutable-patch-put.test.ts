import { describe, expect, it } from 'vitest';
import { DISTRICT, districtSchema } from '../schema/fixtures.js';
import { patchBody, setup, USER_SCHEMA } from './harness.js';

// RFC 7643 §7 immutable: a value may be set once, then not changed. PUT and PATCH apply the
// one rule of src/schema/check-immutable.ts: strings compare regardless of case (foldCase)
// unless caseExact, multi-valued values in any order, and the stored value stays as it was.
const STORED = {
  studentNumber: 'S-100', // caseExact
  homeRoom: 'ας-b12', // not caseExact; final sigma
  tags: ['chess', 'choir'],
  guardian: { name: 'Grace', since: '2020-09-01T00:00:00Z' },
};

async function storedUser() {
  const ctx = setup({ extensions: [districtSchema] });
  const { id } = await ctx.createUser('ada@example.org', {
    schemas: [USER_SCHEMA, DISTRICT],
    [DISTRICT]: STORED,
  });
  return { ...ctx, id: id as string };
}

type Attr = keyof typeof STORED;
const cases: Array<{ name: string; attr: Attr; value: unknown; accepted: boolean }> = [
  {
    name: 'the same string in another case (ς/σ)',
    attr: 'homeRoom',
    value: 'ΑΣ-B12',
    accepted: true,
  },
  { name: 'the same string, medial sigma', attr: 'homeRoom', value: 'ασ-B12', accepted: true },
  { name: 'another string', attr: 'homeRoom', value: 'b13', accepted: false },
  {
    name: 'a caseExact string in another case',
    attr: 'studentNumber',
    value: 's-100',
    accepted: false,
  },
  {
    name: 'the same members in another order and case',
    attr: 'tags',
    value: ['CHOIR', 'chess'],
    accepted: true,
  },
  { name: 'fewer members', attr: 'tags', value: ['chess'], accepted: false },
  {
    name: 'a complex value changing its immutable sub-attribute',
    attr: 'guardian',
    value: { name: 'Grace', since: '2021-01-01T00:00:00Z' },
    accepted: false,
  },
  {
    name: 'a complex value keeping its immutable sub-attribute',
    attr: 'guardian',
    value: { name: 'Grace Hopper', since: '2020-09-01T00:00:00Z' },
    accepted: true,
  },
];

describe('PUT and PATCH apply one immutability rule', () => {
  for (const { name, attr, value, accepted } of cases) {
    it(`${accepted ? 'accept' : 'refuse'} ${name}`, async () => {
      const { request, id } = await storedUser();
      const before = (await request('GET', `/Users/${id}`)).body;
      const put = await request('PUT', `/Users/${id}`, {
        body: {
          schemas: [USER_SCHEMA, DISTRICT],
          userName: 'ada@example.org',
          [DISTRICT]: { ...STORED, [attr]: value },
        },
      });
      const patch = await request('PATCH', `/Users/${id}`, {
        body: patchBody({ op: 'replace', path: `${DISTRICT}:${attr}`, value }),
      });
      const path = { body: patchBody({ op: 'replace', value: { [DISTRICT]: { [attr]: value } } }) };
      const pathLess = await request('PATCH', `/Users/${id}`, path);
      for (const reply of [put, patch, pathLess]) {
        expect(reply.status).toBe(accepted ? 200 : 400);
      }
      const after = (await request('GET', `/Users/${id}`)).body;
      if (accepted) {
        // An immutable value restated in another spelling or order stays as it was stored.
        const kept =
          attr === 'guardian'
            ? { ...(value as object), since: STORED.guardian.since }
            : STORED[attr];
        expect(after[DISTRICT][attr]).toEqual(kept);
        return;
      }
      expect(after).toEqual(before);
      expect(put.body.scimType).toBe('mutability');
      // One rule, one message: PATCH only says which operation.
      expect(patch.body.detail).toBe(`Operation 1: ${put.body.detail}`);
      expect(pathLess.body.detail).toBe(`Operation 1: ${put.body.detail}`);
    });
  }

  it('PATCH refuses to remove a set immutable value; PUT keeps one it leaves out', async () => {
    const { request, id } = await storedUser();
    for (const path of ['homeRoom', 'tags', 'guardian.since', 'guardian']) {
      const removed = await request('PATCH', `/Users/${id}`, {
        body: patchBody({ op: 'remove', path: `${DISTRICT}:${path}` }),
      });
      expect([path, removed.status, removed.body.scimType]).toEqual([path, 400, 'mutability']);
    }
    const put = await request('PUT', `/Users/${id}`, {
      body: {
        schemas: [USER_SCHEMA, DISTRICT],
        userName: 'ada@example.org',
        [DISTRICT]: { grade: 3 },
      },
    });
    expect(put.status).toBe(200);
    expect(put.body[DISTRICT]).toEqual({
      ...STORED,
      guardian: { since: STORED.guardian.since },
      grade: 3,
    });
  });

  it('both set an unset immutable value', async () => {
    const { request, createUser } = setup({ extensions: [districtSchema] });
    const { id } = await createUser('ada@example.org');
    const patch = await request('PATCH', `/Users/${id}`, {
      body: patchBody({ op: 'add', path: `${DISTRICT}:homeRoom`, value: 'A1' }),
    });
    expect(patch.body[DISTRICT]).toEqual({ homeRoom: 'A1' });
    const other = await createUser('grace@example.org');
    const put = await request('PUT', `/Users/${other.id}`, {
      body: {
        schemas: [USER_SCHEMA, DISTRICT],
        userName: 'grace@example.org',
        [DISTRICT]: { homeRoom: 'A1' },
      },
    });
    expect(put.body[DISTRICT]).toEqual({ homeRoom: 'A1' });
  });
});
