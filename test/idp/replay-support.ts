import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * One recorded request of an identity provider and what scimkit must answer.
 *
 * Strings may reference earlier saved results: `"{{user.id}}"`, `"/Users/{{user.id}}"`, and
 * the built-ins `{{$origin}}` and `{{$base}}`. A string that is only a reference keeps the
 * referenced value's type (a number stays a number).
 */
export interface FixtureStep {
  readonly name: string;
  readonly request: {
    readonly method: string;
    /** Relative to the SCIM base path; may carry a `?query`. */
    readonly path: string;
    readonly headers?: Readonly<Record<string, string>>;
    /** Query parameters, encoded by the runner (in addition to any `?query` of `path`). */
    readonly query?: Readonly<Record<string, string>>;
    /** A JSON value, sent serialised. */
    readonly body?: unknown;
    /** A body sent exactly as written, for malformed or oddly encoded input. */
    readonly rawBody?: string;
  };
  readonly expect: {
    /**
     * The status, or every status the IdP accepts where the RFC leaves the server a choice
     * (`[200, 204]` for a PATCH, RFC 7644 §3.5.2). With a list, `body` is checked only when
     * the answer has one.
     */
    readonly status: number | readonly number[];
    /** A partial match; `"$absent"` and `"$present"` test for a member's absence or presence. */
    readonly body?: unknown;
    /** Header names in lower case; values compared after substitution, or `"$present"`. */
    readonly headers?: Readonly<Record<string, string>>;
  };
  /** Keeps the response body (`"body"`) or headers (`"headers"`) under a name. */
  readonly save?: Readonly<Record<string, 'body' | 'headers'>>;
}

/** One recorded provisioning conversation. */
export interface Fixture {
  readonly description: string;
  /** Where the request shapes come from (documentation URLs, issue threads). */
  readonly sources: readonly string[];
  readonly steps: readonly FixtureStep[];
  /** Welcome emails delivered once the conversation is over. */
  readonly expectEmails?: number;
}

/** A fixture file with its path relative to the fixtures folder, e.g. `okta/spec-tests.json`. */
export interface LoadedFixture {
  readonly file: string;
  readonly fixture: Fixture;
}

/** Reads every `*.json` below `root`, sorted by path so the test order is stable. */
export function loadFixtures(root: string): LoadedFixture[] {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => relative(root, join(root, f)).split('\\').join('/'))
    .sort();
  return files.map((file) => ({
    file,
    fixture: JSON.parse(readFileSync(join(root, file), 'utf8')) as Fixture,
  }));
}

const WHOLE = /^\{\{([^{}]+)\}\}$/;
const EMBEDDED = /\{\{([^{}]+)\}\}/g;

function lookup(scope: Readonly<Record<string, unknown>>, ref: string): unknown {
  let value: unknown = scope;
  for (const part of ref.trim().split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) {
      throw new Error(`unknown reference {{${ref}}}`);
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Replaces `{{…}}` references in every string of a JSON value. */
export function substitute(value: unknown, scope: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole?.[1] !== undefined) return lookup(scope, whole[1]);
    return value.replace(EMBEDDED, (_, ref: string) => String(lookup(scope, ref)));
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, scope)]));
  }
  return value;
}

/**
 * Lists where `actual` differs from the partial `expected`: objects need only the expected
 * members, arrays must have the same length with each element matching in order.
 */
export function mismatches(actual: unknown, expected: unknown, at = '$'): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`];
    if (actual.length !== expected.length) {
      return [
        `${at}: expected ${expected.length} elements, got ${actual.length}: ${JSON.stringify(actual)}`,
      ];
    }
    return expected.flatMap((e, i) => mismatches(actual[i], e, `${at}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    }
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).flatMap(([key, e]) => {
      const path = `${at}.${key}`;
      if (e === '$absent')
        return key in record
          ? [`${path}: expected absent, got ${JSON.stringify(record[key])}`]
          : [];
      if (!(key in record)) return [`${path}: missing (expected ${JSON.stringify(e)})`];
      if (e === '$present') return [];
      return mismatches(record[key], e, path);
    });
  }
  return Object.is(actual, expected)
    ? []
    : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}
