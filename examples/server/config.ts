import { randomBytes } from 'node:crypto';

/** One API key and the tenant it acts for. */
export interface KeyEntry {
  readonly key: string;
  readonly tenant: string;
}

/** Everything the example server reads from its environment. */
export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  readonly keys: readonly KeyEntry[];
  /** True when no SCIM_API_KEYS was set and a development key was generated. */
  readonly generatedKey: boolean;
  readonly mailLog: string | undefined;
  readonly activationSecret: string;
}

/**
 * Parses `SCIM_API_KEYS`: `token:tenant` pairs separated by commas. A token may itself hold
 * colons; the tenant is what follows the last one.
 */
export function parseApiKeys(text: string): KeyEntry[] {
  return text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.lastIndexOf(':');
      const key = pair.slice(0, at).trim();
      const tenant = pair.slice(at + 1).trim();
      if (at <= 0 || key === '' || tenant === '') {
        throw new Error(`SCIM_API_KEYS: "${pair}" is not a token:tenant pair.`);
      }
      return { key, tenant };
    });
}

/** Reads the server's configuration from environment variables. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT: "${env.PORT}" is not a port number.`);
  const configured = env.SCIM_API_KEYS?.trim() ? parseApiKeys(env.SCIM_API_KEYS) : [];
  const generatedKey = configured.length === 0;
  const keys = generatedKey
    ? [{ key: `dev-${randomBytes(18).toString('base64url')}`, tenant: 'dev' }]
    : configured;
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    keys,
    generatedKey,
    mailLog: env.SCIMKIT_MAIL_LOG || undefined,
    activationSecret: env.SCIMKIT_ACTIVATION_SECRET || randomBytes(32).toString('hex'),
  };
}
