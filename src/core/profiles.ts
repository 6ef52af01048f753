import { ScimConfigError } from '../errors/index.js';
import {
  BUILT_IN_PROFILES,
  DIALECT_RULES,
  type DialectRuleName,
  type RuleTrace,
} from '../schema/dialect-rules.js';

/**
 * A compatibility profile a host defines in `createScim`'s `profiles`: the dialect rules it
 * switches on (`true`) or off (`false`) over the profile it `extends`.
 *
 * @example
 * ```ts
 * // Entra ID, but a `null` is a 400 for this application.
 * const profiles = { 'entra-no-nulls': { extends: 'entra', rules: { nullClears: false } } };
 * ```
 */
export interface ProfileDefinition {
  /**
   * The profile this one starts from: a built-in (`strict`, `lenient`, `entra`, `okta`) or
   * another of the host's. Default `strict`, so `rules` lists what the profile turns on.
   */
  readonly extends?: string;
  /** The rules switched on or off over the profile it extends. */
  readonly rules?: Partial<Record<DialectRuleName, boolean>>;
  /** The answer conventions switched on or off over the profile it extends. */
  readonly answers?: Partial<Record<AnswerConvention, boolean>>;
}

/**
 * How a profile answers, where an IdP's own test suite expects something RFC 7644 does not
 * say. Unlike the dialect rules, which only read requests more leniently, a convention changes
 * answers, so only the profile of that IdP has it:
 * - `serviceConfigurationAlias`: `/serviceConfiguration` answers as `/ServiceProviderConfig`
 *   (Microsoft's SCIM test collection asks for it); `entra` has it.
 */
export type AnswerConvention = 'serviceConfigurationAlias';

/** Every answer convention. */
export const ANSWER_CONVENTIONS: readonly AnswerConvention[] = ['serviceConfigurationAlias'];

/** Which answer conventions a profile has. */
export type AnswerConventions = Readonly<Record<AnswerConvention, boolean>>;

// The built-in profiles' conventions: only `entra`'s differ from RFC 7644.
const BUILT_IN_ANSWERS: Readonly<Record<string, readonly AnswerConvention[]>> = {
  entra: ANSWER_CONVENTIONS,
};

type Switches = Partial<Record<DialectRuleName, boolean>>;

/** What {@link profileSelector} needs from `createScim`'s options. */
export interface ProfileOptions {
  readonly profiles?: Readonly<Record<string, ProfileDefinition>> | undefined;
  readonly defaultProfile?: string | undefined;
  readonly patchRules?: Switches | undefined;
}

const BUILT_IN: ReadonlyMap<string, ReadonlySet<DialectRuleName>> = new Map(
  Object.entries(BUILT_IN_PROFILES).map(([name, on]) => [name, new Set<DialectRuleName>(on)]),
);
const KNOWN_RULES: ReadonlySet<string> = new Set<string>(DIALECT_RULES);

const KNOWN_ANSWERS: ReadonlySet<string> = new Set<string>(ANSWER_CONVENTIONS);

/** What a profile has on, after its `extends` chain: dialect rules and answer conventions. */
interface ProfileSettings {
  readonly rules: Set<DialectRuleName>;
  readonly answers: Set<AnswerConvention>;
}

// What a profile has on, after its `extends` chain; a chain that loops is refused.
function settingsOf(
  name: string,
  hosts: Readonly<Record<string, ProfileDefinition>>,
  seen: readonly string[] = [],
): ProfileSettings {
  const builtIn = BUILT_IN.get(name);
  if (builtIn) return { rules: new Set(builtIn), answers: new Set(BUILT_IN_ANSWERS[name]) };
  const definition = Object.hasOwn(hosts, name) ? hosts[name] : undefined;
  if (!definition) throw new ScimConfigError(`createScim: no profile "${name}".`);
  if (seen.includes(name))
    throw new ScimConfigError(
      `createScim: profile "${name}" extends itself (${seen.join(' → ')}).`,
    );
  const on = settingsOf(definition.extends ?? 'strict', hosts, [...seen, name]);
  switchAll(on.rules, definition.rules, KNOWN_RULES, `names no dialect rule`, name);
  switchAll(on.answers, definition.answers, KNOWN_ANSWERS, `names no answer convention`, name);
  return on;
}

// Switches the named members of `on` on or off; a name `known` lacks is refused.
function switchAll<N extends string>(
  on: Set<N>,
  switches: Partial<Record<N, boolean>> | undefined,
  known: ReadonlySet<string>,
  refusal: string,
  profile: string,
): void {
  for (const [name, value] of Object.entries(switches ?? {})) {
    if (!known.has(name))
      throw new ScimConfigError(`createScim: profile "${profile}" ${refusal} "${name}".`);
    if (value) on.add(name as N);
    else on.delete(name as N);
  }
}

/** Every profile a service knows, resolved: its dialect switches and answer conventions. */
export interface ResolvedProfiles {
  /** Each profile's dialect switches, the server-wide `patchRules` applied. */
  readonly byName: ReadonlyMap<string, Switches>;
  /** Each profile's answer conventions. */
  readonly answersByName: ReadonlyMap<string, AnswerConventions>;
  /** The profile of a tenant whose verifier gives none. */
  readonly defaultProfile: string;
}

/**
 * Resolves every profile a service knows (the built-ins and the host's) to the dialect switches
 * its resource type is compiled with, the server-wide `patchRules` applied last: a rule a host
 * switched off there is off in every profile.
 *
 * @throws ScimConfigError for a host profile named like a built-in one, a rule name or an
 *   `extends` that names nothing, an `extends` loop, or a `defaultProfile` that is no profile.
 */
export function resolveProfiles(options: ProfileOptions): ResolvedProfiles {
  const hosts = options.profiles ?? {};
  for (const name of Object.keys(hosts)) {
    if (BUILT_IN.has(name))
      throw new ScimConfigError(
        `createScim: profile "${name}" is built in; give yours another name.`,
      );
  }
  const byName = new Map<string, Switches>();
  const answersByName = new Map<string, AnswerConventions>();
  for (const name of [...BUILT_IN.keys(), ...Object.keys(hosts)]) {
    const on = settingsOf(name, hosts);
    const switches: Switches = {};
    for (const rule of DIALECT_RULES)
      switches[rule] = on.rules.has(rule) && options.patchRules?.[rule] !== false;
    byName.set(name, switches);
    const answers = {} as Record<AnswerConvention, boolean>;
    for (const answer of ANSWER_CONVENTIONS) answers[answer] = on.answers.has(answer);
    answersByName.set(name, answers);
  }
  const defaultProfile = options.defaultProfile ?? 'lenient';
  if (!byName.has(defaultProfile))
    throw new ScimConfigError(`createScim: defaultProfile "${defaultProfile}" is no profile.`);
  return { byName, answersByName, defaultProfile };
}

/** What a request is served with under its tenant's profile. */
export interface ProfileSelector<C> {
  /**
   * The dialect switches of the default profile: what the host API, discovery and the request
   * event read a resource type with (its schemas do not depend on its switches).
   */
  readonly defaultSwitches: Switches;
  /**
   * Returns the configuration of a tenant's profile (the default one for `undefined`), built on
   * first use and shared by every profile with the same rules; with `trace`, a copy whose PATCH
   * engine reports each rule it fires there.
   *
   * @throws ScimConfigError for a profile the service does not know: the verifier returned it,
   *   so it is the host's configuration fault, answered 500 and reported through `onError`.
   */
  configFor(profile: string | undefined, trace?: RuleTrace): C;
}

/**
 * Builds the selector of per-profile configurations of the profiles resolved: `build`
 * compiles one for a set of dialect switches and answer conventions, on first use and at most
 * once per distinct set
 * (the caller asks for the default one at start-up, so a request never compiles anything).
 * `withTrace` makes the per-request copy that carries a rule trace, only while someone listens.
 */
export function profileSelector<C>(
  profiles: ResolvedProfiles,
  build: (switches: Switches, answers: AnswerConventions) => C,
  withTrace: (config: C, trace: RuleTrace) => C,
): ProfileSelector<C> {
  const { byName, answersByName, defaultProfile } = profiles;
  const bySwitches = new Map<string, C>();
  const byProfile = new Map<string, C>();
  const compiled = (name: string): C => {
    let config = byProfile.get(name);
    if (config !== undefined) return config;
    const switches = byName.get(name);
    if (!switches) throw new ScimConfigError(`The verifier returned an unknown profile "${name}".`);
    const answers = answersByName.get(name) as AnswerConventions;
    const key = [
      ...DIALECT_RULES.map((r) => switches[r]),
      ...ANSWER_CONVENTIONS.map((a) => answers[a]),
    ]
      .map((on) => (on ? '1' : '0'))
      .join('');
    config = bySwitches.get(key);
    if (config === undefined) bySwitches.set(key, (config = build(switches, answers)));
    byProfile.set(name, config);
    return config;
  };
  return {
    defaultSwitches: byName.get(defaultProfile) as Switches,
    configFor(profile, trace) {
      const config = compiled(profile ?? defaultProfile);
      return trace ? withTrace(config, trace) : config;
    },
  };
}
