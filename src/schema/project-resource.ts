import { scimErrors } from '../errors/index.js';
import { parseAttributePath } from './attribute-path.js';
import type { CompiledResourceType } from './resource-type.js';
import { SCHEMAS_ATTRIBUTE } from './schemas-attribute.js';
import type { AttributeDefinition, SchemaDefinition } from './types.js';

/** The `attributes` / `excludedAttributes` of a request, as lists of attribute paths. */
export interface Projection {
  readonly attributes?: readonly string[];
  readonly excludedAttributes?: readonly string[];
}

type Json = Record<string, unknown>;
/** `true`: the whole attribute; a set: only these sub-attributes (canonical names). */
type Pick = true | Set<string>;
/** Per resource key (core attribute name or extension URN): the attributes picked inside. */
type Selection = Map<string, Pick | Map<string, Pick>>;

/**
 * The most names one `attributes` or `excludedAttributes` may list. A resource type has a few
 * hundred attribute paths at most; parsing each name costs time, so a list of tens of thousands
 * (a `.search` body may carry them) would stall the request for nothing.
 */
const MAX_PROJECTED_NAMES = 1000;

/** Turns one projected resource into the response form. */
export type Projector = (resource: Readonly<Json>) => Json;

function addPick(target: Map<string, Pick>, name: string, sub: string | undefined): void {
  const current = target.get(name);
  if (current === true) return;
  if (sub === undefined) target.set(name, true);
  else (current ?? (target.set(name, new Set()).get(name) as Set<string>)).add(sub);
}

// Reads `urn:...:User:name.givenName`, `name.givenName` or a bare extension URN with the one
// path grammar and resolver, and records it with canonical names; names the resource type does
// not define are ignored (RFC 7644 §3.9 gives no error).
function select(selection: Selection, text: string, type: CompiledResourceType): void {
  const whole = type.extensionNamed(text);
  if (whole) {
    selection.set(whole.id, true);
    return;
  }
  const path = parseAttributePath(text.trim());
  const resolved = path && type.resolve(path);
  if (!resolved || resolved.attribute === SCHEMAS_ATTRIBUTE) return;
  const { extension, attribute } = resolved;
  const subName = resolved.subAttribute?.name;
  if (extension === undefined) {
    addPick(selection as Map<string, Pick>, attribute.name, subName);
  } else {
    const inner = selection.get(extension.id);
    if (inner === true) return;
    const map = inner instanceof Map ? inner : new Map<string, Pick>();
    selection.set(extension.id, map);
    addPick(map, attribute.name, subName);
  }
}

function keepAlways(value: unknown, definition: AttributeDefinition): unknown {
  return definition.returned === 'never' ? undefined : value;
}

function pickSubs(
  value: unknown,
  subs: Set<string>,
  definition: AttributeDefinition,
  include: boolean,
  type: CompiledResourceType,
): unknown {
  const one = (v: unknown) => {
    if (typeof v !== 'object' || v === null) return v;
    const out: Json = {};
    for (const [k, x] of Object.entries(v)) {
      const sub = type.subAttribute(definition, k);
      const always = sub?.returned === 'always';
      if (sub?.returned === 'never') continue;
      if (always || subs.has(sub?.name ?? k) === include) out[k] = x;
    }
    return out;
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

function projectAttributes(
  values: Readonly<Json>,
  schema: SchemaDefinition,
  picks: Map<string, Pick> | undefined,
  include: boolean,
  type: CompiledResourceType,
): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(values)) {
    const definition = type.attribute(schema, key);
    if (!definition) {
      if (!include) out[key] = value;
      continue;
    }
    const pick = picks?.get(definition.name);
    let kept: unknown;
    if (definition.returned === 'always') kept = value;
    else if (definition.returned === 'never') kept = undefined;
    else if (pick === undefined)
      kept = include || definition.returned === 'request' ? undefined : value;
    else if (pick === true) kept = include ? keepAlways(value, definition) : undefined;
    else kept = pickSubs(value, pick, definition, include, type);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/**
 * Compiles `attributes` / `excludedAttributes` into a function that shapes each resource of a
 * response: `returned: always` attributes always come back, `never` ones never, `request` ones
 * only when asked for. Returns `undefined` when the request asks for no projection.
 *
 * @throws ScimError 400 `invalidValue` when both lists are given, or one lists more than 1,000
 *   names.
 * @see RFC 7644 §3.4.2.5, §3.9; RFC 7643 §7 (`returned`)
 */
export function compileProjection(
  projection: Projection,
  type: CompiledResourceType,
): Projector | undefined {
  const attributes = projection.attributes ?? [];
  const excluded = projection.excludedAttributes ?? [];
  if (attributes.length > 0 && excluded.length > 0) {
    throw scimErrors.invalidValue('Give either "attributes" or "excludedAttributes", not both.');
  }
  if (attributes.length === 0 && excluded.length === 0) return undefined;
  const include = attributes.length > 0;
  if ((include ? attributes : excluded).length > MAX_PROJECTED_NAMES) {
    throw scimErrors.invalidValue(
      `"${include ? 'attributes' : 'excludedAttributes'}" lists more than ${MAX_PROJECTED_NAMES} names.`,
    );
  }
  const selection: Selection = new Map();
  for (const text of include ? attributes : excluded) select(selection, text, type);
  const { core, extensions } = type;
  return (resource) => {
    const body = projectAttributes(resource, core, selection as Map<string, Pick>, include, type);
    const out: Json =
      resource.schemas === undefined ? body : { schemas: resource.schemas, ...body };
    for (const extension of extensions) {
      delete out[extension.id];
      const values = resource[extension.id];
      if (typeof values !== 'object' || values === null) continue;
      const pick = selection.get(extension.id);
      let projected: Json | undefined;
      if (pick === true)
        projected = include
          ? projectAttributes(values as Json, extension, undefined, false, type)
          : undefined;
      else
        projected = projectAttributes(
          values as Json,
          extension,
          pick instanceof Map ? pick : undefined,
          include,
          type,
        );
      if (projected && Object.keys(projected).length > 0) out[extension.id] = projected;
    }
    return out;
  };
}

/** Splits a comma-separated `attributes` query parameter. */
export function splitAttributeList(text: string | null | undefined): string[] {
  return text
    ? text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : [];
}
