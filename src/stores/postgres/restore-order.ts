import { defineAttribute } from '../../schema/define-attribute.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { AttributeDefinition } from '../../schema/types.js';
import { accountSchema, enterpriseUserSchema, userSchema } from '../../schema/user-schema.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function ordered(value: unknown, defs: readonly AttributeDefinition[] | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => ordered(v, defs));
  if (!defs || !isObject(value)) return value;
  const out: Json = {};
  for (const def of defs) {
    if (def.name in value) out[def.name] = ordered(value[def.name], def.subAttributes);
  }
  for (const key of Object.keys(value)) if (!(key in out)) out[key] = value[key];
  return out;
}

const metaDef = userSchema.attributes.find((a) => a.name === 'meta');
const TOP: readonly AttributeDefinition[] = [
  defineAttribute('schemas', 'reference', { multiValued: true }),
  ...userSchema.attributes.filter((a) => a.name !== 'meta'),
];
const EXTENSIONS = [enterpriseUserSchema, accountSchema];

/**
 * Puts a user read from jsonb back in the schema's attribute order (`schemas`, `id`, ...,
 * `meta` last). jsonb keeps keys sorted by length, which is valid JSON but reads badly.
 */
export function restoreOrder(doc: Json): ScimUser {
  const out = ordered(doc, TOP) as Json;
  for (const ext of EXTENSIONS) {
    if (isObject(out[ext.id])) out[ext.id] = ordered(out[ext.id], ext.attributes);
  }
  if (isObject(out['meta'])) {
    const meta = ordered(out['meta'], metaDef?.subAttributes);
    delete out['meta'];
    out['meta'] = meta;
  }
  return out as ScimUser;
}
