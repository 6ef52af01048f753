import type { ResourceStore } from '../contracts/resource-store.js';
import type { UserStore } from '../contracts/user-store.js';
import type { ScimUser } from '../schema/user-resource.js';

/** A store under test, with an optional back door to what it really stored. */
export interface StoreHarness {
  /** A fresh, empty store. */
  readonly store: UserStore;
  /**
   * Reads a user exactly as stored, bypassing `get` (for example with a direct SQL query).
   * Cases that need it are skipped when it is absent.
   */
  readonly readStored?: (tenant: string, id: string) => Promise<ScimUser | null> | ScimUser | null;
  /** Releases what the store holds (connections, files) after a case. */
  readonly close?: () => Promise<void> | void;
}

/** Makes a fresh, empty store (or a harness around one) for each case. */
export type StoreFactory = () => UserStore | StoreHarness | Promise<UserStore | StoreHarness>;

/** Makes a fresh, empty store of a host resource type for each case. */
export type ResourceStoreFactory = () => ResourceStore | Promise<ResourceStore>;

/**
 * What the conformance suite runs against: a user store, with its groups, event log and
 * subscription state when it has them, and the stores of host resource types. Each is optional; the suite runs the
 * cases of what is given.
 */
export interface StoreConformanceTargets {
  /**
   * Makes a fresh user store (or a harness around one) for each case: the user cases, the
   * group cases when the store has `groups`, the event log and subscriber cases when it has
   * `events` and `subscriptions`.
   */
  readonly users?: StoreFactory;
  /**
   * Makes a fresh store of each host resource type for each of the host-type cases, by a name
   * the results carry (`store`), such as the type's name.
   */
  readonly resourceTypes?: Readonly<Record<string, ResourceStoreFactory>>;
}

/** Builds valid users with time-ordered ids, as the core would hand them to a store. */
export interface UserFactory {
  /** Returns a new valid user with the next id; `overrides` replace top-level attributes. */
  make(overrides?: Partial<ScimUser>): ScimUser;
  /** Returns a copy of `user` with `changes` applied and its `meta.version` increased by one. */
  next(user: ScimUser, changes?: Partial<ScimUser>): ScimUser;
}

/** What a case receives: a fresh store and helpers. */
export interface StoreTestContext {
  /** A fresh store from the factory, for this case only. */
  readonly store: UserStore;
  /** The tenant most cases work in. */
  readonly tenant: string;
  /** A second tenant, whose users must stay invisible from {@link tenant}. */
  readonly otherTenant: string;
  /** Builds users with time-ordered ids for {@link tenant}. */
  readonly users: UserFactory;
  /** The harness's back door, when it has one. */
  readonly readStored: StoreHarness['readStored'];
  /** Reads a user through the back door when there is one, else through `get`. */
  read(id: string, tenant?: string): Promise<ScimUser | null>;
  /** Returns a time `offsetMs` after the case started, for leases and retries. */
  at(offsetMs: number): Date;
  /** Ends the case as skipped, for example when the store does not declare a filter form. */
  skip(reason: string): never;
}

/** One conformance case: data a runner turns into a test. */
export interface StoreConformanceCase {
  /** A stable id such as `create.uniqueness-ignores-case`; safe to list in `skip`. */
  readonly id: string;
  /** What the store must do, in one sentence. */
  readonly title: string;
  /** Throws when the store does not behave; calls `ctx.skip()` when the case does not apply. */
  run(ctx: StoreTestContext): Promise<void>;
}

/** Options of the conformance runners. */
export interface StoreConformanceOptions {
  /** Case ids to skip, each with the reason (kept in the report). */
  readonly skip?: Readonly<Record<string, string>>;
}

/** The outcome of one case. */
export interface StoreConformanceResult {
  /** The case's stable id. */
  readonly id: string;
  /** The case's title. */
  readonly title: string;
  /** `skipped` when the case did not apply or was listed in `skip`. */
  readonly status: 'passed' | 'failed' | 'skipped';
  /** The failure, for `failed`. */
  readonly error?: unknown;
  /** Why the case did not apply, for `skipped`. */
  readonly reason?: string;
  /** For a host-type case: the name of the store it ran on (`StoreConformanceTargets`). */
  readonly store?: string;
}
