import { matchesFilter, parseDateTime, type Filter } from '../../filter/index.js';
import { parsePatchPath } from '../../patch/index.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { isIdReference } from '../../schema/value-shape.js';
import type { Normalisation } from './types.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The member of `object` named `name` in any letter case: its spelling there, or undefined. */
function findKey(object: Json, name: string): string | undefined {
  if (Object.hasOwn(object, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(object).find((key) => key.toLowerCase() === lower);
}

/** A JSON-encoded object or array in a string, decoded; undefined for any other text. */
function decodedJson(text: string): unknown {
  const first = text.trimStart().charAt(0);
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// Compares what was received with what was stored at `path`, recording each difference a
// rule explains; differences no rule explains (a value the server set) are not reported.
function compare(received: unknown, stored: unknown, path: string, out: Normalisation[]): void {
  if (received === stored || stored === undefined) return;
  if (typeof received === 'string') {
    if (typeof stored === 'boolean') {
      if (received.toLowerCase() === String(stored))
        out.push({ rule: 'stringBooleans', path, received, stored });
      return;
    }
    if (isObject(stored) && stored.value === received) {
      out.push({ rule: 'managerString', path, received, stored });
      return;
    }
    const decoded = decodedJson(received);
    if (decoded !== undefined && typeof stored === 'object') {
      out.push({ rule: 'jsonEncodedValues', path, received, stored });
      compare(decoded, stored, path, out);
      return;
    }
    if (typeof stored === 'string') {
      const instant = parseDateTime(received);
      if (!Number.isNaN(instant) && instant === parseDateTime(stored))
        out.push({ rule: 'dateTime', path, received, stored });
    }
    return;
  }
  if (Array.isArray(received) && Array.isArray(stored)) {
    received.forEach((item, i) => compare(item, stored[i], `${path}[${i}]`, out));
    return;
  }
  if (!isObject(received) || !isObject(stored)) return;
  // `{"value": "{\"value\":\"Admin\"}"}`: the member itself was sent JSON-encoded.
  if (typeof received.value === 'string' && !isObject(stored.value)) {
    const decoded = decodedJson(received.value);
    if (isObject(decoded)) {
      out.push({ rule: 'jsonEncodedValues', path, received, stored });
      compareMembers(decoded, stored, path, out);
      return;
    }
  }
  compareMembers(received, stored, path, out);
}

function compareMembers(received: Json, stored: Json, path: string, out: Normalisation[]): void {
  for (const [name, value] of Object.entries(received)) {
    const key = findKey(stored, name);
    if (key === undefined) continue;
    const at = path === '' ? key : `${path}.${key}`;
    if (key !== name) out.push({ rule: 'canonicalName', path: at, received: name, stored: key });
    compare(value, stored[key], at, out);
  }
}

/** The stored value a PATCH path names (the first match of a value filter), and its spelling. */
function valueAt(
  stored: Json,
  text: string,
  type: CompiledResourceType,
): { value: unknown; names: [string, string][] } | undefined {
  let path;
  try {
    path = parsePatchPath(text, { unquotedValues: type.rules.unquotedFilterValues });
  } catch {
    return undefined;
  }
  const names: [string, string][] = [];
  let container: unknown = stored;
  if (path.schema !== undefined) {
    const key = findKey(stored, path.schema);
    // The core schema's URN qualifies a top-level attribute (`urn:…:core:2.0:User:userName`).
    const core = type.core.id.toLowerCase() === path.schema.toLowerCase();
    container = key !== undefined ? stored[key] : core ? stored : undefined;
  }
  if (!isObject(container)) return undefined;
  const attribute = findKey(container, path.attribute);
  if (attribute === undefined) return undefined;
  names.push([path.attribute, attribute]);
  let value = container[attribute];
  if (path.filter !== undefined) {
    if (!Array.isArray(value)) return undefined;
    // The bracket filter is relative to one value: ask the engine about `attr[filter]` on a
    // resource that holds just that value. A filter the schemas refuse matches nothing.
    const filter: Filter = {
      kind: 'valuePath',
      path: path.schema === undefined ? { attribute } : { schema: path.schema, attribute },
      filter: path.filter,
    };
    const matches = (item: unknown) => {
      try {
        const single =
          path.schema === undefined
            ? { [attribute]: [item] }
            : { [path.schema]: { [attribute]: [item] } };
        return matchesFilter(single, filter, type);
      } catch {
        return false;
      }
    };
    value = value.find(matches);
  }
  if (path.subAttribute !== undefined) {
    if (!isObject(value)) return undefined;
    const sub = findKey(value, path.subAttribute);
    if (sub === undefined) return undefined;
    names.push([path.subAttribute, sub]);
    value = value[sub];
  }
  return { value, names };
}

/** Explains one PATCH operation's value against the stored user. */
function explainOperation(
  operation: Json,
  stored: Json,
  at: string,
  type: CompiledResourceType,
  out: Normalisation[],
): void {
  const value = operation[findKey(operation, 'value') ?? 'value'];
  const pathKey = findKey(operation, 'path');
  const path = pathKey === undefined ? undefined : operation[pathKey];
  if (typeof path === 'string') {
    const found = valueAt(stored, path, type);
    if (found === undefined) return;
    for (const [given, canonical] of found.names)
      if (given !== canonical)
        out.push({ rule: 'canonicalName', path: at, received: given, stored: canonical });
    compare(value, found.value, `${at}.value`, out);
    return;
  }
  if (!isObject(value)) return;
  for (const [name, member] of Object.entries(value)) {
    if (findKey(stored, name) !== undefined) {
      compareMembers({ [name]: member }, stored, `${at}.value`, out);
      continue;
    }
    // `{"name.givenName": …}` and `{"urn:…:User:department": …}` (dottedKeys, urnKeys).
    const found = valueAt(stored, name, type);
    if (found !== undefined) compare(member, found.value, `${at}.value.${name}`, out);
  }
}

// `"manager": ""` or `{"value": ""}` in a POST or PUT body that left no manager stored: an id
// reference's empty id is no value (`managerEmptyString`). Found from the schemas, since what
// was sent has no counterpart in what was stored.
function explainEmptyIds(
  body: Json,
  stored: Json,
  type: CompiledResourceType,
  out: Normalisation[],
): void {
  for (const schema of type.schemas) {
    const core = schema === type.core;
    const key = core ? undefined : findKey(body, schema.id);
    const sent = core ? body : key === undefined ? undefined : body[key];
    if (!isObject(sent)) continue;
    const kept = core ? stored : stored[schema.id];
    for (const attr of schema.attributes) {
      if (!isIdReference(attr)) continue;
      const name = findKey(sent, attr.name);
      if (name === undefined) continue;
      const received = sent[name];
      const id = isObject(received) ? received[findKey(received, 'value') ?? 'value'] : received;
      if (id !== '' || (isObject(kept) && kept[attr.name] !== undefined)) continue;
      const path = key === undefined ? attr.name : `${key}.${attr.name}`;
      out.push({ rule: 'managerEmptyString', path, received, stored: undefined });
    }
  }
}

/**
 * Explains how the values a client sent differ from the values as stored, naming the dialect
 * rule behind each difference: for POST and PUT the body against the stored user, for PATCH
 * each operation's value against the stored value at its path. Differences no rule explains
 * are not reported. Pure; never throws on any body.
 *
 * @param method - the request method, upper case.
 * @param body - the request body as received (parsed JSON).
 * @param resource - the user as stored after the request.
 * @param type - the resource type, to evaluate value filters in PATCH paths.
 * @example
 * ```ts
 * explainNormalisations('PATCH', { Operations: [{ op: 'replace', path: 'active', value: 'False' }] },
 *   user, userResourceType());
 * // [{ rule: 'stringBooleans', path: 'Operations[0].value', received: 'False', stored: false }]
 * ```
 */
export function explainNormalisations(
  method: string,
  body: unknown,
  resource: object | undefined,
  type: CompiledResourceType,
): Normalisation[] {
  const out: Normalisation[] = [];
  const stored: unknown = resource;
  if (!isObject(stored) || !isObject(body)) return out;
  if (method === 'POST' || method === 'PUT') {
    compareMembers(body, stored, '', out);
    explainEmptyIds(body, stored, type, out);
    return out;
  }
  if (method !== 'PATCH') return out;
  const operations = body[findKey(body, 'Operations') ?? 'Operations'];
  if (!Array.isArray(operations)) return out;
  operations.forEach((operation, i) => {
    if (isObject(operation)) explainOperation(operation, stored, `Operations[${i}]`, type, out);
  });
  return out;
}
