import type { ListPosition } from '../../contracts/user-store.js';
import { scimErrors } from '../../errors/index.js';

/** What a cursor carries: where the page starts, its direction, its count, when it was made. */
export interface CursorState {
  /** The place the page reads from; absent: from the start (forward) or the end (backward). */
  readonly from?: ListPosition;
  readonly direction: 'forward' | 'backward';
  /** The `count` of the query it belongs to (RFC 9865: it must not change between pages). */
  readonly count: number;
  /** When the cursor was made, in whole seconds since the epoch. */
  readonly issuedAt: number;
}

/**
 * What a cursor is bound to besides its own content: the tenant, the endpoint and the query
 * (filter, sortBy, sortOrder). A cursor presented with anything else fails its signature.
 */
export interface CursorBinding {
  readonly tenant: string;
  readonly endpoint: string;
  readonly filter: string | undefined;
  readonly sortBy: string | undefined;
  readonly sortOrder: string;
}

/** Signs and reads cursors (see {@link cursorCodec}). */
export interface CursorCodec {
  /** Builds the opaque, URL-safe cursor of `state`, bound to `binding`. */
  encode(state: CursorState, binding: CursorBinding): Promise<string>;
  /**
   * Reads a cursor back.
   *
   * @throws ScimError 400 `invalidCursor` for a cursor this codec did not make for `binding`
   *   (forged, damaged, another tenant's, endpoint's or query's).
   */
  decode(cursor: string, binding: CursorBinding): Promise<CursorState>;
}

/** How cursor paging is set up, fixed at start (see `HandlerConfig.cursors`). */
export interface CursorSettings {
  readonly codec: CursorCodec;
  /** How long a cursor stays valid, in seconds; 0: forever. */
  readonly timeoutSeconds: number;
  readonly now: () => Date;
}

/** The longest cursor read; ours are about 100 to 400 characters. */
const MAX_CURSOR_LENGTH = 4096;
/** The RFC 3986 §2.3 unreserved characters, the only ones RFC 9865 allows in a cursor. */
const UNRESERVED = /^[A-Za-z0-9._~-]+$/;
const MAC_BYTES = 16;

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function invalid(): never {
  throw scimErrors.invalidCursor(
    'The cursor is not one this server gave for this query: it was changed or cut short, or ' +
      'was made for another filter, sortBy, sortOrder or tenant. Send the nextCursor or ' +
      'previousCursor of the previous page unchanged, with the same query, or an empty cursor ' +
      'to start again.',
  );
}

/** Reads the JSON payload of a cursor; anything but the shape `encode` writes is `undefined`. */
function readState(bytes: Uint8Array): CursorState | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { d, c, t, i, k } = raw as Record<string, unknown>;
  if ((d !== 'f' && d !== 'b') || !Number.isSafeInteger(c) || !Number.isSafeInteger(t))
    return undefined;
  if (i !== undefined && typeof i !== 'string') return undefined;
  if (k !== undefined && !['string', 'number', 'boolean'].includes(typeof k)) return undefined;
  const state = {
    direction: d === 'f' ? 'forward' : 'backward',
    count: c as number,
    issuedAt: t as number,
  } as const;
  if (i === undefined) return state;
  const from = k === undefined ? { id: i } : { id: i, key: k as string | number | boolean };
  return { ...state, from };
}

/**
 * Builds the codec of RFC 9865 cursors: a cursor is its state as base64url JSON followed by an
 * HMAC-SHA-256 (WebCrypto, so every runtime has it) over the state and what it is bound to.
 * A client cannot forge, edit or move a cursor to another tenant or query; it can read it,
 * which shows nothing it was not already shown (the id and sort key of a user on its page).
 *
 * @param secret - gives the HMAC key, asked once, on the first cursor (not at start-up: some
 *   runtimes, such as workerd, allow no random values in global scope); instances that serve
 *   the same clients need the same key.
 */
export function cursorCodec(secret: () => Uint8Array): CursorCodec {
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = () =>
    (key ??= crypto.subtle.importKey(
      'raw',
      secret() as Uint8Array<ArrayBuffer>,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    ));
  const mac = async (payload: string, binding: CursorBinding): Promise<Uint8Array> => {
    const { tenant, endpoint, filter, sortBy, sortOrder } = binding;
    const signed = JSON.stringify([
      payload,
      tenant,
      endpoint,
      filter ?? null,
      sortBy ?? null,
      sortOrder,
    ]);
    const full = await crypto.subtle.sign('HMAC', await hmacKey(), encoder.encode(signed));
    return new Uint8Array(full, 0, MAC_BYTES);
  };
  return {
    async encode(state, binding) {
      const body: Record<string, unknown> = {
        d: state.direction === 'forward' ? 'f' : 'b',
        c: state.count,
        t: state.issuedAt,
      };
      if (state.from) {
        body.i = state.from.id;
        if (state.from.key !== undefined) body.k = state.from.key;
      }
      const payload = toBase64Url(encoder.encode(JSON.stringify(body)));
      return `${payload}.${toBase64Url(await mac(payload, binding))}`;
    },
    async decode(cursor, binding) {
      if (cursor.length > MAX_CURSOR_LENGTH || !UNRESERVED.test(cursor)) invalid();
      const [payload, signature, extra] = cursor.split('.');
      if (payload === undefined || signature === undefined || extra !== undefined) invalid();
      const given = fromBase64Url(signature);
      if (!given || given.length !== MAC_BYTES) invalid();
      const expected = await mac(payload, binding);
      // Compared in full whatever differs, so the time taken tells nothing about the MAC.
      let diff = 0;
      for (let i = 0; i < MAC_BYTES; i++) diff |= (given[i] as number) ^ (expected[i] as number);
      if (diff !== 0) invalid();
      const bytes = fromBase64Url(payload);
      const state = bytes && readState(bytes);
      return state ?? invalid();
    },
  };
}
