// The store contracts as a store author implements them, and scimkit's stores against them
// (vitest --typecheck).
import { describe, expectTypeOf, it } from 'vitest';
import type {
  GroupStore,
  GroupStoreShape,
  ListQuery,
  ListResult,
  MemberInput,
  ResourceStore,
  ResourceStoreShape,
  ScimGroup,
  ScimUser,
  StorePage,
  TypeStore,
  UserStore,
  UserStoreShape,
  WriteEffects,
  MembershipEventEffects,
} from '../../src/index.js';
import type { Filter } from '../../src/filter/index.js';
import type { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import type { PostgresResourceStore, PostgresUserStore } from '../../src/stores/postgres/index.js';

describe('store contracts', () => {
  it('answer null for a user that is not there', () => {
    expectTypeOf<UserStore['get']>().returns.toEqualTypeOf<Promise<ScimUser | null>>();
  });

  it('hand a list the checked filter AST of scimkit/filter', () => {
    expectTypeOf<ListQuery['filter']>().toEqualTypeOf<Filter | undefined>();
    expectTypeOf<UserStore['list']>().returns.toEqualTypeOf<Promise<ListResult>>();
  });

  it('are met by the memory and PostgreSQL stores', () => {
    expectTypeOf<MemoryUserStore>().toExtend<UserStore>();
    expectTypeOf<PostgresUserStore>().toExtend<UserStore>();
  });

  it('keep groups optional on a user store', () => {
    expectTypeOf<UserStore['groups']>().toEqualTypeOf<GroupStore | undefined>();
  });

  it('are one contract: users, groups and host types are its specialisations', () => {
    expectTypeOf<UserStore>().toExtend<TypeStore<UserStoreShape>>();
    expectTypeOf<GroupStore>().toExtend<TypeStore<GroupStoreShape>>();
    expectTypeOf<ResourceStore>().toExtend<TypeStore<ResourceStoreShape>>();
    expectTypeOf<MemoryResourceStore>().toExtend<ResourceStore>();
    expectTypeOf<PostgresResourceStore>().toExtend<ResourceStore>();
    expectTypeOf<ListResult>().toEqualTypeOf<StorePage<ScimUser>>();
  });

  it("keep each specialisation's signatures", () => {
    expectTypeOf<UserStore['create']>().parameters.toEqualTypeOf<
      [tenant: string, resource: ScimUser, effects?: WriteEffects]
    >();
    expectTypeOf<GroupStore['create']>().parameters.toEqualTypeOf<
      [
        tenant: string,
        resource: ScimGroup,
        members: readonly MemberInput[],
        effects?: MembershipEventEffects,
      ]
    >();
    expectTypeOf<UserStore['replace']>().returns.toEqualTypeOf<Promise<boolean>>();
  });
});
