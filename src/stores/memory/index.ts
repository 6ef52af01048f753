/**
 * The in-memory reference store: indexed per tenant, copies in, frozen users out, with the event log and
 * the subscribers' delivery state in the same process.
 *
 * @module
 * @example
 * ```ts
 * import { MemoryUserStore } from 'scimkit/memory';
 *
 * const scim = createScim({ store: new MemoryUserStore(), verifier, mailer });
 * ```
 */
export { MemoryUserStore } from './memory-user-store.js';
export { MemoryResourceStore } from './memory-resource-store.js';
export { MemoryEventLog } from './memory-event-log.js';
export type { MemoryUserStoreOptions } from './memory-user-store.js';
export type { MemoryResourceStoreOptions } from './memory-resource-store.js';
