/** One attribute whose value differs between two versions of a resource. */
export interface Change {
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
}

function flatten(value: unknown, path: string, out: Map<string, unknown>): void {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, member] of Object.entries(value))
      flatten(member, path === '' ? key : `${path}.${key}`, out);
  } else if (path !== '') out.set(path, value);
}

/**
 * Lists what changed between two versions of a resource, attribute by attribute (complex
 * attributes by sub-attribute; a multi-valued attribute as a whole), leaving out `meta`,
 * which changes on every write.
 */
export function diffResources(before: unknown, after: unknown): Change[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  flatten(before ?? {}, '', a);
  flatten(after ?? {}, '', b);
  const changes: Change[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    if (path === 'meta' || path.startsWith('meta.')) continue;
    const x = a.get(path);
    const y = b.get(path);
    if (JSON.stringify(x) !== JSON.stringify(y)) changes.push({ path, before: x, after: y });
  }
  return changes;
}
