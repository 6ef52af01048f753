import type { AttributeDefinition, SchemaDefinition } from '../../schema/types.js';

/** What a writeOnly value (such as `password`) is replaced with in a logged request body. */
export const REDACTED = '[redacted]';

/** The lower-case names of every writeOnly attribute and sub-attribute of `schemas`. */
export function writeOnlyNames(schemas: readonly SchemaDefinition[]): ReadonlySet<string> {
  const names = new Set<string>();
  const visit = (attributes: readonly AttributeDefinition[]) => {
    for (const attribute of attributes) {
      if (attribute.mutability === 'writeOnly') names.add(attribute.name.toLowerCase());
      if (attribute.subAttributes) visit(attribute.subAttributes);
    }
  };
  for (const schema of schemas) visit(schema.attributes);
  return names;
}

// The attribute a key or PATCH path names last: `password`, `urn:…:User:password`,
// `name.password`, `emails[type eq "x"].value` → `value`.
function lastName(text: string): string {
  const plain = text.replace(/\[[^\]]*\]/g, '');
  return plain.slice(Math.max(plain.lastIndexOf(':'), plain.lastIndexOf('.')) + 1).toLowerCase();
}

/**
 * Copies a request body with every writeOnly value replaced by {@link REDACTED}: members named
 * like a writeOnly attribute (in any letter case, URN-qualified or dotted) and the `value` of a
 * PATCH operation whose `path` names one. Never logs a secret a client sent.
 */
export function redactWriteOnly(body: unknown, names: ReadonlySet<string>): unknown {
  if (Array.isArray(body)) return body.map((item) => redactWriteOnly(item, names));
  if (typeof body !== 'object' || body === null) return body;
  const entries = Object.entries(body as Record<string, unknown>);
  const path = entries.find(([key]) => key.toLowerCase() === 'path')?.[1];
  const secretPath = typeof path === 'string' && names.has(lastName(path));
  const copy: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    const secret = names.has(lastName(key)) || (secretPath && key.toLowerCase() === 'value');
    copy[key] = secret ? REDACTED : redactWriteOnly(value, names);
  }
  return copy;
}
