// The five operations the HTTP benchmark drives, as autocannon request specs. Each one sends
// the same requests to either server; only the target's URL and preloaded users differ.
import type { RequestSpec } from 'autocannon';

/**
 * The servers the benchmark can start: the hand-written baseline, the example server, and a
 * diagnostic scimkit server with a `node:crypto` API-key verifier (see RESULTS.md).
 */
export const SERVER_NAMES = ['baseline', 'scimkit', 'scimkit-nodecrypto'] as const;

/** One of {@link SERVER_NAMES}. */
export type ServerName = (typeof SERVER_NAMES)[number];

/** A server under test, with the users preloaded into it. */
export interface Target {
  readonly name: ServerName;
  /** Absolute URL of the SCIM base, e.g. `http://127.0.0.1:1234/api/v1/scim/v2`. */
  readonly url: string;
  readonly ids: readonly string[];
  readonly userNames: readonly string[];
}

/** One benchmarked operation. */
export interface Operation {
  readonly name: string;
  readonly requests: (target: Target, headers: Record<string, string>) => RequestSpec[];
}

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** The body of a new user; `active: false` so no welcome email is queued (see RESULTS.md). */
export function newUserBody(userName: string): string {
  return JSON.stringify({
    schemas: [USER_SCHEMA],
    userName,
    active: false,
    displayName: 'Bench User',
    name: { givenName: 'Bench', familyName: 'User' },
    emails: [{ value: userName, type: 'work', primary: true }],
  });
}

// userNames stay unique across rounds and servers: each run of `create` takes a fresh prefix.
let createRun = 0;

/** Every operation, in the order a round runs them. */
export const OPERATIONS: readonly Operation[] = [
  {
    name: 'create',
    requests: (target, headers) => {
      const prefix = `c${++createRun}-${target.name}`;
      let n = 0;
      const path = `${new URL(target.url).pathname}/Users`;
      return [
        {
          method: 'POST',
          path,
          headers,
          setupRequest: (request) => ({
            ...request,
            body: newUserBody(`${prefix}-${++n}@bench.example.org`),
          }),
        },
      ];
    },
  },
  {
    name: 'get by id',
    requests: (target, headers) => {
      let n = 0;
      const base = `${new URL(target.url).pathname}/Users/`;
      return [
        {
          method: 'GET',
          headers,
          setupRequest: (r) => ({ ...r, path: base + at(target.ids, n++) }),
        },
      ];
    },
  },
  {
    name: 'filter userName',
    requests: (target, headers) => {
      let n = 0;
      const base = `${new URL(target.url).pathname}/Users?filter=`;
      const paths = target.userNames.map((u) => base + encodeURIComponent(`userName eq "${u}"`));
      return [{ method: 'GET', headers, setupRequest: (r) => ({ ...r, path: at(paths, n++) }) }];
    },
  },
  {
    name: 'list page of 100',
    requests: (target, headers) => {
      let n = 0;
      const base = `${new URL(target.url).pathname}/Users?count=100&startIndex=`;
      // Pages anywhere in the preloaded range, not only the first one.
      const pages = Math.max(1, Math.floor(target.ids.length / 100) - 1);
      return [
        {
          method: 'GET',
          headers,
          setupRequest: (r) => ({ ...r, path: `${base}${(n++ % pages) * 100 + 1}` }),
        },
      ];
    },
  },
  {
    name: 'patch active',
    requests: (target, headers) => {
      // Round-robin over the users; each visit flips the user's `active`, so every request writes.
      let n = 0;
      const base = `${new URL(target.url).pathname}/Users/`;
      const state = activeState(target.name);
      return [
        {
          method: 'PATCH',
          headers,
          setupRequest: (r) => {
            const id = at(target.ids, n++);
            const active = !(state.get(id) ?? false);
            state.set(id, active);
            const body = JSON.stringify({
              schemas: [PATCH_SCHEMA],
              Operations: [{ op: 'replace', path: 'active', value: active }],
            });
            return { ...r, path: base + id, body };
          },
        },
      ];
    },
  },
];

// What the benchmark last set `active` to, per server and user, kept across rounds.
const activeStates = new Map<string, Map<string, boolean>>();

function activeState(server: string): Map<string, boolean> {
  let state = activeStates.get(server);
  if (!state) activeStates.set(server, (state = new Map()));
  return state;
}

function at<T>(items: readonly T[], n: number): T {
  return items[n % items.length] as T;
}
