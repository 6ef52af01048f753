// The store contracts as a store author implements them, and scimkit's stores against them
// (vitest --typecheck).
import { describe, expectTypeOf, it } from 'vitest';
import type {
  GroupStore,
  ListQuery,
  ListResult,
  OutboxStore,
  ScimUser,
  UserStore,
} from '../../src/index.js';
import type { Filter } from '../../src/filter/index.js';
import type { MemoryUserStore } from '../../src/stores/memory/index.js';
import type { PostgresOutboxStore, PostgresUserStore } from '../../src/stores/postgres/index.js';

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
    expectTypeOf<PostgresOutboxStore>().toExtend<OutboxStore>();
  });

  it('keep groups optional on a user store', () => {
    expectTypeOf<UserStore['groups']>().toEqualTypeOf<GroupStore | undefined>();
  });
});
