import { isJsonObject, jsonEqual, shallowCopy } from '../json/json-value.js';
import type { AttributeDefinition, SchemaDefinition } from '../schema/types.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import type { KeptApart } from './kept-apart.js';
import { ValueList } from './value-list.js';
import type { WorkMeter } from '../filter/work-meter.js';

type Json = Record<string, unknown>;

/**
 * A copy-on-write view of the resource being patched: the top level is copied once, an
 * extension object only when an operation writes into it, and attribute values are replaced,
 * never edited in place, so the input is never mutated and untouched branches are shared. A
 * multi-valued attribute is worked on as one {@link ValueList} per request, written back by
 * {@link finish}.
 */
export class Draft {
  readonly root: Json;
  /** The writeOnly values the operations set, kept apart from the resource; see `PatchResult`. */
  readonly writeOnly: Json = {};
  // Made on the first write into an extension: most PATCHes touch only core attributes.
  private owned: Set<SchemaDefinition> | undefined;
  private lists:
    Map<AttributeDefinition, { schema: SchemaDefinition; list: ValueList }> | undefined;

  constructor(
    readonly original: Readonly<Json>,
    private readonly index: CompiledResourceType,
    /** The work budget of this request. */
    readonly meter: WorkMeter,
    /** The attribute planned as deltas instead of edited (see `kept-apart.ts`), if any. */
    readonly keptApart?: KeptApart,
  ) {
    this.root = shallowCopy(original);
  }

  /** Returns the object that holds a schema's attributes, without copying it. */
  peek(schema: SchemaDefinition): Readonly<Json> | undefined {
    if (schema === this.index.core) return this.root;
    const v = this.root[this.keyOf(schema)];
    return isJsonObject(v) ? v : undefined;
  }

  /** Returns an attribute's current value (a multi-valued one as an array, or `undefined`). */
  read(schema: SchemaDefinition, attr: AttributeDefinition): unknown {
    const open = this.lists?.get(attr);
    return open ? open.list.toArray() : this.peek(schema)?.[attr.name];
  }

  /** Tells whether an attribute has a value. */
  has(schema: SchemaDefinition, attr: AttributeDefinition): boolean {
    const open = this.lists?.get(attr);
    return open ? open.list.size > 0 : this.peek(schema)?.[attr.name] !== undefined;
  }

  /** Returns the working list of a multi-valued attribute, reading it on first use. */
  list(schema: SchemaDefinition, attr: AttributeDefinition): ValueList {
    let open = this.lists?.get(attr);
    if (!open) {
      open = { schema, list: new ValueList(this.peek(schema)?.[attr.name], attr, this.meter) };
      (this.lists ??= new Map()).set(attr, open);
    }
    return open.list;
  }

  /**
   * Records that an operation on a working list is done: an attribute left without values is
   * unassigned now, and one that gained its first value takes its place in the member order now,
   * as a direct write would; the values themselves are written by {@link finish}.
   */
  settle(schema: SchemaDefinition, attr: AttributeDefinition, list: ValueList): void {
    if (!list.changed) return;
    const container = this.container(schema);
    if (list.size === 0) delete container[attr.name];
    else if (!(attr.name in container)) container[attr.name] = null;
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
   * empty is removed together with its URN, by the resource type's one `schemas` rule
   * (`schemasOf`; RFC 7643 §3: `schemas` lists the extensions used).
   */
  finish(): Json {
    for (const [attr, { schema, list }] of this.lists ?? []) {
      if (!list.changed) continue;
      const values = list.toArray();
      const container = this.container(schema);
      if (values === undefined) delete container[attr.name];
      else container[attr.name] = values;
    }
    if (!this.owned) return this.root;
    for (const schema of this.owned) {
      const ext = this.root[schema.id] as Json;
      if (Object.keys(ext).length === 0) delete this.root[schema.id];
    }
    const schemas = this.index.schemasOf(this.root);
    if (!jsonEqual(schemas, this.root.schemas)) this.root.schemas = [...schemas];
    return this.root;
  }

  private keyOf(schema: SchemaDefinition): string {
    if (schema.id in this.root) return schema.id;
    const lower = schema.id.toLowerCase();
    for (const k of Object.keys(this.root)) if (k.toLowerCase() === lower) return k;
    return schema.id;
  }
}
