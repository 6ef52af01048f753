import { isJsonObject } from '../json/json-value.js';
import { REFUSED } from './value-rules.js';
import {
  hasTwoPrimaries,
  isUnassigned,
  listOf,
  type ListShape,
  type ObjectShape,
  type ValueShape,
} from './value-shape.js';

/**
 * What a fast reader answers for any input that is not the plain, valid case it handles: the
 * caller then validates with the full schema (valibot), which decides and words every error.
 *
 * @internal
 */
export const UNSURE: typeof REFUSED = REFUSED;

/**
 * Reads a value the way the valibot schema generated from the same shape does, for input that
 * names its attributes as the schema spells them (values of the right JSON type, or one of the
 * coercions the rules make), and answers {@link UNSURE} for anything else: a name spelled
 * another way, a value of the wrong type, a missing required value, two primary values.
 * Its output, when it gives one, is exactly valibot's, members in the same order; a property
 * test (`test/schema/fast-value.property.test.ts`) holds the two to that. It exists for speed:
 * validating a typical user this way costs a fraction of running the valibot pipeline
 * (`bench/schema/validate-user.bench.ts` measures validation). It writes no rule of its own: every rule
 * comes from the shape (`value-shape.ts`), which the valibot schema is generated from too; only
 * the walk is its own.
 *
 * @internal
 */
export type FastReader = (value: unknown) => unknown;

/** Any value as it is (the body's `id`, checked against the path later). */
const readAny: FastReader = (x) => x;

/**
 * Generates the fast reader of a value from its compiled rules (`compileShape`), as
 * `shapeSchema` generates its valibot schema.
 *
 * @internal
 */
export function fastReader(shape: ValueShape): FastReader {
  switch (shape.kind) {
    case 'any':
      return readAny;
    case 'scalar':
      // A refused value is one the fast reader leaves to the full schema (UNSURE is REFUSED).
      return shape.read;
    case 'list':
      return fastList(shape);
    case 'object': {
      const read = fastObject(shape);
      const { readForm } = shape;
      if (!readForm) return read;
      return (x) => {
        const form = readForm(x);
        return form === undefined ? undefined : read(form);
      };
    }
  }
}

function fastList(shape: ListShape): FastReader {
  const one = fastReader(shape.item);
  return (x) => {
    const out: unknown[] = [];
    for (const raw of listOf(x)) {
      // A null element is refused: the full schema words it.
      if (isUnassigned(raw)) return UNSURE;
      const item = one(raw);
      if (item === UNSURE) return UNSURE;
      if (item !== undefined) out.push(item);
    }
    // More than one primary value is an error: the full schema words it.
    if (shape.onePrimary && hasTwoPrimaries(out)) return UNSURE;
    return out.length === 0 ? undefined : out;
  };
}

// The values go straight into the output in the input's order; only an input that names the
// members out of their order (most do: `userName` before `name`) is put in order, by a second
// object. No array per object read.
function fastObject(shape: ObjectShape): FastReader {
  const { members, exact, folded, required, emptyIsNoValue } = shape;
  const readers = members.map((m) => fastReader(m.shape));
  return (input) => {
    if (!isJsonObject(input)) return UNSURE;
    const out: Record<string, unknown> = {};
    let count = 0;
    let last = -1;
    let inOrder = true;
    for (const key in input) {
      const at = exact.get(key);
      if (at === undefined) {
        // A member spelled another way is the full schema's to resolve (even as null: it may be
        // named twice); other names are not members.
        if (folded.has(key.toLowerCase())) return UNSURE;
        continue;
      }
      const raw = input[key];
      if (isUnassigned(raw)) continue;
      const value = (readers[at] as FastReader)(raw);
      if (value === UNSURE) return UNSURE;
      if (value === undefined) continue;
      if (at < last) inOrder = false;
      last = at;
      count++;
      // The exact name is the member's name.
      out[key] = value;
    }
    if (count === 0 && emptyIsNoValue) return undefined;
    for (const at of required) if (!Object.hasOwn(out, nameAt(members, at))) return UNSURE;
    if (inOrder) return out;
    const ordered: Record<string, unknown> = {};
    for (let at = 0; count > 0; at++) {
      const name = nameAt(members, at);
      if (!Object.hasOwn(out, name)) continue;
      ordered[name] = out[name];
      count--;
    }
    return ordered;
  };
}

function nameAt(members: ObjectShape['members'], at: number): string {
  return (members[at] as ObjectShape['members'][number]).name;
}
