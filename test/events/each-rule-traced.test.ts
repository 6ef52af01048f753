// Every dialect rule that changes a request names itself in `request.completed.rulesFired`,
// with where it acted, what the client sent there and what it was read as.
import { describe, expect, it } from 'vitest';
import { DIALECT_RULES, type DialectRuleName } from '../../src/schema/dialect-rules.js';
import type { FiredRule, RequestCompletedEvent } from '../../src/index.js';
import { USER_SCHEMA, patchBody, setup } from '../core/harness.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

type Harness = ReturnType<typeof setup>;

/** One request a rule changes: the user it starts from, the request, and what the trace says. */
interface Case {
  readonly rule: DialectRuleName;
  readonly title: string;
  readonly user?: Record<string, unknown>;
  readonly send: (h: Harness, id: string) => ReturnType<Harness['request']>;
  /** Every rule the request fired, in the order the trace lists them. */
  readonly fired: readonly FiredRule[];
}

const patch =
  (...operations: Record<string, unknown>[]) =>
  (h: Harness, id: string) =>
    h.request('PATCH', `/Users/${id}`, { body: patchBody(...operations) });

const CASES: readonly Case[] = [
  {
    rule: 'opAnyCase',
    title: 'an operation name in another letter case',
    send: patch({ op: 'Replace', path: 'title', value: 'Boss' }),
    fired: [
      { rule: 'opAnyCase', where: 'Operations[0].op', received: 'Replace', became: 'replace' },
    ],
  },
  {
    rule: 'stringBooleans',
    title: '"True" in a PATCH value filter',
    user: { emails: [{ value: 'a@example.org', type: 'work', primary: true }] },
    send: patch({ op: 'replace', path: 'emails[primary eq "True"].type', value: 'home' }),
    fired: [
      { rule: 'stringBooleans', where: 'Operations[0].path', received: 'True', became: true },
    ],
  },
  {
    rule: 'stringBooleans',
    title: '"False" as a boolean value',
    user: { active: true },
    send: patch({ op: 'replace', path: 'active', value: 'False' }),
    fired: [
      { rule: 'stringBooleans', where: 'Operations[0].value', received: 'False', became: false },
    ],
  },
  {
    rule: 'dottedKeys',
    title: 'a dotted key in a path-less value',
    send: patch({ op: 'replace', value: { 'name.givenName': 'Grace' } }),
    fired: [
      {
        rule: 'dottedKeys',
        where: 'Operations[0].value.name.givenName',
        received: 'name.givenName',
        became: 'name.givenName',
      },
    ],
  },
  {
    rule: 'urnKeys',
    title: 'a URN key in a path-less value',
    send: patch({ op: 'replace', value: { [`${ENTERPRISE}:department`]: 'R&D' } }),
    fired: [
      {
        rule: 'urnKeys',
        where: `Operations[0].value.${ENTERPRISE}:department`,
        received: `${ENTERPRISE}:department`,
        became: `${ENTERPRISE}:department`,
      },
    ],
  },
  {
    rule: 'removeWithValue',
    title: 'a remove with a value',
    user: { roles: [{ value: 'writer' }, { value: 'reader' }] },
    send: patch({ op: 'remove', path: 'roles', value: [{ value: 'writer' }] }),
    fired: [
      {
        rule: 'removeWithValue',
        where: 'Operations[0].value',
        received: [{ value: 'writer' }],
        became: undefined,
      },
    ],
  },
  {
    rule: 'filterMissCreates',
    title: 'a filtered add that matches nothing',
    send: patch({ op: 'add', path: 'emails[type eq "work"].value', value: 'w@example.org' }),
    fired: [
      {
        rule: 'filterMissCreates',
        where: 'Operations[0].path',
        received: 'emails[type eq "work"].value',
        became: { type: 'work', value: 'w@example.org' },
      },
    ],
  },
  {
    rule: 'managerString',
    title: 'a bare-id manager',
    send: patch({ op: 'add', path: `${ENTERPRISE}:manager`, value: 'boss-1' }),
    fired: [
      {
        rule: 'managerString',
        where: 'Operations[0].value',
        received: 'boss-1',
        became: { value: 'boss-1' },
      },
    ],
  },
  {
    rule: 'jsonEncodedValues',
    title: 'a JSON-encoded multi-valued value',
    send: patch({ op: 'add', path: 'roles', value: [{ value: '{"value":"Admin"}' }] }),
    fired: [
      {
        rule: 'jsonEncodedValues',
        where: 'Operations[0].value[0]',
        received: { value: '{"value":"Admin"}' },
        became: { value: 'Admin' },
      },
    ],
  },
  {
    rule: 'nullClears',
    title: 'a null value',
    user: { title: 'Engineer' },
    send: patch({ op: 'replace', path: 'title', value: null }),
    fired: [
      { rule: 'nullClears', where: 'Operations[0].value', received: null, became: undefined },
    ],
  },
  {
    rule: 'managerValueFilter',
    title: 'a remove of the unqualified manager[value eq ...]',
    user: { [ENTERPRISE]: { manager: { value: 'boss-1' } } },
    send: patch({ op: 'remove', path: 'manager[value eq "boss-1"]' }),
    fired: [
      {
        rule: 'managerValueFilter',
        where: 'Operations[0].path',
        received: 'manager[value eq "boss-1"]',
        became: undefined,
      },
    ],
  },
  {
    rule: 'managerEmptyString',
    title: 'a PATCH replace of the manager with ""',
    user: { [ENTERPRISE]: { manager: { value: 'boss-1' }, department: 'R&D' } },
    send: patch({ op: 'replace', path: `${ENTERPRISE}:manager`, value: '' }),
    fired: [
      { rule: 'managerEmptyString', where: 'Operations[0].value', received: '', became: undefined },
    ],
  },
  {
    rule: 'managerEmptyString',
    title: 'a PATCH replace of manager.value with ""',
    user: { [ENTERPRISE]: { manager: { value: 'boss-1' } } },
    send: patch({ op: 'replace', path: `${ENTERPRISE}:manager.value`, value: '' }),
    fired: [
      { rule: 'managerEmptyString', where: 'Operations[0].value', received: '', became: undefined },
    ],
  },
  {
    rule: 'managerEmptyString',
    title: 'a PUT body with {"manager": {"value": ""}}',
    user: { [ENTERPRISE]: { manager: { value: 'boss-1' } } },
    send: (h, id) =>
      h.request('PUT', `/Users/${id}`, {
        body: {
          schemas: [USER_SCHEMA, ENTERPRISE],
          userName: 'traced@example.org',
          [ENTERPRISE]: { manager: { value: '' }, department: 'R&D' },
        },
      }),
    fired: [
      {
        rule: 'managerEmptyString',
        where: `${ENTERPRISE}.manager`,
        received: { value: '' },
        became: undefined,
      },
    ],
  },
  {
    rule: 'emptyOperations',
    title: 'a PATCH without operations',
    send: patch(),
    fired: [{ rule: 'emptyOperations', where: 'Operations', received: [], became: 'no change' }],
  },
  {
    rule: 'unquotedFilterValues',
    title: 'a value without quotes in a PATCH value filter',
    user: { emails: [{ value: 'a@example.org', type: 'work' }] },
    send: patch({ op: 'replace', path: 'emails[type eq work].value', value: 'b@example.org' }),
    fired: [
      {
        rule: 'unquotedFilterValues',
        where: 'Operations[0].path',
        received: 'work',
        became: '"work"',
      },
    ],
  },
  {
    rule: 'unquotedFilterValues',
    title: 'values without quotes in a ?filter=',
    send: (h) =>
      h.request('GET', '/Users', {
        query: `filter=${encodeURIComponent('userName sw tr and title eq Boss')}`,
      }),
    fired: [
      { rule: 'unquotedFilterValues', where: 'filter', received: 'tr', became: '"tr"' },
      { rule: 'unquotedFilterValues', where: 'filter', received: 'Boss', became: '"Boss"' },
    ],
  },
];

function listening() {
  const harness = setup();
  const events: RequestCompletedEvent[] = [];
  harness.scim.onRequest((event) => events.push(event));
  return { harness, events };
}

describe('every dialect rule that changes a request names itself in rulesFired', () => {
  it('has a case for each rule of DIALECT_RULES', () => {
    expect([...new Set(CASES.map((c) => c.rule))].sort()).toEqual([...DIALECT_RULES].sort());
  });

  it.each(CASES)('$rule: $title', async ({ user, send, fired }) => {
    const { harness, events } = listening();
    const created = await harness.createUser('traced@example.org', {
      ...user,
      ...(user && ENTERPRISE in user ? { schemas: [USER_SCHEMA, ENTERPRISE] } : {}),
    });
    const reply = await send(harness, created.id as string);
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    const event = events.at(-1) as RequestCompletedEvent;
    expect(event.rulesFired).toEqual(fired);
  });

  it('reports a rule of a path each time an operation names it, not only when first read', async () => {
    const { harness, events } = listening();
    const user = await harness.createUser('twice@example.org', {
      emails: [{ value: 'a@example.org', type: 'work', primary: true }],
    });
    const body = patchBody({ op: 'replace', path: 'emails[type eq work].display', value: 'W' });
    for (let i = 0; i < 2; i++) {
      expect((await harness.request('PATCH', `/Users/${user.id}`, { body })).status).toBe(200);
      expect(events.at(-1)!.rulesFired).toEqual([
        {
          rule: 'unquotedFilterValues',
          where: 'Operations[0].path',
          received: 'work',
          became: '"work"',
        },
      ]);
    }
  });

  it('names the rules of a group PATCH at their places, members translated or not', async () => {
    const { harness, events } = listening();
    const ada = await harness.createUser('ada@example.org');
    const bob = await harness.createUser('bob@example.org');
    const created = await harness.request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Staff', members: [{ value: ada.id }] },
    });
    expect(created.status).toBe(201);
    const reply = await harness.request('PATCH', `/Groups/${created.body.id}`, {
      body: patchBody(
        { op: 'Add', path: 'members', value: [{ value: bob.id }] },
        { op: 'Replace', path: 'displayName', value: 'Teachers' },
        { op: 'remove', path: 'members', value: [{ value: ada.id }] },
        { op: 'replace', path: 'externalId', value: null },
      ),
    });
    expect(reply.status).toBeLessThan(300);
    expect(events.at(-1)!.rulesFired).toEqual([
      { rule: 'opAnyCase', where: 'Operations[0].op', received: 'Add', became: 'add' },
      { rule: 'opAnyCase', where: 'Operations[1].op', received: 'Replace', became: 'replace' },
      {
        rule: 'removeWithValue',
        where: 'Operations[2].value',
        received: [{ value: ada.id }],
        became: undefined,
      },
      { rule: 'nullClears', where: 'Operations[3].value', received: null, became: undefined },
    ]);
    const empty = await harness.request('PATCH', `/Groups/${created.body.id}`, {
      body: patchBody(),
    });
    expect(empty.status).toBeLessThan(300);
    expect(events.at(-1)!.rulesFired).toEqual([
      { rule: 'emptyOperations', where: 'Operations', received: [], became: 'no change' },
    ]);
  });

  it('names the empty manager of a POST body', async () => {
    const { harness, events } = listening();
    await harness.createUser('empty-boss@example.org', {
      schemas: [USER_SCHEMA, ENTERPRISE],
      [ENTERPRISE]: { manager: '', department: 'R&D' },
    });
    expect(events.at(-1)!.rulesFired).toEqual([
      {
        rule: 'managerEmptyString',
        where: `${ENTERPRISE}.manager`,
        received: '',
        became: undefined,
      },
    ]);
  });

  it('names nothing for the same requests written as RFC 7644 says', async () => {
    const { harness, events } = listening();
    const user = await harness.createUser('plain@example.org', {
      emails: [{ value: 'a@example.org', type: 'work', primary: true }],
    });
    await harness.request('PATCH', `/Users/${user.id}`, {
      body: patchBody({
        op: 'replace',
        path: 'emails[primary eq true and type eq "work"].type',
        value: 'home',
      }),
    });
    expect(events.at(-1)!.rulesFired).toEqual([]);
    await harness.request('GET', '/Users', {
      query: `filter=${encodeURIComponent('userName sw "pl"')}`,
    });
    expect(events.at(-1)!.rulesFired).toEqual([]);
  });
});
