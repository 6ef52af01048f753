import { isJsonObject, shallowCopy } from '../json/json-value.js';
import type { SchemaDefinition } from '../schema/types.js';
import type { SchemaIndex } from './schema-index.js';

type Json = Record<string, unknown>;

/**
 * A copy-on-write view of the resource being patched: the top level is copied once, an
 * extension object only when an operation writes into it, and attribute values are replaced,
 * never edited in place, so the input is never mutated and untouched branches are shared.
 */
export class Draft {
  readonly root: Json;
  // Made on the first write into an extension: most PATCHes touch only core attributes.
  private owned: Set<SchemaDefinition> | undefined;

  constructor(
    readonly original: Readonly<Json>,
    private readonly index: SchemaIndex,
  ) {
    this.root = shallowCopy(original);
  }

  /** Returns the object that holds a schema's attributes, without copying it. */
  peek(schema: SchemaDefinition): Readonly<Json> | undefined {
    if (schema === this.index.core) return this.root;
    const v = this.root[this.keyOf(schema)];
    return isJsonObject(v) ? v : undefined;
  }

  /** Returns the writable object that holds a schema's attributes (a private copy). */
  container(schema: SchemaDefinition): Json {
    if (schema === this.index.core) return this.root;
    if (this.owned?.has(schema)) return this.root[schema.id] as Json;
    const key = this.keyOf(schema);
    const current = this.root[key];
    if (key !== schema.id) delete this.root[key];
    const copy: Json = isJsonObject(current) ? { ...current } : {};
    this.root[schema.id] = copy;
    (this.owned ??= new Set()).add(schema);
    return copy;
  }

  /**
   * Finishes the draft: an extension that gained attributes is declared in `schemas`, one left
   * empty is removed together with its URN (RFC 7643 §3: `schemas` lists the extensions used).
   */
  finish(): Json {
    if (!this.owned) return this.root;
    for (const schema of this.owned) {
      const ext = this.root[schema.id] as Json;
      const empty = Object.keys(ext).length === 0;
      if (empty) delete this.root[schema.id];
      const schemas = Array.isArray(this.root.schemas) ? (this.root.schemas as unknown[]) : [];
      const lower = schema.id.toLowerCase();
      const listed = schemas.some((s) => typeof s === 'string' && s.toLowerCase() === lower);
      if (empty && listed) {
        this.root.schemas = schemas.filter(
          (s) => typeof s !== 'string' || s.toLowerCase() !== lower,
        );
      } else if (!empty && !listed) this.root.schemas = [...schemas, schema.id];
    }
    return this.root;
  }

  private keyOf(schema: SchemaDefinition): string {
    if (schema.id in this.root) return schema.id;
    const lower = schema.id.toLowerCase();
    for (const k of Object.keys(this.root)) if (k.toLowerCase() === lower) return k;
    return schema.id;
  }
}
