import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { patchBody, setup } from '../core/harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

// A user's `groups` is computed from memberships, not stored with the user: a membership
// change is a write of the group only. docs/groups.md ("A user's groups") says what a client
// that caches users does about it.
describe.each(everyStore)('a user’s ETag and its memberships, $name store', ({ open }) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  }, 120_000);
  afterAll(async () => opened?.close());

  it('stays the same when the user joins or leaves a group, while `groups` changes', async () => {
    const { request, createUser } = setup({ store: opened.store });
    const user = await createUser('etag-member@example.org');
    const before = await request('GET', `/Users/${user.id}`);
    const etag = before.headers.etag as string;
    expect(before.body.groups).toBeUndefined();

    const created = await request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Teachers', members: [{ value: user.id }] },
    });
    const joined = await request('GET', `/Users/${user.id}`);
    expect(joined.headers.etag).toBe(etag);
    expect(joined.body.meta.version).toBe(etag);
    expect(joined.body.groups).toMatchObject([{ value: created.body.id, type: 'direct' }]);
    // The consequence a caching client must know: a conditional GET answers 304 although the
    // representation's `groups` changed.
    const conditional = await request('GET', `/Users/${user.id}`, {
      headers: { 'if-none-match': etag },
    });
    expect(conditional.status).toBe(304);
    // And a write to the user with the ETag read before the membership change succeeds.
    const patched = await request('PATCH', `/Users/${user.id}`, {
      headers: { 'if-match': etag },
      body: patchBody({ op: 'replace', path: 'title', value: 'Teacher' }),
    });
    expect(patched.status).toBe(200);
    const next = patched.headers.etag as string;
    expect(next).not.toBe(etag);

    const left = await request('PATCH', `/Groups/${created.body.id}`, {
      body: patchBody({ op: 'remove', path: `members[value eq "${user.id}"]` }),
    });
    expect(left.status).toBe(204);
    const after = await request('GET', `/Users/${user.id}`);
    expect(after.headers.etag).toBe(next);
    expect(after.body.groups).toBeUndefined();
  });
});
