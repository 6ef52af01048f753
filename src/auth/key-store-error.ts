/** Why a key store refused a call. */
export type KeyStoreErrorCode = 'unknownKey' | 'inactiveKey' | 'invalidInput';

/**
 * A refused key store call: an id no key has (`unknownKey`), a revoked or expired key asked to
 * rotate (`inactiveKey`), or an argument out of range (`invalidInput`). The message is one line
 * a person can act on.
 *
 * @example
 * ```ts
 * try {
 *   await keys.revoke(id);
 * } catch (error) {
 *   if (error instanceof KeyStoreError && error.code === 'unknownKey') console.error(error.message);
 * }
 * ```
 */
export class KeyStoreError extends Error {
  /** Names the error class in logs and stack traces. */
  override readonly name = 'KeyStoreError';

  constructor(
    /** Why the call was refused. */
    readonly code: KeyStoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
