import { describe, expect, it } from 'vitest';
import { defineAttribute } from '../../src/schema/define-attribute.js';
import { defineSchema } from '../../src/schema/define-schema.js';
import { setup, USER_SCHEMA } from './harness.js';

const DISTRICT = 'urn:example:params:scim:schemas:extension:district:2.0:User';
const districtSchema = defineSchema({
  id: DISTRICT,
  name: 'District',
  description: 'District student data',
  attributes: [
    defineAttribute('studentNumber', 'string', { mutability: 'immutable' }),
    defineAttribute('grade', 'integer'),
  ],
});

describe('PUT /Users/{id} and immutable attributes', () => {
  const put = (values: Record<string, unknown>) => ({
    body: { schemas: [USER_SCHEMA, DISTRICT], userName: 'ada@example.org', [DISTRICT]: values },
  });

  it('sets an unset immutable value, accepts it again, keeps it when left out', async () => {
    const { request, createUser } = setup({ extensions: [districtSchema] });
    const { id } = await createUser('ada@example.org');
    expect(
      (await request('PUT', `/Users/${id}`, put({ studentNumber: 'S-1' }))).body[DISTRICT],
    ).toEqual({ studentNumber: 'S-1' });
    expect(
      (await request('PUT', `/Users/${id}`, put({ studentNumber: 'S-1', grade: 9 }))).status,
    ).toBe(200);
    const omitted = await request('PUT', `/Users/${id}`, put({ grade: 10 }));
    expect(omitted.body[DISTRICT]).toEqual({ studentNumber: 'S-1', grade: 10 });
  });

  it('refuses a change with 400 mutability and changes nothing', async () => {
    const { request, createUser } = setup({ extensions: [districtSchema] });
    const { id } = await createUser('ada@example.org', {
      schemas: [USER_SCHEMA, DISTRICT],
      [DISTRICT]: { studentNumber: 'S-1' },
    });
    const before = await request('GET', `/Users/${id}`);
    const reply = await request('PUT', `/Users/${id}`, put({ studentNumber: 'S-2', grade: 11 }));
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('mutability');
    expect(reply.body.detail).toContain(`${DISTRICT}:studentNumber`);
    expect(await request('GET', `/Users/${id}`)).toEqual(before);
  });
});
