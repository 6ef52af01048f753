import { describe, expect, it, vi } from 'vitest';
import { RequestHub } from '../../src/core/events/request-hub.js';
import { staticApiKeys, type RequestCompletedEvent } from '../../src/index.js';
import { KEY_A, USER_SCHEMA, patchBody, setup } from '../core/harness.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const STRICT_KEY = 'key-strict';

function listening() {
  const harness = setup({
    verifier: staticApiKeys([
      { key: KEY_A, tenant: 'tenant-a' },
      { key: STRICT_KEY, tenant: 'tenant-s', profile: 'strict' },
    ]),
  });
  const events: RequestCompletedEvent[] = [];
  harness.scim.onRequest((event) => events.push(event));
  return { ...harness, events };
}

describe('request.completed rulesFired', () => {
  it('names each PATCH rule where it fired, with what was received and what it became', async () => {
    const { createUser, request, events } = listening();
    const user = await createUser('grace@example.org', {
      active: true,
      roles: [{ value: 'writer' }, { value: 'reader' }],
      [ENTERPRISE]: { manager: { value: 'boss-1' }, department: 'R&D' },
      title: 'Engineer',
    });
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody(
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'replace', value: { 'name.givenName': 'Grace', [`${ENTERPRISE}:costCenter`]: '42' } },
        { op: 'remove', path: 'roles', value: [{ value: 'writer' }] },
        { op: 'add', path: 'emails[type eq "work"].value', value: 'g@example.org' },
        { op: 'replace', path: 'title', value: null },
        { op: 'remove', path: 'manager[value eq "boss-1"]' },
        { op: 'replace', path: `${ENTERPRISE}:department`, value: 'Research' },
      ),
    });
    expect(reply.status).toBe(200);
    expect(events.at(-1)!.rulesFired).toEqual([
      { rule: 'opAnyCase', where: 'Operations[0].op', received: 'Replace', became: 'replace' },
      {
        rule: 'dottedKeys',
        where: 'Operations[1].value.name.givenName',
        received: 'name.givenName',
        became: 'name.givenName',
      },
      {
        rule: 'urnKeys',
        where: `Operations[1].value.${ENTERPRISE}:costCenter`,
        received: `${ENTERPRISE}:costCenter`,
        became: `${ENTERPRISE}:costCenter`,
      },
      {
        rule: 'removeWithValue',
        where: 'Operations[2].value',
        received: [{ value: 'writer' }],
        became: undefined,
      },
      {
        rule: 'filterMissCreates',
        where: 'Operations[3].path',
        received: 'emails[type eq "work"].value',
        became: { type: 'work', value: 'g@example.org' },
      },
      { rule: 'nullClears', where: 'Operations[4].value', received: null, became: undefined },
      {
        rule: 'managerValueFilter',
        where: 'Operations[5].path',
        received: 'manager[value eq "boss-1"]',
        became: undefined,
      },
      {
        rule: 'stringBooleans',
        where: 'Operations[0].value',
        received: 'False',
        became: false,
      },
    ]);
  });

  it('names managerString and emptyOperations', async () => {
    const { createUser, request, events } = listening();
    const user = await createUser('lin@example.org', { [ENTERPRISE]: { manager: 'boss-2' } });
    expect(events.at(-1)!.rulesFired).toEqual([
      {
        rule: 'managerString',
        where: `${ENTERPRISE}.manager`,
        received: 'boss-2',
        became: { value: 'boss-2' },
      },
    ]);
    await request('PATCH', `/Users/${user.id}`, { body: patchBody() });
    expect(events.at(-1)!.rulesFired).toEqual([
      { rule: 'emptyOperations', where: 'Operations', received: [], became: 'no change' },
    ]);
  });

  it('is empty for a plain RFC 7644 request and for a strict tenant', async () => {
    const { createUser, request, events } = listening();
    const user = await createUser('plain@example.org', { active: true });
    await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    expect(events.at(-1)!.rulesFired).toEqual([]);
    const refused = await request('POST', '/Users', {
      key: STRICT_KEY,
      body: { schemas: [USER_SCHEMA], userName: 's@example.org', active: 'False' },
    });
    expect(refused.status).toBe(400);
    expect(events.at(-1)!.rulesFired).toEqual([]);
  });

  it('serialises with the event', async () => {
    const { createUser, request, events } = listening();
    const user = await createUser('json@example.org');
    await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'ADD', path: 'title', value: 'Boss' }),
    });
    const json = JSON.parse(JSON.stringify(events.at(-1))) as Record<string, unknown>;
    expect(json.rulesFired).toEqual([
      { rule: 'opAnyCase', where: 'Operations[0].op', received: 'ADD', became: 'add' },
    ]);
  });

  it('hands no trace to the engines while nobody listens', async () => {
    const collect = vi.spyOn(RequestHub.prototype, 'collect');
    try {
      const { scim, createUser, request } = setup();
      const user = await createUser('quiet@example.org');
      const patch = patchBody({ op: 'Replace', path: 'active', value: 'True' });
      expect((await request('PATCH', `/Users/${user.id}`, { body: patch })).status).toBe(200);
      expect(collect).not.toHaveBeenCalled();
      const stop = scim.onRequest(() => undefined);
      await request('PATCH', `/Users/${user.id}`, { body: patch });
      expect(collect).toHaveBeenCalledTimes(1);
      stop();
      await request('PATCH', `/Users/${user.id}`, { body: patch });
      expect(collect).toHaveBeenCalledTimes(1);
    } finally {
      collect.mockRestore();
    }
  });
});
