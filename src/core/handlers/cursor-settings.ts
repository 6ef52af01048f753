import { ScimConfigError } from '../../errors/index.js';
import { cursorCodec, type CursorSettings } from './cursor-token.js';

const MIN_SECRET_LENGTH = 32;
const DEFAULT_TIMEOUT_SECONDS = 3600;

/**
 * Sets up RFC 9865 cursor paging from the paging settings: only when the user store declares
 * `capabilities.keysetPaging` (`cursors`), signed with `cursorSecret` (or a random key of this
 * process).
 *
 * @throws ScimConfigError for a `cursorSecret` under 32 characters or a `cursorTimeoutSeconds`
 *   that is not a whole number of seconds.
 */
export function cursorSettings(
  paging: {
    readonly cursorSecret: string | undefined;
    readonly cursorTimeoutSeconds: number | undefined;
    readonly cursors: boolean;
  },
  now: () => Date,
): CursorSettings | undefined {
  const { cursorSecret, cursorTimeoutSeconds = DEFAULT_TIMEOUT_SECONDS } = paging;
  if (cursorSecret !== undefined && cursorSecret.length < MIN_SECRET_LENGTH) {
    throw new ScimConfigError(
      `createScim: cursorSecret must be at least ${MIN_SECRET_LENGTH} characters.`,
    );
  }
  if (!Number.isSafeInteger(cursorTimeoutSeconds) || cursorTimeoutSeconds < 0) {
    throw new ScimConfigError(
      'createScim: cursorTimeoutSeconds must be a whole number of seconds, 0 or more.',
    );
  }
  if (!paging.cursors) return undefined;
  // Drawn on first use: workerd allows no random values while a module loads.
  const secret = () =>
    cursorSecret === undefined
      ? crypto.getRandomValues(new Uint8Array(32))
      : new TextEncoder().encode(cursorSecret);
  return { codec: cursorCodec(secret), timeoutSeconds: cursorTimeoutSeconds, now };
}
