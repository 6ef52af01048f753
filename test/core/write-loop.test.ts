import { describe, expect, it } from 'vitest';
import type { ReplaceOptions } from '../../src/contracts/user-store.js';
import { EventHub } from '../../src/core/events/event-hub.js';
import type { ScimEvent } from '../../src/core/events/types.js';
import { UserKind, type UserService } from '../../src/core/resources/kinds/user.js';
import { ResourceService } from '../../src/core/resources/resource-service.js';
import { MAX_WRITE_ATTEMPTS } from '../../src/core/resources/write-loop.js';
import { isScimError } from '../../src/errors/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { ACCOUNT, USER_SCHEMA, invitations, patchBody, setup } from './harness.js';

type Interference = (store: MemoryUserStore, tenant: string, user: ScimUser) => Promise<void>;

/**
 * A memory store that lets a test act between the core's read and its write, as another
 * process would: `interfere` runs once, right before the next replace reaches the store.
 */
class RacingStore extends MemoryUserStore {
  replaces = 0;
  interfere: Interference | undefined;
  /** When set, every replace meets a newer version (another writer that always wins). */
  alwaysStale = false;

  override async replace(tenant: string, user: ScimUser, options: ReplaceOptions) {
    this.replaces++;
    const interfere = this.interfere;
    this.interfere = undefined;
    if (interfere) await interfere(this, tenant, user);
    if (this.alwaysStale) await bump(this, tenant, user.id, {});
    return super.replace(tenant, user, options);
  }
}

// Another writer's version of the stored user, with `change`, written behind the core's back.
async function bump(
  store: MemoryUserStore,
  tenant: string,
  id: string,
  change: Record<string, unknown>,
): Promise<void> {
  const stored = (await store.get(tenant, id)) as ScimUser;
  const version = `W/"${Number(stored.meta.version.slice(3, -1)) + 1}"`;
  const next = { ...stored, ...change, meta: { ...stored.meta, version } } as ScimUser;
  await MemoryUserStore.prototype.replace.call(store, tenant, next, {
    expectedVersion: stored.meta.version,
  });
}

const interloper: Interference = (store, tenant, user) =>
  bump(store, tenant, user.id, { displayName: 'Interloper' });

function racing() {
  const store = new RacingStore();
  const events: ScimEvent[] = [];
  const service = setup({ store });
  service.scim.on((event) => events.push(event));
  return { ...service, store, events };
}

describe('the write pipeline retries a write without If-Match after a version conflict', () => {
  it('PATCH: applied again on the version that won, keeping its change', async () => {
    const { store, request, createUser } = racing();
    const user = await createUser('ada@example.org');
    store.interfere = interloper;
    store.replaces = 0;
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'title', value: 'Boss' }),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ title: 'Boss', displayName: 'Interloper' });
    expect(reply.body.meta.version).toBe('W/"3"');
    expect(store.replaces).toBe(2);
  });

  it('PUT: the replacement is written over the version that won', async () => {
    const { store, request, createUser } = racing();
    const user = await createUser('ada@example.org');
    store.interfere = interloper;
    store.replaces = 0;
    const reply = await request('PUT', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', title: 'Boss' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.title).toBe('Boss');
    expect(reply.body.displayName).toBeUndefined();
    expect(reply.body.meta.version).toBe('W/"3"');
    expect(store.replaces).toBe(2);
  });

  it('PATCH that invites a Pending user: one welcome email, from the attempt written', async () => {
    const { scim, sent, store, request, createUser } = racing();
    const user = await createUser('ada@example.org');
    store.interfere = interloper;
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: true }),
    });
    expect(reply.body[ACCOUNT].status).toBe('Invited');
    await scim.mail?.drain();
    expect(sent.map((m) => m.userId)).toEqual([user.id]);
  });

  it('activate: the account moves on the version that won', async () => {
    const { scim, store, createUser, events } = racing();
    const user = await createUser('ada@example.org', { active: true });
    store.interfere = interloper;
    store.replaces = 0;
    const activated = await scim.users.activate('tenant-a', user.id);
    expect(activated?.[ACCOUNT].status).toBe('Activated');
    expect(activated?.displayName).toBe('Interloper');
    expect(activated?.meta.version).toBe('W/"3"');
    expect(store.replaces).toBe(2);
    expect(events.map((e) => e.type)).toEqual(['user.created', 'user.invited', 'user.activated']);
  });

  it('resendInvitation: one email asked for, not one per attempt', async () => {
    const { scim, sent, store, createUser } = racing();
    const user = await createUser('ada@example.org', { active: true });
    store.interfere = interloper;
    store.replaces = 0;
    expect(await scim.users.resendInvitation('tenant-a', user.id)).toBe(true);
    expect(store.replaces).toBe(2);
    await scim.mail?.drain();
    expect(sent).toHaveLength(2);
    const stored = await store.get('tenant-a', user.id);
    expect(stored?.displayName).toBe('Interloper');
    // No client sees a change: the version moves, lastModified stays the other writer's.
    expect(stored?.meta.version).toBe('W/"3"');
    expect(stored?.meta.lastModified).toBe(user.meta.lastModified);
  });

  it(`gives up with 412 after ${MAX_WRITE_ATTEMPTS} attempts that all meet a newer version`, async () => {
    const { scim, store, request, createUser } = racing();
    const user = await createUser('ada@example.org', { active: true });
    store.alwaysStale = true;
    store.replaces = 0;
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'title', value: 'Boss' }),
    });
    expect(reply.status).toBe(412);
    expect(store.replaces).toBe(MAX_WRITE_ATTEMPTS);
    store.replaces = 0;
    await expect(scim.users.activate('tenant-a', user.id)).rejects.toMatchObject({ status: 412 });
    expect(store.replaces).toBe(MAX_WRITE_ATTEMPTS);
  });
});

describe('the write pipeline refuses a stale If-Match', () => {
  const writes = [
    ['PUT', { schemas: [USER_SCHEMA], userName: 'ada@example.org', title: 'Boss' }],
    ['PATCH', patchBody({ op: 'replace', path: 'title', value: 'Boss' })],
    ['DELETE', undefined],
  ] as const;

  for (const [method, body] of writes) {
    it(`${method}: 412 before any write, and the user is unchanged`, async () => {
      const { store, request, createUser, events } = racing();
      const user = await createUser('ada@example.org');
      store.replaces = 0;
      const reply = await request(method, `/Users/${user.id}`, {
        body,
        headers: { 'if-match': 'W/"7"' },
      });
      expect(reply.status).toBe(412);
      expect(reply.body.scimType).toBeUndefined();
      expect(store.replaces).toBe(0);
      expect((await store.get('tenant-a', user.id))?.meta.version).toBe(user.meta.version);
      expect(events.map((e) => e.type)).toEqual(['user.created']);
    });
  }

  for (const [method, body] of writes.slice(0, 2)) {
    it(`${method}: a version written between the read and the write is 412, not a retry`, async () => {
      const { store, request, createUser } = racing();
      const user = await createUser('ada@example.org');
      store.interfere = interloper;
      store.replaces = 0;
      const reply = await request(method, `/Users/${user.id}`, {
        body,
        headers: { 'if-match': user.meta.version },
      });
      expect(reply.status).toBe(412);
      expect(store.replaces).toBe(1);
      expect((await store.get('tenant-a', user.id))?.title).toBeUndefined();
    });
  }

  it('any step: refused before it runs (the host API writes go through the same check)', async () => {
    const { pipeline, scim, user } = await pipelineWithUser(new MemoryUserStore());
    let ran = 0;
    const error = await pipeline
      .update('tenant-a', user.id, 'W/"9"', async () => {
        ran++;
        return null;
      })
      .catch((e: unknown) => e);
    expect(isScimError(error) && error.status).toBe(412);
    expect(ran).toBe(0);
    expect((await scim.users.activate('tenant-a', user.id))?.meta.version).toBe('W/"2"');
  });
});

describe('a host store whose replace answers a plain value', () => {
  // The contract says a promise; a JavaScript host's store may answer the boolean itself, which
  // the write takes as an awaited value would be taken.
  class PlainReplaceStore extends MemoryUserStore {
    // @ts-expect-error -- a plain boolean where the contract says a promise of one
    override replace(tenant: string, user: ScimUser, options: ReplaceOptions): boolean {
      void super.replace(tenant, user, options);
      // The memory store checks and writes in one synchronous step: what it did shows now.
      return this.peek(tenant, user.id)?.meta.version === user.meta.version;
    }
  }

  it('PUT and PATCH write and answer as with a promise', async () => {
    const store = new PlainReplaceStore() as unknown as MemoryUserStore;
    const { request, createUser } = setup({ store });
    const { id } = (await createUser('ada@example.org')) as { id: string };
    const put = await request('PUT', `/Users/${id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', displayName: 'Ada' },
    });
    expect(put.status).toBe(200);
    expect(put.body.displayName).toBe('Ada');
    const patch = await request('PATCH', `/Users/${id}`, {
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Ada L.' }),
    });
    expect(patch.status).toBe(200);
    expect(patch.body.meta.version).toBe('W/"3"');
  });
});

describe('the host API on a user that is not there', () => {
  it('activate and resendInvitation on a deleted user: null and false, nothing written or sent', async () => {
    const { scim, store, request, createUser, events } = racing();
    const user = await createUser('ada@example.org', { active: true });
    expect((await request('DELETE', `/Users/${user.id}`)).status).toBe(204);
    store.replaces = 0;
    expect(await scim.users.activate('tenant-a', user.id)).toBeNull();
    expect(await scim.users.resendInvitation('tenant-a', user.id)).toBe(false);
    expect(store.replaces).toBe(0);
    // Only the creation's welcome email.
    expect(await invitations(store)).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['user.created', 'user.invited', 'user.deleted']);
  });

  it('a user deleted between the read and the write: null, false and 404, no email queued', async () => {
    const { scim, store, request, createUser, events } = racing();
    const remove: Interference = async (s, tenant, user) => {
      await MemoryUserStore.prototype.delete.call(s, tenant, user.id);
    };
    for (const [kind, write] of [
      ['activate', async (id: string) => scim.users.activate('tenant-a', id)],
      ['resend', async (id: string) => scim.users.resendInvitation('tenant-a', id)],
      [
        'patch',
        async (id: string) =>
          (
            await request('PATCH', `/Users/${id}`, {
              body: patchBody({ op: 'replace', path: 'title', value: 'Boss' }),
            })
          ).status,
      ],
    ] as const) {
      const user = await createUser(`${kind}@example.org`, { active: true });
      store.interfere = remove;
      expect([kind, await write(user.id)]).toEqual([
        kind,
        kind === 'activate' ? null : kind === 'resend' ? false : 404,
      ]);
    }
    // Only the three creations' welcome emails, and no event for a write that did not happen.
    expect(await invitations(store)).toBe(3);
    expect(events.map((e) => e.type)).toEqual(
      ['user.created', 'user.created', 'user.created'].flatMap((t) => [t, 'user.invited']),
    );
  });
});

// A user service of its own over `store`, and a `createScim` over the same store with an
// active user.
async function pipelineWithUser(store: MemoryUserStore) {
  const pipeline: UserService = new ResourceService(
    new UserKind(store, userResourceType(), {
      invites: true,
      maxAttributeValues: 1000,
      checkUserName: () => undefined,
      onPassword: undefined,
      reportError: () => undefined,
    }),
    new EventHub(() => undefined),
    () => new Date(),
  );
  const { scim, createUser } = setup({ store });
  const user = await createUser('ada@example.org', { active: true });
  return { pipeline, scim, user };
}

describe('the write loop releases the id on every path', () => {
  // A failure of any part of a write leaves the id free: the next write on it goes through.
  class FailingStore extends MemoryUserStore {
    fail: `${'get' | 'replace'} ${'sync' | 'async'}` | undefined;
    override get(tenant: string, id: string) {
      return this.#failure('get') ?? super.get(tenant, id);
    }
    override replace(tenant: string, user: ScimUser, options: ReplaceOptions) {
      return this.#failure('replace') ?? super.replace(tenant, user, options);
    }
    // The failure asked of `call`, once: thrown, or a rejected promise.
    #failure(call: 'get' | 'replace'): Promise<never> | undefined {
      const fail = this.fail;
      if (fail === undefined || !fail.startsWith(call)) return undefined;
      this.fail = undefined;
      const error = new Error(`${call} failed`);
      if (fail.endsWith(' sync')) throw error;
      return Promise.reject(error);
    }
  }

  it('after a store that throws or rejects, and after a step that throws', async () => {
    const store = new FailingStore();
    const { pipeline, scim, user } = await pipelineWithUser(store);
    for (const fail of ['get sync', 'get async', 'replace sync', 'replace async'] as const) {
      store.fail = fail;
      await expect(scim.users.activate('tenant-a', user.id)).rejects.toThrow(/failed/);
    }
    const throwing = pipeline.update('tenant-a', user.id, undefined, async () => {
      throw new Error('step failed');
    });
    await expect(throwing).rejects.toThrow('step failed');
    // Had any of them kept the id, these writes would wait for ever.
    const unchanged = await pipeline.update('tenant-a', user.id, undefined, async () => null);
    expect(unchanged.current.id).toBe(user.id);
    expect((await scim.users.activate('tenant-a', user.id))?.[ACCOUNT].status).toBe('Activated');
  });
});
