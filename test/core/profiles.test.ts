import { describe, expect, it } from 'vitest';
import { ScimConfigError, createScim, staticApiKeys, type ScimOptions } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { profileSelector, resolveProfiles } from '../../src/core/profiles.js';
import { patchBody, setup } from './harness.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

// One server, one tenant per profile: the key picks the tenant, the tenant carries its profile.
const KEYS = {
  strict: 'key-strict',
  entra: 'key-entra',
  okta: 'key-okta',
  none: 'key-none',
  mine: 'key-mine',
  ghost: 'key-ghost',
} as const;

function server(overrides: Partial<ScimOptions> = {}) {
  return setup({
    verifier: staticApiKeys([
      { key: KEYS.strict, tenant: 't-strict', profile: 'strict' },
      { key: KEYS.entra, tenant: 't-entra', profile: 'entra' },
      { key: KEYS.okta, tenant: 't-okta', profile: 'okta' },
      { key: KEYS.none, tenant: 't-none' },
      { key: KEYS.mine, tenant: 't-mine', profile: 'mine' },
      { key: KEYS.ghost, tenant: 't-ghost', profile: 'no-such-profile' },
    ]),
    ...overrides,
  });
}

type Harness = ReturnType<typeof server>;

async function userOf(h: Harness, key: string, userName: string) {
  const reply = await h.request('POST', '/Users', {
    key,
    body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, active: true },
  });
  expect(reply.status).toBe(201);
  return reply.body.id as string;
}

/** Entra ID's deactivation without `aadOptscim062020`: `opAnyCase` and `stringBooleans`. */
const ENTRA_FALSE = { op: 'Replace', path: 'active', value: 'False' };

/** One PATCH of a user by the tenant of `key`. */
const patchAs = (h: Harness, key: string, id: string, ...ops: Array<Record<string, unknown>>) =>
  h.request('PATCH', `/Users/${id}`, { key, body: patchBody(...ops) });

describe('compatibility profiles: one server, a tenant per profile', () => {
  it('reads "active": "False" in a POST as false for entra and refuses it for strict', async () => {
    const h = server();
    const body = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'ada@example.org',
      active: 'False',
    };
    const entra = await h.request('POST', '/Users', { key: KEYS.entra, body });
    expect(entra.status).toBe(201);
    expect(entra.body.active).toBe(false);
    const strict = await h.request('POST', '/Users', { key: KEYS.strict, body });
    expect(strict.status).toBe(400);
    expect(strict.body.scimType).toBe('invalidValue');
  });

  it('applies a path-less dotted key for entra and ignores it for strict', async () => {
    const h = server();
    const patch = patchBody({ op: 'replace', value: { 'name.givenName': 'Josie' } });
    for (const [key, expected] of [
      [KEYS.entra, 'Josie'],
      [KEYS.strict, undefined],
    ] as const) {
      const id = await userOf(h, key, 'josie@example.org');
      const reply = await h.request('PATCH', `/Users/${id}`, { key, body: patch });
      expect(reply.status).toBe(200);
      expect(reply.body.name?.givenName).toBe(expected);
    }
  });

  it('answers an unquoted filter value for entra and a 400 invalidFilter for strict', async () => {
    const h = server();
    await userOf(h, KEYS.entra, 'Olga@example.org');
    await userOf(h, KEYS.strict, 'Olga@example.org');
    const entra = await h.request('GET', '/Users', {
      key: KEYS.entra,
      query: 'filter=userName sw O',
    });
    expect(entra.status).toBe(200);
    expect(entra.body.totalResults).toBe(1);
    const strict = await h.request('GET', '/Users', {
      key: KEYS.strict,
      query: 'filter=userName sw O',
    });
    expect(strict.status).toBe(400);
    expect(strict.body.scimType).toBe('invalidFilter');
  });

  it('refuses Entra-only shapes for okta but lets it clear a value with null', async () => {
    const h = server();
    const id = await userOf(h, KEYS.okta, 'okta@example.org');
    const opCase = await patchAs(h, KEYS.okta, id, { op: 'Replace', path: 'title', value: 'CTO' });
    expect(opCase.status).toBe(400);
    const set = await patchAs(h, KEYS.okta, id, { op: 'replace', path: 'title', value: 'CTO' });
    expect(set.body.title).toBe('CTO');
    const cleared = await patchAs(h, KEYS.okta, id, { op: 'replace', path: 'title', value: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.title).toBeUndefined();
  });

  it('keeps every rule on for a tenant without a profile, as before profiles', async () => {
    const h = server();
    const id = await userOf(h, KEYS.none, 'plain@example.org');
    const reply = await patchAs(h, KEYS.none, id, ENTRA_FALSE);
    expect(reply.status).toBe(200);
    expect(reply.body.active).toBe(false);
  });

  it('gives tenants without a profile the defaultProfile', async () => {
    const h = server({ defaultProfile: 'strict' });
    const id = await userOf(h, KEYS.none, 'plain@example.org');
    const reply = await patchAs(h, KEYS.none, id, { op: 'Replace', path: 'active', value: false });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidSyntax');
  });

  it("reads a host profile's rules over the profile it extends", async () => {
    const h = server({
      profiles: { mine: { extends: 'entra', rules: { managerString: false } } },
    });
    const id = await userOf(h, KEYS.mine, 'mine@example.org');
    const booleans = await patchAs(h, KEYS.mine, id, ENTRA_FALSE);
    expect(booleans.body.active).toBe(false);
    const manager = await patchAs(h, KEYS.mine, id, {
      op: 'add',
      path: `${ENTERPRISE}:manager`,
      value: 'boss-1',
    });
    expect(manager.status).toBe(400);
  });

  it('starts a host profile without extends from strict: it has only the rules it names', async () => {
    const h = server({ profiles: { mine: { rules: { stringBooleans: true } } } });
    const id = await userOf(h, KEYS.mine, 'mine@example.org');
    const booleans = await patchAs(h, KEYS.mine, id, {
      op: 'replace',
      path: 'active',
      value: 'False',
    });
    expect(booleans.body.active).toBe(false);
    const opCase = await patchAs(h, KEYS.mine, id, { op: 'Replace', path: 'active', value: true });
    expect(opCase.status).toBe(400);
  });

  it('keeps a rule switched off server-wide by patchRules off in every profile', async () => {
    const h = server({ patchRules: { stringBooleans: false } });
    const id = await userOf(h, KEYS.entra, 'entra@example.org');
    const reply = await patchAs(h, KEYS.entra, id, ENTRA_FALSE);
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidValue');
  });

  it('answers 500 for a profile the server does not know, reports it, and writes nothing', async () => {
    const errors: unknown[] = [];
    const h = server({ onError: (error) => errors.push(error) });
    const reply = await h.request('POST', '/Users', {
      key: KEYS.ghost,
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'x@example.org' },
    });
    expect(reply.status).toBe(500);
    expect(JSON.stringify(reply.body)).not.toContain('no-such-profile');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ScimConfigError);
    expect(String(errors[0])).toContain('"no-such-profile"');
    expect(await h.store.list('t-ghost', { startIndex: 1, count: 10 })).toMatchObject({
      totalResults: 0,
    });
  });

  it('compiles each distinct set of rules and answer conventions once, on first use, never per request', () => {
    const built: unknown[] = [];
    const selector = profileSelector(
      resolveProfiles({ profiles: { mine: { extends: 'okta' } } }),
      (switches) => {
        built.push(switches);
        return { switches };
      },
      (config) => config,
    );
    expect(built).toHaveLength(0); // nothing until asked (createScim asks for the default)
    expect(selector.defaultSwitches).toMatchObject({ nullClears: true, opAnyCase: true });
    const strict = selector.configFor('strict');
    for (const profile of ['strict', 'entra', 'lenient', 'okta', 'mine', 'okta', undefined])
      selector.configFor(profile);
    // lenient, entra (every rule, and its answer convention), strict, okta = mine: four
    // distinct sets.
    expect(built).toHaveLength(4);
    expect(selector.configFor('strict')).toBe(strict);
    expect(selector.configFor('lenient')).toBe(selector.configFor(undefined));
    expect(selector.configFor('entra')).not.toBe(selector.configFor('lenient'));
    expect(selector.configFor('mine')).toBe(selector.configFor('okta'));
  });
});

describe("Microsoft's SCIM test collection under the entra profile", () => {
  const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

  it('answers /serviceConfiguration as /ServiceProviderConfig for entra only', async () => {
    const h = server();
    const spc = await h.request('GET', '/ServiceProviderConfig', { key: KEYS.entra });
    const alias = await h.request('GET', '/serviceConfiguration', { key: KEYS.entra });
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(spc.body);
    for (const key of [KEYS.none, KEYS.strict, KEYS.okta]) {
      const other = await h.request('GET', '/serviceConfiguration', { key });
      expect([other.status, other.body.schemas], key).toEqual([
        404,
        ['urn:ietf:params:scim:api:messages:2.0:Error'],
      ]);
    }
    expect((await h.request('GET', '/serviceConfiguration/x', { key: KEYS.entra })).status).toBe(
      404,
    );
  });

  it('a host profile extending entra may switch the alias off', async () => {
    const h = setup({
      verifier: staticApiKeys([{ key: 'k', tenant: 't', profile: 'entra-rfc' }]),
      profiles: {
        'entra-rfc': { extends: 'entra', answers: { serviceConfigurationAlias: false } },
      },
    });
    expect((await h.request('GET', '/serviceConfiguration', { key: 'k' })).status).toBe(404);
  });

  it("answers PATCH as Microsoft's reference does: a user with 200 and the user, a group with 204", async () => {
    const h = server();
    const id = await userOf(h, KEYS.entra, 'patched@example.org');
    const patched = await h.request('PATCH', `/Users/${id}`, {
      key: KEYS.entra,
      body: patchBody({ op: 'Replace', path: 'displayName', value: 'Patched' }),
    });
    expect([patched.status, patched.body.displayName]).toEqual([200, 'Patched']);
    const group = await h.request('POST', '/Groups', {
      key: KEYS.entra,
      body: { schemas: [GROUP], displayName: 'Staff' },
    });
    const renamed = await h.request('PATCH', `/Groups/${group.body.id}`, {
      key: KEYS.entra,
      body: patchBody({ op: 'Replace', path: 'displayName', value: 'All staff' }),
    });
    expect([renamed.status, renamed.body, renamed.headers.etag]).toEqual([204, undefined, 'W/"2"']);
  });
});

describe('profile configuration is checked at start-up', () => {
  const base = {
    store: new MemoryUserStore(),
    verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
    mailer: { sendWelcome: async () => {} },
  };
  const cases: Array<[string, Partial<ScimOptions>, string]> = [
    ['a built-in name', { profiles: { entra: { rules: {} } } }, 'built in'],
    [
      'an unknown rule',
      { profiles: { p: { rules: { noSuchRule: true } as never } } },
      'noSuchRule',
    ],
    ['an unknown extends', { profiles: { p: { extends: 'nope' } } }, '"nope"'],
    [
      'an extends loop',
      { profiles: { p: { extends: 'q' }, q: { extends: 'p' } } },
      'extends itself',
    ],
    ['an unknown defaultProfile', { defaultProfile: 'nope' }, 'defaultProfile'],
    [
      'an unknown answer convention',
      { profiles: { p: { answers: { noSuchAnswer: true } as never } } },
      'names no answer convention "noSuchAnswer"',
    ],
  ];
  it.each(cases)('refuses %s', (_name, overrides, message) => {
    expect(() => createScim({ ...base, ...overrides })).toThrow(ScimConfigError);
    expect(() => createScim({ ...base, ...overrides })).toThrow(message);
  });
});
