import { describe, expect, it } from 'vitest';
import { staticApiKeys, type RequestCompletedEvent } from '../../src/index.js';
import { patchBody, setup } from '../core/harness.js';

// Each identity provider's group PATCH shape that is not plain RFC 7644 is a named dialect rule
// (src/schema/dialect-rules.ts). For every rule that applies to a group, the shape is accepted
// under a profile that has it on (and `request.completed.rulesFired` names it), and refused
// with a SCIM error under `strict`, where every rule is off, with nothing changed.
//
// Rules that name no group shape, so not here: `stringBooleans` (a Group has no boolean),
// `dottedKeys` (no complex singular attribute), `managerString`, `managerValueFilter`,
// `managerEmptyString` (the Enterprise User's `manager`) and `jsonEncodedValues` (Entra ID's
// encoded `roles` of a User).

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const KEYS = { lenient: 'key-lenient', entra: 'key-entra', okta: 'key-okta', strict: 'key-strict' };
type Profile = keyof typeof KEYS;

function district() {
  const harness = setup({
    verifier: staticApiKeys(
      Object.entries(KEYS).map(([profile, key]) => ({ key, tenant: 'district', profile })),
    ),
  });
  const completed: RequestCompletedEvent[] = [];
  harness.scim.onRequest((event) => completed.push(event));
  const { request } = harness;
  async function users(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push((await harness.createUser(`p${i}@example.org`, {}, KEYS.lenient)).id);
    return ids;
  }
  async function group(members: readonly string[]): Promise<string> {
    const reply = await request('POST', '/Groups', {
      key: KEYS.lenient,
      body: {
        schemas: [GROUP_SCHEMA],
        displayName: 'Teachers of Lincoln High',
        members: members.map((value) => ({ value })),
      },
    });
    return reply.body.id as string;
  }
  async function memberIds(id: string): Promise<string[]> {
    const reply = await request('GET', `/Groups/${id}`, { key: KEYS.lenient });
    return ((reply.body.members ?? []) as { value: string }[]).map((m) => m.value).sort();
  }
  async function patch(profile: Profile, id: string, body: unknown) {
    const reply = await request('PATCH', `/Groups/${id}`, { key: KEYS[profile], body });
    const event = completed.at(-1) as RequestCompletedEvent;
    return { ...reply, fired: event.rulesFired.map((f) => `${f.rule} at ${f.where}`) };
  }
  return { users, group, memberIds, patch };
}

describe('dialect rules on group PATCH shapes, on and off', () => {
  it('opAnyCase: Entra ID’s "Add" and "Remove" of members', async () => {
    const { users, group, memberIds, patch } = district();
    const [a, b] = (await users(2)) as [string, string];
    const id = await group([a]);
    const add = patch(
      'entra',
      id,
      patchBody({ op: 'Add', path: 'members', value: [{ value: b }] }),
    );
    expect(await add).toMatchObject({ status: 204, fired: ['opAnyCase at Operations[0].op'] });
    const remove = await patch(
      'entra',
      id,
      patchBody(
        { op: 'Replace', path: 'displayName', value: 'Staff' },
        { op: 'Remove', path: `members[value eq "${a}"]` },
      ),
    );
    expect(remove.status).toBe(204);
    // Each where it is in the message, whether the engine or the membership path read it.
    expect(remove.fired).toEqual([
      'opAnyCase at Operations[0].op',
      'opAnyCase at Operations[1].op',
    ]);
    expect(await memberIds(id)).toEqual([b]);

    const refused = await patch(
      'strict',
      id,
      patchBody({ op: 'Add', path: 'members', value: [{ value: a }] }),
    );
    expect(refused).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
    expect(refused.body.detail).toMatch(/^Operation 1: "op" must be "add", "remove" or "replace"/);
    expect(await memberIds(id)).toEqual([b]);
  });

  it('removeWithValue: Entra ID’s remove with a value list takes out those members only', async () => {
    const { users, group, memberIds, patch } = district();
    const [a, b, c] = (await users(3)) as [string, string, string];
    const id = await group([a, b, c]);
    const entra = await patch(
      'entra',
      id,
      patchBody({ op: 'Remove', path: 'members', value: [{ value: a }] }),
    );
    expect(entra.status).toBe(204);
    expect(entra.fired).toEqual([
      'opAnyCase at Operations[0].op',
      'removeWithValue at Operations[0].value',
    ]);
    // One unassignment is one member out, never the whole group emptied.
    expect(await memberIds(id)).toEqual([b, c].sort());

    const refused = await patch(
      'strict',
      id,
      patchBody({ op: 'remove', path: 'members', value: [{ value: b }] }),
    );
    expect(refused).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
    expect(refused.body.detail).toContain('takes a filter in the path, not a "value"');
    expect(await memberIds(id)).toEqual([b, c].sort());
    // The RFC's own forms stay open to strict: remove by filter, remove of the whole list.
    const filtered = await patch(
      'strict',
      id,
      patchBody({ op: 'remove', path: `members[value eq "${b}"]` }),
    );
    expect(filtered).toMatchObject({ status: 204, fired: [] });
    expect(await memberIds(id)).toEqual([c]);
  });

  it('nullClears: Okta’s null replaces the member list with none, or clears externalId', async () => {
    const { users, group, memberIds, patch } = district();
    const [a] = (await users(1)) as [string];
    const id = await group([a]);
    const refused = await patch(
      'strict',
      id,
      patchBody({ op: 'replace', path: 'members', value: null }),
    );
    expect(refused).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect(refused.body.detail).toContain('must not be null');
    expect(await memberIds(id)).toEqual([a]);
    const okta = await patch(
      'okta',
      id,
      patchBody(
        { op: 'replace', path: 'externalId', value: null },
        { op: 'replace', path: 'members', value: null },
      ),
    );
    expect(okta).toMatchObject({ status: 204 });
    expect(okta.fired).toEqual([
      'nullClears at Operations[0].value',
      'nullClears at Operations[1].value',
    ]);
    expect(await memberIds(id)).toEqual([]);
    // Entra ID's member with a null `$ref`.
    const ref = patchBody({ op: 'add', path: 'members', value: [{ $ref: null, value: a }] });
    const strictRef = await patch('strict', id, ref);
    expect(strictRef).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect(await memberIds(id)).toEqual([]);
    const oktaRef = await patch('okta', id, ref);
    expect(oktaRef).toMatchObject({ status: 204, fired: ['nullClears at Operations[0].value'] });
    expect(await memberIds(id)).toEqual([a]);
  });

  it('urnKeys: a path-less value keyed by the Group URN’s members', async () => {
    const { users, group, memberIds, patch } = district();
    const [a, b] = (await users(2)) as [string, string];
    const id = await group([a]);
    const key = `${GROUP_SCHEMA}:members`;
    const lenient = await patch(
      'lenient',
      id,
      patchBody({ op: 'add', value: { [key]: [{ value: b }] } }),
    );
    expect(lenient).toMatchObject({
      status: 204,
      fired: [`urnKeys at Operations[0].value.${key}`],
    });
    expect(await memberIds(id)).toEqual([a, b].sort());
    // Off, the key names no attribute, and a path-less value's keys that name nothing are
    // ignored (as for the User): nothing changes.
    const strict = await patch('strict', id, patchBody({ op: 'replace', value: { [key]: [] } }));
    expect(strict).toMatchObject({ status: 204, fired: [] });
    expect(await memberIds(id)).toEqual([a, b].sort());
  });

  it('unquotedFilterValues: remove of members[value eq <id>] without quotes', async () => {
    const { users, group, memberIds, patch } = district();
    const [a, b] = (await users(2)) as [string, string];
    const id = await group([a, b]);
    const refused = await patch(
      'strict',
      id,
      patchBody({ op: 'remove', path: `members[value eq ${a}]` }),
    );
    expect(refused).toMatchObject({ status: 400, body: { scimType: 'invalidPath' } });
    expect(await memberIds(id)).toEqual([a, b].sort());
    const lenient = await patch(
      'lenient',
      id,
      patchBody({ op: 'remove', path: `members[value eq ${a}]` }),
    );
    expect(lenient.status).toBe(204);
    expect(await memberIds(id)).toEqual([b]);
  });

  it('filterMissCreates: a filtered replace of a member that is not there adds it', async () => {
    const { users, group, memberIds, patch } = district();
    const [a, b] = (await users(2)) as [string, string];
    const id = await group([a]);
    const body = patchBody({
      op: 'replace',
      path: `members[value eq "${b}"]`,
      value: { value: b },
    });
    const refused = await patch('strict', id, body);
    expect(refused).toMatchObject({ status: 400, body: { scimType: 'noTarget' } });
    expect(await memberIds(id)).toEqual([a]);
    const lenient = await patch('lenient', id, body);
    expect(lenient).toMatchObject({
      status: 204,
      fired: ['filterMissCreates at Operations[0].path'],
    });
    expect(await memberIds(id)).toEqual([a, b].sort());
  });

  it('emptyOperations: Microsoft’s validator sends a PATCH with no operation', async () => {
    const { group, patch } = district();
    const id = await group([]);
    const lenient = await patch('lenient', id, patchBody());
    expect(lenient).toMatchObject({ status: 204, fired: ['emptyOperations at Operations'] });
    const refused = await patch('strict', id, patchBody());
    expect(refused).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
  });
});
