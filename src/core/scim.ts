import type { ScimUser } from '../schema/user-resource.js';
import type { ScimEvent } from './events/types.js';
import type { ScimRequest, ScimResponse } from './types.js';

/** The programmatic API the host application calls, outside of SCIM requests. */
export interface UserLifecycle {
  /**
   * Records the person's first login: an `Invited` user becomes `Activated`. Returns the user,
   * or `null` when there is no such user in the tenant. Calling it again changes nothing.
   */
  activate(tenant: string, id: string): Promise<ScimUser | null>;
  /**
   * Queues the welcome email again for a user who is `Invited` and has an email address (the
   * userName, else the primary or first of `emails`); returns false otherwise.
   */
  resendInvitation(tenant: string, id: string): Promise<boolean>;
  /** Reads a user, or `null`. */
  get(tenant: string, id: string): Promise<ScimUser | null>;
}

/**
 * A SCIM service: one request handler and the host's programmatic API.
 *
 * @example
 * ```ts
 * const response = await scim.handle({ method: 'GET', path: '/Users', headers, baseUrl });
 * ```
 */
export interface Scim {
  /** Answers one SCIM request. Never rejects: every failure becomes a SCIM error response. */
  handle(request: ScimRequest): Promise<ScimResponse>;
  /** The largest request body accepted, in bytes; adapters read no further than this. */
  readonly maxBodyBytes: number;
  /** The account lifecycle API for the host application. */
  readonly users: UserLifecycle;
  /** Subscribes to lifecycle events; returns the function that unsubscribes. */
  on(listener: (event: ScimEvent) => void): () => void;
  /** Delivers every welcome email that is due now; resolves to how many were sent. */
  dispatchOutbox(): Promise<number>;
  /**
   * Stops the outbox's timers, waits for the welcome email being sent (at most
   * `outbox.sendTimeoutMs`), and hands emails claimed but not sent back to the store.
   */
  close(): Promise<void>;
}
