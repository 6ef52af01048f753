import { describe, expect, it } from 'vitest';
import { filterReader } from '../../src/core/handlers/filter-reader.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { checkFilter, parseFilter } from '../../src/filter/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { failure } from '../patch/fixtures.js';
import { and, cmp, or, vp } from './ast-builders.js';

// Dialect rule `unquotedFilterValues`: Microsoft's reference tests send filter values without
// quotes (AzureAD/SCIMReferenceCode, UserAndGroupTestsWithGarbage.cs). RFC 7644 §3.4.2.2 does
// not allow them, so the parser reads them only when told to.

const LOOSE = { unquotedValues: true } as const;

/** The detail of the `invalidFilter` error `run` throws. */
function invalidFilter(run: () => unknown): string {
  const error = failure(run);
  expect(error.scimType).toBe('invalidFilter');
  return error.detail;
}

describe('parseFilter with unquotedValues', () => {
  it('reads a value without quotes as a string', () => {
    expect(parseFilter('userName sw O', LOOSE)).toEqual(cmp('userName', 'sw', 'O'));
    expect(parseFilter('externalId eq jyoung', LOOSE)).toEqual(cmp('externalId', 'eq', 'jyoung'));
    expect(parseFilter('emails.value co example.com', LOOSE)).toEqual(
      cmp('emails.value', 'co', 'example.com'),
    );
  });

  it('reads a date-time without quotes as its text, with or without fraction and offset', () => {
    expect(parseFilter('meta.created gt 2015-10-10T14:38:21', LOOSE)).toEqual(
      cmp('meta.created', 'gt', '2015-10-10T14:38:21'),
    );
    expect(parseFilter('meta.Created gt 2015-10-10T14:38:21.8617979-07:00', LOOSE)).toEqual(
      cmp('meta.Created', 'gt', '2015-10-10T14:38:21.8617979-07:00'),
    );
  });

  it('ends a bare word at a space, ")" or "]", so and / or / groups / value paths still parse', () => {
    expect(
      parseFilter(
        'name.FamilyName eq Employee and (emails.Value co example.com or emails.Value co example.org)',
        LOOSE,
      ),
    ).toEqual(
      and(
        cmp('name.FamilyName', 'eq', 'Employee'),
        or(cmp('emails.Value', 'co', 'example.com'), cmp('emails.Value', 'co', 'example.org')),
      ),
    );
    expect(parseFilter('emails[type eq work]', LOOSE)).toEqual(
      vp('emails', cmp('type', 'eq', 'work')),
    );
  });

  it('keeps the JSON meaning of true, false, null, numbers and quoted strings', () => {
    expect(parseFilter('active eq true', LOOSE)).toEqual(cmp('active', 'eq', true));
    expect(parseFilter('active eq FALSE', LOOSE)).toEqual(cmp('active', 'eq', false));
    expect(parseFilter('title eq null', LOOSE)).toEqual(cmp('title', 'eq', null));
    expect(parseFilter('x eq -12.5e2', LOOSE)).toEqual(cmp('x', 'eq', -1250));
    expect(parseFilter('x eq 42', LOOSE)).toEqual(cmp('x', 'eq', 42));
    expect(parseFilter('userName eq "a b"', LOOSE)).toEqual(cmp('userName', 'eq', 'a b'));
    // Words that only start like a keyword or a number are words.
    expect(parseFilter('title eq trueish', LOOSE)).toEqual(cmp('title', 'eq', 'trueish'));
    expect(parseFilter('title eq 007', LOOSE)).toEqual(cmp('title', 'eq', '007'));
  });

  it('still refuses a missing value and text no store can hold', () => {
    expect(invalidFilter(() => parseFilter('userName eq ', LOOSE))).toContain('expected a value');
    expect(invalidFilter(() => parseFilter('(userName eq )', LOOSE))).toContain('expected a value');
    expect(invalidFilter(() => parseFilter('userName eq a\u0000b', LOOSE))).toContain('U+0000');
  });

  it('is off by default: RFC 7644 needs quotes', () => {
    expect(invalidFilter(() => parseFilter('userName sw O'))).toContain('expected a value');
    expect(invalidFilter(() => parseFilter('meta.created gt 2015-10-10T14:38:21'))).toContain(
      'malformed number',
    );
  });
});

describe('the rule reaches the parser from the resource type', () => {
  it('reads bare values when unquotedFilterValues is on (the default), a dateTime as a dateTime', () => {
    const read = filterReader(userResourceType());
    expect(read('userName sw O')).toEqual(
      checkFilter(parseFilter('userName sw "O"'), userResourceType()),
    );
    expect(invalidFilter(() => read('meta.created gt yesterday'))).toContain('is a dateTime');
    expect(read('meta.created gt 2015-10-10T14:38:21')).toEqual(
      checkFilter(parseFilter('meta.created gt "2015-10-10T14:38:21"'), userResourceType()),
    );
  });

  it('refuses them when the host switches the rule off', () => {
    const read = filterReader(userResourceType({ rules: { unquotedFilterValues: false } }));
    expect(invalidFilter(() => read('userName sw O'))).toContain('expected a value');
    expect(read('userName sw "O"')).toEqual(cmp('userName', 'sw', 'O'));
  });
});

describe('over HTTP, through createScim', () => {
  async function search(patchRules?: { unquotedFilterValues: false }) {
    const scim = createScim({
      store: new MemoryUserStore(),
      verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
      mailer: { sendWelcome: async () => undefined },
      ...(patchRules ? { patchRules } : {}),
    });
    try {
      const reply = await scim.handle({
        method: 'GET',
        path: '/Users',
        query: 'filter=userName%20sw%20O',
        headers: { authorization: 'Bearer k' },
      });
      return {
        status: reply.status,
        body: JSON.parse(reply.body ?? '{}') as Record<string, unknown>,
      };
    } finally {
      await scim.close();
    }
  }

  it('answers userName sw O by default, and 400 invalidFilter with patchRules switching it off', async () => {
    expect(await search()).toMatchObject({ status: 200, body: { totalResults: 0 } });
    expect(await search({ unquotedFilterValues: false })).toMatchObject({
      status: 400,
      body: { scimType: 'invalidFilter' },
    });
  });
});
