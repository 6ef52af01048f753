import type { AdapterOptions } from '../adapters/adapter-options.js';

/** How much of a body an adapter reads, and for how long. */
export interface BodyLimits {
  /**
   * Bytes read at most: one past the limit, so that the core, which owns the size check, sees
   * an oversized body and answers 413 without the adapter having buffered all of it.
   */
  readonly cap: number;
  /** Milliseconds allowed for the whole body. */
  readonly timeoutMs: number;
}

/** Returns the body limits of an adapter: its own options, else the service's. */
export function bodyLimits(
  scim: { readonly maxBodyBytes: number; readonly bodyTimeoutMs: number },
  options: AdapterOptions<never> | undefined,
): BodyLimits {
  return {
    cap: (options?.maxBodyBytes ?? scim.maxBodyBytes) + 1,
    timeoutMs: options?.bodyTimeoutMs ?? scim.bodyTimeoutMs,
  };
}
