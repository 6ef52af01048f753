/** What every key issued by a key store starts with, so that scanners can recognise a leak. */
export const KEY_PREFIX = 'scimkit_';

// `scimkit_`, 16 hex digits of key id, `_`, 43 base64url characters: 256 bits of randomness.
const TOKEN = /^scimkit_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;

/** A new key: its id and the whole key (`scimkit_<id>_<secret>`). */
export interface NewKeyToken {
  readonly id: string;
  readonly token: string;
}

function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Makes a new key: a random 64-bit id, looked up in the store, and 256 random bits of secret,
 * from the platform's cryptographic random source.
 */
export function newKeyToken(): NewKeyToken {
  let id = '';
  for (const byte of randomBytes(8)) id += byte.toString(16).padStart(2, '0');
  return { id, token: `${KEY_PREFIX}${id}_${base64Url(randomBytes(32))}` };
}

/** Returns the key id of a token shaped like a key store's key, or `undefined`. */
export function keyIdOf(token: string): string | undefined {
  return TOKEN.exec(token)?.[1];
}
