import type { ScimUser } from '../../schema/user-resource.js';

type Json = Record<string, unknown>;

const FIRST = ['schemas', 'id', 'externalId', 'userName'] as const;
const PLACED: ReadonlySet<string> = new Set([...FIRST, 'meta']);
const META = ['resourceType', 'created', 'lastModified', 'version', 'location'] as const;

function orderMeta(meta: Json): Json {
  const out: Json = {};
  for (const key of META) if (meta[key] !== undefined) out[key] = meta[key];
  for (const key in meta) if (!(key in out)) out[key] = meta[key];
  return out;
}

/**
 * Puts the keys a reader looks for first back in front (`schemas`, `id`, `externalId`,
 * `userName`) and `meta` last, in its usual order. jsonb stores keys sorted by length, which
 * is valid JSON but reads badly. Other attributes keep jsonb's order: this runs for every user
 * of every page, so it stays a single pass. `groups`, when given, goes before `meta`, where a
 * response shows it.
 */
export function restoreOrder(doc: Json, groups?: unknown): ScimUser {
  const out: Json = {};
  for (const key of FIRST) if (doc[key] !== undefined) out[key] = doc[key];
  for (const key in doc) if (!PLACED.has(key)) out[key] = doc[key];
  if (groups !== undefined) out['groups'] = groups;
  const meta = doc['meta'];
  if (typeof meta === 'object' && meta !== null) out['meta'] = orderMeta(meta as Json);
  else if (meta !== undefined) out['meta'] = meta;
  return out as ScimUser;
}
