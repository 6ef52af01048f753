// The payload each event type carries, as a listener sees it after narrowing on `type`
// (vitest --typecheck).
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ChangedAttributes,
  GroupMember,
  RequestCompletedEvent,
  Scim,
  ScimEvent,
  ScimGroup,
  ScimUser,
} from '../../src/index.js';

describe('lifecycle event payloads', () => {
  it('narrow on `type` to the payload of that event', () => {
    const listener = (event: ScimEvent) => {
      expectTypeOf(event.tenant).toEqualTypeOf<string>();
      expectTypeOf(event.at).toEqualTypeOf<string>();
      switch (event.type) {
        case 'user.created':
          expectTypeOf(event.user).toEqualTypeOf<ScimUser>();
          break;
        case 'user.updated':
          expectTypeOf(event.before).toEqualTypeOf<ScimUser>();
          expectTypeOf(event.after).toEqualTypeOf<ScimUser>();
          expectTypeOf(event.changed).toEqualTypeOf<ChangedAttributes>();
          break;
        case 'group.updated':
          expectTypeOf(event.after).toEqualTypeOf<ScimGroup>();
          break;
        case 'group.member_added':
        case 'group.member_removed':
          expectTypeOf(event.groupId).toEqualTypeOf<string>();
          expectTypeOf(event.member).toEqualTypeOf<GroupMember>();
          break;
        case 'group.deleted':
          expectTypeOf(event.id).toEqualTypeOf<string>();
          // @ts-expect-error: a deleted group's event carries its id only
          void event.group;
          break;
      }
    };
    expectTypeOf(listener).toExtend<Parameters<Scim['on']>[0]>();
  });

  it('list every event type by name', () => {
    expectTypeOf<ScimEvent['type']>().toEqualTypeOf<
      | 'user.created'
      | 'user.updated'
      | 'user.deactivated'
      | 'user.reactivated'
      | 'user.activated'
      | 'user.invited'
      | 'user.deleted'
      | 'group.created'
      | 'group.updated'
      | 'group.deleted'
      | 'group.member_added'
      | 'group.member_removed'
      | 'resource.created'
      | 'resource.updated'
      | 'resource.deleted'
    >();
  });

  it('give request listeners the completed request', () => {
    expectTypeOf<Parameters<Scim['onRequest']>[0]>()
      .parameter(0)
      .toEqualTypeOf<RequestCompletedEvent>();
    expectTypeOf<RequestCompletedEvent['tenant']>().toEqualTypeOf<string | undefined>();
  });
});
