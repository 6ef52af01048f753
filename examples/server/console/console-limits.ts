/**
 * How much of the SCIM traffic the console keeps and shows. Every bound holds whether or not
 * anyone has the console open: the log is filled by every authenticated request.
 */
export interface ConsoleLimits {
  /** Bytes of one request body kept (formatted JSON text); the rest is dropped, its size noted. */
  readonly bodyBytes: number;
  /** Bytes of logged requests kept per tenant; the oldest go first. */
  readonly tenantBytes: number;
  /** Bytes of logged requests kept for all tenants together; the oldest go first. */
  readonly totalBytes: number;
  /** Bytes of request log one console page (or live update) renders; older rows are left out. */
  readonly pageBytes: number;
}

const KIB = 1024;
const MIB = 1024 * KIB;

/** The defaults of {@link ConsoleLimits}. */
export const DEFAULT_CONSOLE_LIMITS: ConsoleLimits = {
  bodyBytes: 16 * KIB,
  tenantBytes: 8 * MIB,
  totalBytes: 32 * MIB,
  pageBytes: 2 * MIB,
};
