// What the compiler accepts as createScim options, and what it refuses (vitest --typecheck).
import { describe, expectTypeOf, it } from 'vitest';
import {
  createScim,
  staticApiKeys,
  type Mailer,
  type Scim,
  type ScimOptions,
  type UserStore,
} from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

const store = new MemoryUserStore();
const verifier = staticApiKeys([{ key: 'k', tenant: 't' }]);
const mailer: Mailer = { async sendWelcome() {} };

describe('createScim options', () => {
  it('needs a store and a verifier, takes a mailer, and returns a Scim', () => {
    expectTypeOf(createScim).parameter(0).toEqualTypeOf<ScimOptions>();
    expectTypeOf(createScim({ store, verifier, mailer })).toEqualTypeOf<Scim>();
    // A host that sends no welcome email leaves the mailer out.
    expectTypeOf(createScim({ store, verifier })).toEqualTypeOf<Scim>();
    // @ts-expect-error: the store is required
    createScim({ verifier, mailer });
    // @ts-expect-error: the verifier is required
    createScim({ store, mailer });
  });

  it('takes the verifier in `auth` and the mailer in `mail`, the flat names as aliases', () => {
    expectTypeOf(createScim({ store, auth: { verifier }, mail: { mailer } })).toEqualTypeOf<Scim>();
    createScim({ store, auth: { verifier, rateLimit: () => true } });
    // @ts-expect-error: `auth` without a verifier, and none at the top level
    createScim({ store, auth: { rateLimit: () => true } });
    createScim({ store, verifier, auth: { rateLimit: () => true } });
  });

  it('takes every group', () => {
    createScim({
      store,
      auth: { verifier },
      limits: { maxBodyBytes: 1024, maxPatchWork: 10 },
      paging: { defaultPageSize: 10, advertiseCursors: false },
      dialects: { patchRules: { stringBooleans: false }, defaultProfile: 'strict' },
      schema: { userNameRule: 'email' },
      hooks: { onError: () => undefined, now: () => new Date(0) },
    });
    // @ts-expect-error: no such dialect rule
    createScim({ store, auth: { verifier }, dialects: { patchRules: { noSuchRule: false } } });
    // @ts-expect-error: maxBodyBytes is a number of bytes
    createScim({ store, auth: { verifier }, limits: { maxBodyBytes: '1 MiB' } });
  });

  it('takes a UserStore, which the memory store is', () => {
    expectTypeOf<ScimOptions['store']>().toEqualTypeOf<UserStore>();
    expectTypeOf(store).toExtend<UserStore>();
  });

  it('switches dialect rules by name only', () => {
    createScim({ store, verifier, mailer, patchRules: { stringBooleans: false } });
    // @ts-expect-error: no such dialect rule
    createScim({ store, verifier, mailer, patchRules: { noSuchRule: false } });
  });

  it('refuses a wrongly typed limit', () => {
    // @ts-expect-error: maxBodyBytes is a number of bytes
    createScim({ store, verifier, mailer, maxBodyBytes: '1 MiB' });
  });
});
