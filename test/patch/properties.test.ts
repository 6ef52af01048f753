import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { applyPatch } from '../../src/patch/index.js';
import {
  ACCOUNT_SCHEMA,
  ENTERPRISE_USER_SCHEMA,
  message,
  OPTIONS,
  USER_SCHEMA,
} from './fixtures.js';

const text = fc.constantFrom('Ada', 'ada@example.org', 'WORK', 'work', 'home', '', 'x y', 'True');
const multi = fc.array(
  fc.record(
    {
      value: text,
      type: fc.constantFrom('work', 'home', 'other'),
      primary: fc.boolean(),
      display: text,
    },
    { requiredKeys: [] },
  ),
  { maxLength: 4 },
);

/** Random stored users: any subset of attributes, the shapes the core stores. */
const user = fc
  .record(
    {
      externalId: text,
      name: fc.record({ givenName: text, familyName: text, formatted: text }, { requiredKeys: [] }),
      displayName: text,
      nickName: text,
      title: text,
      emails: multi,
      roles: multi,
      phoneNumbers: multi,
      enterprise: fc.record(
        { department: text, employeeNumber: text, manager: fc.record({ value: text }) },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  )
  .chain((parts) =>
    fc.record({ active: fc.boolean(), userName: text }).map(({ active, userName }) => {
      const { enterprise, ...core } = parts;
      const schemas = [USER_SCHEMA, ACCOUNT_SCHEMA];
      const out: Record<string, unknown> = {
        schemas,
        id: 'id-1',
        userName,
        active,
        ...core,
        [ACCOUNT_SCHEMA]: { status: 'Pending' },
        meta: {
          resourceType: 'User',
          created: '2026-01-01T00:00:00Z',
          lastModified: '2026-01-01T00:00:00Z',
          version: 'W/"1"',
        },
      };
      if (enterprise && Object.keys(enterprise).length > 0) {
        out[ENTERPRISE_USER_SCHEMA] = enterprise;
        schemas.push(ENTERPRISE_USER_SCHEMA);
      }
      return out;
    }),
  );

const paths = fc.constantFrom(
  'active',
  'displayName',
  'userName',
  'name',
  'name.givenName',
  'NAME.familyname',
  'emails',
  'emails[type eq "work"]',
  'emails[type eq "work"].value',
  'emails[type eq "home" and primary eq true].display',
  'emails[value co "@"].primary',
  'roles',
  'roles[value eq "Ada"]',
  'phoneNumbers[type eq "work"].value',
  `${ENTERPRISE_USER_SCHEMA}:department`,
  `${ENTERPRISE_USER_SCHEMA}:manager`,
  `${ENTERPRISE_USER_SCHEMA}:manager.value`,
  ENTERPRISE_USER_SCHEMA,
  `${ACCOUNT_SCHEMA}:status`,
  'id',
  'meta.version',
  'groups',
  'password',
  'unknown',
  'emails[',
  'emails[nope eq 1]',
  'name[givenName eq "x"]',
  '',
);

const values = fc.oneof(
  fc.boolean(),
  text,
  fc.constant(null),
  fc.constantFrom('False', 'true'),
  multi,
  fc.record(
    { givenName: text, value: text, type: text, primary: fc.boolean() },
    { requiredKeys: [] },
  ),
  fc.dictionary(
    fc.constantFrom(
      'active',
      'name.givenName',
      'displayName',
      'id',
      'emails',
      ENTERPRISE_USER_SCHEMA,
      `${ENTERPRISE_USER_SCHEMA}:department`,
      'junk',
    ),
    fc.oneof(text, fc.boolean(), fc.constant(null), multi),
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

const operation = fc.record(
  {
    op: fc.constantFrom('add', 'remove', 'replace', 'Add', 'REPLACE', 'Remove', 'copy'),
    path: paths,
    value: values,
  },
  { requiredKeys: ['op'] },
);

const runs = { numRuns: 400 };

describe('applyPatch properties', () => {
  it('never mutates its input, throws only ScimErrors, and a failure changes nothing', () => {
    fc.assert(
      fc.property(user, fc.array(operation, { minLength: 1, maxLength: 6 }), (resource, ops) => {
        const before = structuredClone(resource);
        const body = message(...ops);
        const bodyBefore = structuredClone(body);
        try {
          const result = applyPatch(resource, body, OPTIONS);
          expect(result.resource.meta).toEqual(before.meta);
          expect(result.resource.id).toBe(before.id);
        } catch (error) {
          expect(isScimError(error)).toBe(true);
        }
        expect(resource).toEqual(before);
        expect(body).toEqual(bodyBefore);
      }),
      runs,
    );
  });

  it('reports changed exactly when the result differs from the input', () => {
    fc.assert(
      fc.property(user, fc.array(operation, { minLength: 1, maxLength: 4 }), (resource, ops) => {
        try {
          const { resource: out, changed } = applyPatch(resource, message(...ops), OPTIONS);
          expect(changed).toBe(
            JSON.stringify(sortKeys(out)) !== JSON.stringify(sortKeys(resource)),
          );
        } catch (error) {
          expect(isScimError(error)).toBe(true);
        }
      }),
      runs,
    );
  });

  it('applying the same replace twice equals applying it once', () => {
    const replace = operation.map((op) => ({ ...op, op: 'replace' }));
    fc.assert(
      fc.property(user, replace, (resource, op) => {
        // A filtered replace whose value changes what the filter selects on moves the value
        // out of the filter's reach, so the second replace rightly finds nothing (noTarget).
        fc.pre(!movesOutOfFilter(op.path, op.value));
        let once: Record<string, unknown>;
        try {
          once = applyPatch(resource, message(op), OPTIONS).resource;
        } catch (error) {
          expect(isScimError(error)).toBe(true);
          return;
        }
        const twice = applyPatch(once, message(op), OPTIONS);
        expect(twice.resource).toEqual(once);
        expect(twice.changed).toBe(false);
      }),
      runs,
    );
  });
});

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
  );
}

function movesOutOfFilter(path: string | undefined, value: unknown): boolean {
  const pinned = path && !path.includes('].') ? /\[(\w+) eq/.exec(path)?.[1] : undefined;
  if (!pinned) return false;
  if (typeof value === 'string') return pinned === 'value';
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).some((k) => k.toLowerCase() === pinned.toLowerCase())
  );
}
