import type { AttributeDefinition } from './types.js';

/**
 * The identity-provider dialect switches that change how one attribute value is read. They are
 * an input of the value rules, so a POST, a PUT and a PATCH read a value the same way; the
 * host sets them through `createScim`'s `patchRules` (see `DialectRuleName`). Both are on by
 * default.
 */
export interface ValueRules {
  /** `"True"` / `"False"` (any case) are booleans (Entra ID). */
  readonly stringBooleans: boolean;
  /**
   * A bare string where a complex value with a `value` sub-attribute is expected is that
   * `value`: the Enterprise `manager` as an id (Entra ID), `"emails": ["a@x.org"]`.
   */
  readonly managerString: boolean;
}

/** Every value rule on: what `createScim` uses unless the host switches one off. */
export const DEFAULT_VALUE_RULES: ValueRules = Object.freeze({
  stringBooleans: true,
  managerString: true,
});

/**
 * Reads a boolean value: `true`/`false`, and with `stringBooleans` the strings `"true"` and
 * `"false"` in any case. Returns `undefined` for anything else.
 *
 * @see RFC 7643 §2.3.2
 */
export function readBoolean(value: unknown, rules: ValueRules): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string' || !rules.stringBooleans) return undefined;
  const lower = value.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/**
 * Tells whether a bare string is read as the `value` of a complex attribute: with
 * `managerString`, for a complex attribute that has a `value` sub-attribute (Entra ID's
 * `manager` as an id; `"emails": ["a@x.org"]`).
 */
export function takesBareValue(
  definition: AttributeDefinition,
  rules: ValueRules,
): boolean {
  return (
    rules.managerString &&
    definition.type === 'complex' &&
    (definition.subAttributes ?? []).some((s) => s.name === 'value')
  );
}
