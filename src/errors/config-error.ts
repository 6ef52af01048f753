/**
 * Describes a mistake in how the host configured scimkit (a missing store method, a bad
 * option). Thrown at start-up by `createScim`, never sent to a client.
 */
export class ScimConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScimConfigError';
  }
}
