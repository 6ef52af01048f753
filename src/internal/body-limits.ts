import type { AdapterOptions } from '../adapters/adapter-options.js';
import { BodyBudget } from './body-budget.js';

/** Bytes of request bodies an adapter holds at once by default, for all its requests. */
export const DEFAULT_MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;

/** How much of a body an adapter reads, and for how long. */
export interface BodyLimits {
  /**
   * Bytes read at most: one past the limit, so that the core, which owns the size check, sees
   * an oversized body and answers 413 without the adapter having buffered all of it.
   */
  readonly cap: number;
  /** Milliseconds allowed for the whole body. */
  readonly timeoutMs: number;
  /** The bytes every body being read holds together, shared by the adapter's requests. */
  readonly budget: BodyBudget;
}

/**
 * Returns the body limits of an adapter: its own options, else the service's; the buffered
 * bytes budget is the adapter's own, made here once for all its requests.
 */
export function bodyLimits(
  scim: { readonly maxBodyBytes: number; readonly bodyTimeoutMs: number },
  options: AdapterOptions<never> | undefined,
): BodyLimits {
  return {
    cap: (options?.maxBodyBytes ?? scim.maxBodyBytes) + 1,
    timeoutMs: options?.bodyTimeoutMs ?? scim.bodyTimeoutMs,
    budget: new BodyBudget(options?.maxBufferedBodyBytes ?? DEFAULT_MAX_BUFFERED_BODY_BYTES),
  };
}
