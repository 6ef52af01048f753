// createScim's grouped options, and the deprecated flat names that stay aliases for a release.
import { describe, expect, it } from 'vitest';
import {
  ScimConfigError,
  createScim,
  staticApiKeys,
  type ScimEvent,
  type ScimOptions,
} from '../../src/index.js';
import { FLAT_OPTION_GROUPS } from '../../src/core/compile/resolve-options.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const verifier = staticApiKeys([{ key: 'k', tenant: 't' }]);
const auth = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };

async function exercise(options: ScimOptions) {
  const scim = createScim(options);
  const post = (userName: string) =>
    scim.handle({
      method: 'POST',
      path: '/Users',
      headers: auth,
      body: JSON.stringify({ schemas: [USER], userName }),
    });
  const created = await post('ada@example.org');
  const notEmail = await post('not an email');
  const large = await scim.handle({
    method: 'POST',
    path: '/Users',
    headers: auth,
    body: JSON.stringify({ schemas: [USER], userName: 'x'.repeat(600) }),
  });
  await post('bob@example.org');
  const list = await scim.handle({ method: 'GET', path: '/Users', headers: auth });
  return {
    created: created.status,
    notEmail: notEmail.status,
    large: large.status,
    itemsPerPage: (JSON.parse(list.body ?? '{}') as { itemsPerPage: number }).itemsPerPage,
  };
}

describe('grouped options and their flat aliases', () => {
  it('reads each group, and the flat names the same', async () => {
    const events: ScimEvent[] = [];
    const grouped = await exercise({
      store: new MemoryUserStore(),
      auth: { verifier },
      limits: { maxBodyBytes: 400 },
      paging: { defaultPageSize: 1 },
      schema: { userNameRule: 'email' },
      hooks: { onEvent: (event) => events.push(event) },
    });
    const flatEvents: ScimEvent[] = [];
    const flat = await exercise({
      store: new MemoryUserStore(),
      verifier,
      maxBodyBytes: 400,
      defaultPageSize: 1,
      userNameRule: 'email',
      onEvent: (event) => flatEvents.push(event),
    });
    expect(grouped).toEqual({ created: 201, notEmail: 400, large: 413, itemsPerPage: 1 });
    expect(flat).toEqual(grouped);
    expect(events.map((e) => e.type)).toEqual(['user.created', 'user.created']);
    expect(flatEvents.map((e) => e.type)).toEqual(events.map((e) => e.type));
  });

  it('accepts a setting given both ways with the same value', () => {
    const store = new MemoryUserStore();
    expect(() =>
      createScim({
        store,
        auth: { verifier },
        verifier,
        maxPageSize: 10,
        paging: { maxPageSize: 10 },
      }),
    ).not.toThrow();
  });

  it('refuses a setting given both ways with different values, naming both', () => {
    const store = new MemoryUserStore();
    expect(() =>
      createScim({ store, auth: { verifier }, maxPageSize: 10, paging: { maxPageSize: 20 } }),
    ).toThrow(/maxPageSize and paging\.maxPageSize/);
    const other = staticApiKeys([{ key: 'other', tenant: 't' }]);
    expect(() => createScim({ store, auth: { verifier }, verifier: other })).toThrow(
      ScimConfigError,
    );
  });

  it('names the verifier missing in either place', () => {
    const store = new MemoryUserStore();
    expect(() => createScim({ store } as unknown as ScimOptions)).toThrow(
      /missing auth\.verifier\.verify\(\)/,
    );
  });

  it('keeps every flat name of a group a member of that group', () => {
    for (const [group, names] of Object.entries(FLAT_OPTION_GROUPS)) {
      for (const name of names) {
        const store = new MemoryUserStore();
        // A value no setting accepts, given in the group: the flat alias with another value
        // is refused, so each flat name is read into its group.
        const marker = Symbol(name);
        expect(() =>
          createScim({
            store,
            auth: { verifier },
            [group]: { [name]: marker },
            [name]: Symbol(name),
          } as unknown as ScimOptions),
        ).toThrow(new RegExp(`${name} and ${group}\\.${name}`));
      }
    }
  });
});
