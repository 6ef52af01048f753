import { describe, expect, it } from 'vitest';
import { defineAttribute, defineSchema, type RequestCompletedEvent } from '../../src/index.js';
import { MemoryResourceStore } from '../../src/stores/memory/index.js';
import { patchBody, setup } from '../core/harness.js';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const DEVICE = 'urn:example:params:scim:schemas:fleet:2.0:Device';
// A host type with a boolean, which `stringBooleans` reads from Entra's `"True"`.
const deviceSchema = defineSchema({
  id: DEVICE,
  name: 'Device',
  description: 'A managed laptop',
  attributes: [defineAttribute('serial', 'string'), defineAttribute('enabled', 'boolean')],
});

function listening() {
  const harness = setup({
    resourceTypes: [
      {
        name: 'Device',
        endpoint: '/Devices',
        schema: deviceSchema,
        store: new MemoryResourceStore(),
      },
    ],
  });
  const events: RequestCompletedEvent[] = [];
  harness.scim.onRequest((event) => events.push(event));
  return { ...harness, last: () => events.at(-1) as RequestCompletedEvent };
}

const renamed = (path: string, received: string) => ({
  rule: 'canonicalName',
  path,
  received,
  stored: 'displayName',
});

describe('request.completed explains the writes of every resource type', () => {
  it('names the normalisations of a Group POST, PUT and PATCH', async () => {
    const { request, last } = listening();
    const created = await request('POST', '/Groups', {
      body: { schemas: [GROUP], DisplayName: 'Staff' },
    });
    expect(created.status).toBe(201);
    expect(last().normalisations).toEqual([renamed('displayName', 'DisplayName')]);
    const { id } = created.body as { id: string };

    const replaced = await request('PUT', `/Groups/${id}`, {
      body: { schemas: [GROUP], DISPLAYNAME: 'Teachers' },
    });
    expect(replaced.status).toBe(200);
    expect(last().normalisations).toEqual([renamed('displayName', 'DISPLAYNAME')]);

    const patched = await request('PATCH', `/Groups/${id}`, {
      body: patchBody({ op: 'replace', value: { displayname: 'Faculty' } }),
    });
    expect(patched.status).toBe(204);
    expect(last().normalisations).toEqual([
      renamed('Operations[0].value.displayName', 'displayname'),
    ]);
    // The public `before` / `after` stay the user's: a group request has none.
    expect(last().after).toBeUndefined();
  });

  it('names the value rules of a host resource type in rulesFired', async () => {
    const { request, last } = listening();
    const created = await request('POST', '/Devices', {
      body: { schemas: [DEVICE], serial: 'C02X', enabled: 'True' },
    });
    expect(created.status).toBe(201);
    expect(created.body.enabled).toBe(true);
    const stringTrue = { rule: 'stringBooleans', received: 'True', became: true };
    expect(last().rulesFired).toEqual([{ ...stringTrue, where: 'enabled' }]);

    const patched = await request('PATCH', `/Devices/${created.body.id as string}`, {
      body: patchBody({ op: 'replace', path: 'enabled', value: 'False' }),
    });
    expect(patched.status).toBe(200);
    expect(last().rulesFired).toEqual([
      { rule: 'stringBooleans', where: 'Operations[0].value', received: 'False', became: false },
    ]);
  });
});
