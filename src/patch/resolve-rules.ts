import { DIALECT_RULES, type DialectRuleName } from './types.js';

type Rules = Readonly<Record<DialectRuleName, boolean>>;

const ALL_ON: Rules = Object.freeze(
  Object.fromEntries(DIALECT_RULES.map((r) => [r, true])) as Record<DialectRuleName, boolean>,
);
const cache = new WeakMap<object, Rules>();

/** Returns the rules in force: every dialect rule on unless the host set it to `false`. */
export function resolveRules(
  overrides: Partial<Record<DialectRuleName, boolean>> | undefined,
): Rules {
  if (!overrides) return ALL_ON;
  let rules = cache.get(overrides);
  if (!rules) {
    rules = Object.freeze({ ...ALL_ON, ...overrides });
    cache.set(overrides, rules);
  }
  return rules;
}
