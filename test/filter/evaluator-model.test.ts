import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  matchesFilter,
  parseFilter,
  stringifyFilter,
} from '../../src/filter/index.js';
import type { CompareOperator, Filter, FilterValue } from '../../src/filter/index.js';
import { accountSchema, enterpriseUserSchema, userSchema } from '../../src/schema/user-schema.js';
import type { AttributeDefinition } from '../../src/schema/types.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { ACCOUNT_SCHEMA, ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../../src/schema/urns.js';

const schemas = [userSchema, enterpriseUserSchema, accountSchema];
const type = userResourceType();
type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// The slow reference model: collect every value at the path into a list, then decide. It
// looks definitions up by a linear, case-insensitive scan on every call, and shares no code
// with the evaluator.

function lookup(list: readonly AttributeDefinition[] | undefined, name: string) {
  return list?.find((a) => a.name.toLowerCase() === name.toLowerCase());
}

function valuesAt(holder: Json, path: Filter & { path: unknown }, parent?: AttributeDefinition) {
  const p = (path as { path: { schema?: string; attribute: string; subAttribute?: string } }).path;
  let container: unknown = holder;
  let attribute: AttributeDefinition | undefined;
  if (parent) attribute = lookup(parent.subAttributes, p.attribute);
  else if (p.attribute.toLowerCase() === 'schemas' && p.schema === undefined) {
    attribute = {
      ...userSchema.attributes[0]!,
      name: 'schemas',
      multiValued: true,
      caseExact: false,
    };
  } else {
    const schema =
      p.schema === undefined
        ? schemas[0]
        : schemas.find((s) => s.id.toLowerCase() === p.schema!.toLowerCase());
    attribute = lookup(schema?.attributes, p.attribute);
    if (schema && schema !== schemas[0]) container = (holder as Json)[schema.id];
  }
  if (!attribute) throw new Error(`model: unknown ${JSON.stringify(p)}`);
  let sub =
    p.subAttribute === undefined ? undefined : lookup(attribute.subAttributes, p.subAttribute);
  const raw =
    container && typeof container === 'object' ? (container as Json)[attribute.name] : undefined;
  const top = ([] as unknown[]).concat(raw ?? []).filter((v) => v !== null && v !== undefined);
  if (!sub && attribute.type === 'complex' && path.kind === 'compare')
    sub = lookup(attribute.subAttributes, 'value');
  if (!sub) return { definition: attribute, values: top };
  const values = top
    .flatMap((item) =>
      item && typeof item === 'object' ? [].concat(((item as Json)[sub.name] as never) ?? []) : [],
    )
    .filter((v) => v !== null && v !== undefined);
  return { definition: sub, values };
}

function present(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  if (Array.isArray(v)) return v.some(present);
  if (typeof v === 'object') return Object.values(v).some(present);
  return true;
}

function compare(
  def: AttributeDefinition,
  op: CompareOperator,
  actual: unknown,
  literal: FilterValue,
): boolean {
  let a: unknown = actual;
  let b: unknown = literal;
  if (def.type === 'dateTime') {
    if (typeof a !== 'string') return false;
    a = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(a) ? a : `${a}Z`).getTime();
    b = new Date(literal as string).getTime();
  } else if (def.type === 'string' || def.type === 'reference' || def.type === 'binary') {
    if (typeof a !== 'string') return false;
    if (!def.caseExact) {
      a = (a as string).toLowerCase();
      b = (b as string).toLowerCase();
    }
  }
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'co':
      return (a as string).includes(b as string);
    case 'sw':
      return (a as string).startsWith(b as string);
    case 'ew':
      return (a as string).endsWith(b as string);
    case 'gt':
      return typeof a === typeof b && (a as number) > (b as number);
    case 'ge':
      return typeof a === typeof b && (a as number) >= (b as number);
    case 'lt':
      return typeof a === typeof b && (a as number) < (b as number);
    case 'le':
      return typeof a === typeof b && (a as number) <= (b as number);
  }
}

function model(holder: Json, filter: Filter, parent?: AttributeDefinition): boolean {
  switch (filter.kind) {
    case 'and':
      return model(holder, filter.left, parent) && model(holder, filter.right, parent);
    case 'or':
      return model(holder, filter.left, parent) || model(holder, filter.right, parent);
    case 'not':
      return !model(holder, filter.filter, parent);
    case 'present':
      return valuesAt(holder, filter, parent).values.some(present);
    case 'valuePath': {
      const { definition, values } = valuesAt(holder, filter);
      return values.some(
        (v) =>
          typeof v === 'object' && !Array.isArray(v) && model(v as Json, filter.filter, definition),
      );
    }
    case 'compare': {
      const { definition, values } = valuesAt(holder, filter, parent);
      if (filter.value === null)
        return filter.op === 'eq' ? !values.some(present) : values.some(present);
      if (filter.op === 'ne')
        return (
          values.length === 0 || values.some((v) => compare(definition, 'ne', v, filter.value))
        );
      return values.some((v) => compare(definition, filter.op, v, filter.value));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Random users and random valid filters drawn from the same small pools, so that they match
// often enough to be interesting.

const words = [
  'ada@example.org',
  'ADA@Example.org',
  'bob@example.com',
  'Employee',
  'employee',
  'Intern',
  'work',
  'Work',
  'home',
  'x',
  '',
  'Pending',
  'Invited',
  '701984',
  'é',
];
const fragments = ['example', 'EXAMPLE', '@', 'ada', 'o', 'Em', 'rk', 'org'];
const times = [
  '2011-05-13T04:42:34Z',
  '2011-05-13T06:42:34+02:00',
  '2011-05-13T04:42:35Z',
  '2020-01-01T00:00:00Z',
  '2019-12-31T23:59:59.999Z',
];
const text = fc.constantFrom(...words);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const email = fc.record(
  {
    value: maybe(text),
    type: maybe(fc.constantFrom('work', 'home', 'WORK', 'other')),
    primary: maybe(fc.boolean()),
  },
  { requiredKeys: [] },
);

const user: fc.Arbitrary<Json> = fc.record(
  {
    schemas: fc.subarray([USER_SCHEMA, ENTERPRISE_USER_SCHEMA, ACCOUNT_SCHEMA]),
    id: text,
    externalId: fc.oneof(text, fc.constant(null)),
    userName: text,
    displayName: text,
    title: text,
    userType: text,
    active: fc.boolean(),
    name: fc.record({ givenName: text, familyName: text }, { requiredKeys: [] }),
    emails: fc.array(email, { maxLength: 3 }),
    meta: fc.record({
      created: fc.constantFrom(...times),
      lastModified: fc.constantFrom(...times),
    }),
    [ENTERPRISE_USER_SCHEMA]: fc.record(
      { employeeNumber: text, manager: fc.record({ value: text }, { requiredKeys: [] }) },
      { requiredKeys: [] },
    ),
    [ACCOUNT_SCHEMA]: fc.record({ status: fc.constantFrom('Pending', 'Invited', 'invited') }),
  },
  { requiredKeys: [] },
);

type Kind = 'string' | 'boolean' | 'dateTime';
const E = ENTERPRISE_USER_SCHEMA;
const topPaths: [string, Kind][] = [
  ['userName', 'string'],
  ['USERNAME', 'string'],
  ['id', 'string'],
  ['externalId', 'string'],
  ['displayName', 'string'],
  ['title', 'string'],
  ['userType', 'string'],
  ['name.givenName', 'string'],
  ['Name.FamilyName', 'string'],
  ['active', 'boolean'],
  ['emails', 'string'],
  ['emails.value', 'string'],
  ['emails.type', 'string'],
  ['emails.primary', 'boolean'],
  ['meta.created', 'dateTime'],
  ['meta.lastModified', 'dateTime'],
  [`${E}:employeeNumber`, 'string'],
  [`${E}:manager.value`, 'string'],
  [`${ACCOUNT_SCHEMA}:status`, 'string'],
  ['schemas', 'string'],
  ['urn:ietf:params:scim:schemas:core:2.0:User:userName', 'string'],
];
const innerPaths: [string, Kind][] = [
  ['value', 'string'],
  ['type', 'string'],
  ['primary', 'boolean'],
  ['VALUE', 'string'],
];

function toPath(text: string) {
  const colon = text.lastIndexOf(':');
  const [attribute = '', subAttribute] = text.slice(colon + 1).split('.');
  return {
    ...(colon < 0 ? {} : { schema: text.slice(0, colon) }),
    attribute,
    ...(subAttribute === undefined ? {} : { subAttribute }),
  };
}

function leafOf(paths: [string, Kind][]): fc.Arbitrary<Filter> {
  return fc.constantFrom(...paths).chain(([p, kind]): fc.Arbitrary<Filter> => {
    const path = toPath(p);
    const presentArb = fc.constant<Filter>({ kind: 'present', path });
    const nullArb = fc
      .constantFrom('eq' as const, 'ne' as const)
      .map((op): Filter => ({ kind: 'compare', path, op, value: null }));
    const typed =
      kind === 'boolean'
        ? fc.record({ op: fc.constantFrom('eq' as const, 'ne' as const), value: fc.boolean() })
        : kind === 'dateTime'
          ? fc.record({
              op: fc.constantFrom<CompareOperator>('eq', 'ne', 'gt', 'ge', 'lt', 'le'),
              value: fc.constantFrom(...times),
            })
          : fc.record({
              op: fc.constantFrom<CompareOperator>(
                'eq',
                'ne',
                'co',
                'sw',
                'ew',
                'gt',
                'ge',
                'lt',
                'le',
              ),
              value: fc.oneof(text, fc.constantFrom(...fragments)),
            });
    const compareArb = typed.map(({ op, value }): Filter => ({ kind: 'compare', path, op, value }));
    return p.toLowerCase() === 'schemas'
      ? compareArb
      : fc.oneof({ weight: 6, arbitrary: compareArb }, presentArb, nullArb);
  });
}

const { filter } = fc.letrec<{ filter: Filter; inner: Filter }>((tie) => ({
  filter: fc.oneof(
    { maxDepth: 4, depthSize: 'small' },
    leafOf(topPaths),
    fc.record({
      kind: fc.constantFrom('and' as const, 'or' as const),
      left: tie('filter'),
      right: tie('filter'),
    }),
    fc.record({ kind: fc.constant('not' as const), filter: tie('filter') }),
    fc.record({
      kind: fc.constant('valuePath' as const),
      path: fc.constant(toPath('emails')),
      filter: tie('inner'),
    }),
  ),
  inner: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    leafOf(innerPaths),
    fc.record({
      kind: fc.constantFrom('and' as const, 'or' as const),
      left: tie('inner'),
      right: tie('inner'),
    }),
    fc.record({ kind: fc.constant('not' as const), filter: tie('inner') }),
  ),
}));

describe('the evaluator agrees with a slow reference model', () => {
  it('on random users and random filters', () => {
    fc.assert(
      fc.property(filter, fc.array(user, { minLength: 1, maxLength: 8 }), (ast, users) => {
        const predicate = compileFilter(ast, type);
        for (const u of users) {
          const expected = model(u, ast);
          expect(predicate(u), stringifyFilter(ast)).toBe(expected);
          expect(matchesFilter(u, ast, type)).toBe(expected);
        }
      }),
      { numRuns: 3000 },
    );
  });
  it('also when the filter went through text', () => {
    fc.assert(
      fc.property(filter, user, (ast, u) => {
        const reparsed = parseFilter(stringifyFilter(ast), { maxDepth: 100, maxLength: 100_000 });
        expect(matchesFilter(u, reparsed, type)).toBe(model(u, ast));
      }),
      { numRuns: 1000 },
    );
  });
});
