// The identity-provider dialect switches: one set per resource type, read by POST, PUT and
// PATCH alike, so they live with the compiled resource type, not in patch/.

/**
 * The names of the identity-provider dialect rules: each one accepts a request shape that is not
 * strictly RFC 7644 but that a real identity provider sends. All are on by default; a host can
 * switch any of them off through `createScim`'s `patchRules` or `compileResourceType`'s
 * `rules`, or per tenant through a compatibility profile ({@link BUILT_IN_PROFILES}).
 * `docs/patch.md` lists the IdPs.
 */
export type DialectRuleName =
  /** `"op": "Replace"`, `"ADD"`: the operation name in any letter case (Entra ID). */
  | 'opAnyCase'
  /** `"True"` / `"False"` strings for boolean attributes and in value filters (Entra ID). */
  | 'stringBooleans'
  /** Path-less values whose keys are dotted paths, `{"name.givenName": "Ada"}` (Entra ID). */
  | 'dottedKeys'
  /** Path-less values whose keys are URN-qualified attributes, `{"urn:...:User:department": "x"}` (Entra ID). */
  | 'urnKeys'
  /** `remove` on a multi-valued attribute with a `value` removes just those members (Entra ID). */
  | 'removeWithValue'
  /** A filtered `add` / `replace` that matches nothing creates the value from the filter (Entra ID). */
  | 'filterMissCreates'
  /** The Enterprise `manager` given as a bare id string (Entra ID). */
  | 'managerString'
  /** Multi-valued `value`s sent as JSON-encoded objects, `{"value": "{\"value\":\"Admin\"}"}` (Entra ID). */
  | 'jsonEncodedValues'
  /** Explicit `null` values meaning "no value" rather than a type error (Entra ID, Okta). */
  | 'nullClears'
  /** `remove` of an unqualified `manager[value eq "<id>"]`: the Enterprise manager, if its `value` matches (Entra ID). */
  | 'managerValueFilter'
  /** `replace` (or `add`) of the Enterprise `manager` with `""` removes the manager (Entra ID gallery validation). */
  | 'managerEmptyString'
  /** A PATCH whose `Operations` array is empty is a successful no-op (Microsoft's SCIM Validator). */
  | 'emptyOperations'
  /** Filter values without quotes, `userName sw O`, read as strings (Microsoft's reference tests). */
  | 'unquotedFilterValues';

/** Every dialect rule, in the order `docs/patch.md` lists them. */
export const DIALECT_RULES: readonly DialectRuleName[] = [
  'opAnyCase',
  'stringBooleans',
  'dottedKeys',
  'urnKeys',
  'removeWithValue',
  'filterMissCreates',
  'managerString',
  'jsonEncodedValues',
  'nullClears',
  'managerValueFilter',
  'managerEmptyString',
  'emptyOperations',
  'unquotedFilterValues',
];

/** Every dialect rule with its setting: what a compiled resource type reads values with. */
export type DialectRules = Readonly<Record<DialectRuleName, boolean>>;

/** Returns the rules in force: every dialect rule on unless `overrides` sets it to `false`. */
export function resolveDialectRules(
  overrides: Partial<Record<DialectRuleName, boolean>> | undefined,
): DialectRules {
  const rules = Object.fromEntries(DIALECT_RULES.map((r) => [r, true])) as Record<
    DialectRuleName,
    boolean
  >;
  for (const r of DIALECT_RULES) if (overrides?.[r] === false) rules[r] = false;
  return Object.freeze(rules);
}

/**
 * The compatibility profiles scimkit defines, each a set of dialect rules a tenant's requests
 * are read with (`Tenant.profile`): `lenient` every rule (the default when a tenant has none),
 * `strict` none (plain RFC 7644), `entra` the rules for Microsoft Entra ID and its validators,
 * `okta` the one rule Okta needs (`nullClears`).
 */
export type BuiltInProfileName = 'lenient' | 'strict' | 'entra' | 'okta';

/**
 * The rules each built-in profile switches on; every other rule is off in it. Read from the
 * "sent by" column of `docs/patch.md`: every rule is there for Entra ID or a Microsoft
 * validator, and Okta's only shape outside RFC 7644 is an explicit `null`.
 */
export const BUILT_IN_PROFILES: Readonly<Record<BuiltInProfileName, readonly DialectRuleName[]>> = {
  lenient: DIALECT_RULES,
  strict: [],
  entra: DIALECT_RULES,
  okta: ['nullClears'],
};

/**
 * One dialect rule that changed how a request was read: `"active": "False"` became `false`
 * under `stringBooleans`. The request event lists them (`RequestCompletedEvent.rulesFired`), so
 * an admin can see why a request was accepted.
 */
export interface FiredRule {
  /** The rule that fired. */
  readonly rule: DialectRuleName;
  /**
   * Where in the request: `Operations[0].op`, `Operations[1].value.name.givenName`,
   * `Operations[2].path`, or an attribute path of a POST or PUT body (`active`).
   */
  readonly where: string;
  /** What the client sent there: a value, an operation name, a key or a path. */
  readonly received: unknown;
  /** What it was read as; `undefined` when the rule removed a value. */
  readonly became: unknown;
}

/** Hears each dialect rule as it fires; only handed to an engine while someone listens. */
export type RuleTrace = (fired: FiredRule) => void;

/**
 * The rule `unquotedFilterValues` as it fires: the value `word`, written without quotes in a
 * filter, read as the string `"word"`. One wording for a `?filter=` and a PATCH value filter.
 */
export function unquotedValue(where: string, word: string): FiredRule {
  return { rule: 'unquotedFilterValues', where, received: word, became: JSON.stringify(word) };
}
