import { ERROR_SCHEMA } from '../schema/urns.js';

/**
 * The `scimType` values RFC 7644 §3.12 defines, and those RFC 9865 §2.1 adds for cursor
 * paging, plus none for errors that have no type.
 */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive'
  | 'invalidCursor'
  | 'expiredCursor'
  | 'invalidCount';

const BRAND = Symbol.for('scimkit.ScimError');

/** The RFC 7644 §3.12 error body. */
export interface ScimErrorBody {
  /** The error message schema, alone. */
  schemas: [typeof ERROR_SCHEMA];
  /** The HTTP status code, as a string (RFC 7644 §3.12). */
  status: string;
  /** The RFC 7644 §3.12 error type, for the statuses that define one. */
  scimType?: ScimType;
  /** A human-readable explanation a client can act on. */
  detail: string;
}

/** Options for {@link ScimError}. */
export interface ScimErrorOptions {
  /** The RFC 7644 `scimType`, where one applies. */
  scimType?: ScimType | undefined;
  /** Extra response headers, such as `WWW-Authenticate` on a 401. */
  headers?: Record<string, string> | undefined;
  /** The underlying fault, kept for the host's `onError` and never sent to the client. */
  cause?: unknown;
}

/**
 * Describes a failure that goes to the client as a SCIM error response.
 *
 * Recognised by a brand as well as by `instanceof`, so two copies of scimkit in one bundle
 * still understand each other's errors (see {@link isScimError}).
 *
 * @see RFC 7644 §3.12
 * @example
 * ```ts
 * throw new ScimError(400, 'userName is required', { scimType: 'invalidValue' });
 * ```
 */
export class ScimError extends Error {
  /** The HTTP status code. */
  readonly status: number;
  /** The RFC 7644 `scimType`, where one applies. */
  readonly scimType: ScimType | undefined;
  /** A message a human can act on; sent to the client as `detail`. */
  readonly detail: string;
  /** Extra headers to send with the error response. */
  readonly headers: Record<string, string> | undefined;
  /** @internal */
  readonly [BRAND] = true;

  constructor(status: number, detail: string, options: ScimErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ScimError';
    this.status = status;
    this.detail = detail;
    this.scimType = options.scimType;
    this.headers = options.headers;
  }

  /** Serialises the error to the RFC 7644 §3.12 body. */
  toJSON(): ScimErrorBody {
    const body: ScimErrorBody = {
      schemas: [ERROR_SCHEMA],
      status: String(this.status),
      detail: this.detail,
    };
    if (this.scimType !== undefined) body.scimType = this.scimType;
    return body;
  }
}

/** Tells whether a value is a {@link ScimError}, from this or any other copy of scimkit. */
export function isScimError(value: unknown): value is ScimError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[BRAND] === true
  );
}
