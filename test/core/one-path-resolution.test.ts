import { describe, expect, it } from 'vitest';
import { checkSortBy } from '../../src/core/handlers/sort-by.js';
import { isScimError } from '../../src/errors/index.js';
import { checkFilter, parseFilter } from '../../src/filter/index.js';
import { patchContext } from '../../src/patch/patch-context.js';
import { resolvePath } from '../../src/patch/resolve-target.js';
import { compileProjection } from '../../src/schema/project-resource.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../../src/schema/urns.js';

// One path grammar and one resolver, so every place that takes an attribute path
// from a client (filter, PATCH path, sortBy, attributes=) takes the same decision for the same
// text: the same canonical attribute, or a refusal.
const type = userResourceType();
const E = ENTERPRISE_USER_SCHEMA;

type Outcome = string; // `urn|attribute|sub`, or 'refused'
const canonical = (schema: string | undefined, attribute: string, sub?: string): Outcome =>
  `${schema ?? ''}|${attribute}|${sub ?? ''}`;

function refusedOn(run: () => Outcome): Outcome {
  try {
    return run();
  } catch (error) {
    if (isScimError(error) && error.status === 400) return 'refused';
    throw error;
  }
}

const viaFilter = (text: string) =>
  refusedOn(() => {
    const f = checkFilter(parseFilter(`${text} pr`), type);
    if (f.kind !== 'present') throw new Error('not a present filter');
    return canonical(f.path.schema, f.path.attribute, f.path.subAttribute);
  });

const viaPatch = (text: string) =>
  refusedOn(() => {
    const resolved = resolvePath(patchContext({ resourceType: type }), text);
    if (resolved.kind !== 'attribute') return `extension ${resolved.schema.id}`;
    const { schema, attr, sub } = resolved.target;
    return canonical(schema === type.core ? undefined : schema.id, attr.name, sub?.name);
  });

const viaSortBy = (text: string) =>
  refusedOn(() => {
    const path = checkSortBy(text, type);
    return canonical(path.schema, path.attribute, path.subAttribute);
  });

const user = {
  schemas: [USER_SCHEMA, E],
  id: 'u1',
  userName: 'ada@example.org',
  displayName: 'Ada',
  title: 'Countess',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  [E]: { department: 'Maths', manager: { value: 'm1', displayName: 'Babbage' } },
};
const ALWAYS = new Set(['schemas', 'id', 'userName']);

// What `attributes=<text>` selects, read back from the projection of a user holding it all.
function viaAttributes(text: string): Outcome {
  const project = compileProjection({ attributes: [text] }, type);
  const out = project?.(user) ?? {};
  const picked: Outcome[] = [];
  for (const [key, value] of Object.entries(out)) {
    if (ALWAYS.has(key)) continue;
    const inner = key === E ? (value as Record<string, unknown>) : { [key]: value };
    for (const [attribute, v] of Object.entries(inner)) {
      const subs = typeof v === 'object' && v !== null ? Object.keys(v) : [];
      const whole =
        key === E ? (user[E] as Record<string, unknown>)[attribute] : user[attribute as 'name'];
      const allSubs = typeof whole === 'object' && whole !== null ? Object.keys(whole) : [];
      const sub = subs.length === 1 && allSubs.length > 1 ? subs[0] : undefined;
      picked.push(canonical(key === E ? E : undefined, attribute, sub));
    }
  }
  return picked.length === 1
    ? (picked[0] as Outcome)
    : picked.length === 0
      ? 'refused'
      : picked.join(',');
}

const TABLE: [string, Outcome][] = [
  ['displayName', canonical(undefined, 'displayName')],
  ['DISPLAYNAME', canonical(undefined, 'displayName')],
  ['name.givenName', canonical(undefined, 'name', 'givenName')],
  ['Name.GivenName', canonical(undefined, 'name', 'givenName')],
  [`${USER_SCHEMA}:title`, canonical(undefined, 'title')],
  [`${USER_SCHEMA.toUpperCase()}:name.familyName`, canonical(undefined, 'name', 'familyName')],
  [`${E}:department`, canonical(E, 'department')],
  [`${E.toLowerCase()}:DEPARTMENT`, canonical(E, 'department')],
  [`${E}:manager.value`, canonical(E, 'manager', 'value')],
  ['nope', 'refused'],
  ['name.nope', 'refused'],
  ['displayName.x', 'refused'],
  ['name.givenName.x', 'refused'],
  ['urn:example:unknown:title', 'refused'],
  [`${E}:title`, 'refused'],
  ['1abc', 'refused'],
  [':title', 'refused'],
  ['title!', 'refused'],
  ['$title', 'refused'],
];

describe('one attribute-path resolution for filter, PATCH, sortBy and attributes=', () => {
  it.each(TABLE)('%s', (text, expected) => {
    expect({
      filter: viaFilter(text),
      patch: viaPatch(text),
      sortBy: viaSortBy(text),
      attributes: viaAttributes(text),
    }).toEqual({ filter: expected, patch: expected, sortBy: expected, attributes: expected });
  });
});
