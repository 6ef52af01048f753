import {
  KeyStoreError,
  type IssuedApiKey,
  type KeyStore,
  type ListedApiKey,
  type Scope,
} from '../../../src/index.js';

/** What the setup page's forms ask of the key store. */
export type KeyVerb = 'issue' | 'rotate' | 'revoke';

/** The outcome of one key action: the key just issued, or what the person must fix. */
export interface KeyActionResult {
  readonly issued?: IssuedApiKey;
  readonly problem?: string;
}

/** The most usable keys a tenant may hold; issuing one more asks to revoke one first. */
export const MAX_ACTIVE_KEYS = 20;
/** The most keys the setup page lists: the newest. */
export const MAX_LISTED_KEYS = 200;

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRIES = new Set(['30', '90', '365']);

/** Tells whether a key store's key id is one of the tenant's usable keys. */
export function isActiveKey(keys: readonly ListedApiKey[], id: string | undefined): boolean {
  return keys.some((key) => key.id === id && key.status === 'active');
}

function issueOptions(form: URLSearchParams) {
  const scope = form.get('scope') ?? 'write';
  const expires = form.get('expires') ?? '';
  const label = (form.get('label') ?? '').trim();
  if (scope !== 'read' && scope !== 'write') return 'Choose the scopes "read" or "write".';
  if (expires !== '' && !EXPIRIES.has(expires))
    return 'Choose an expiry of 30, 90 or 365 days, or never.';
  const scopes: Scope[] = scope === 'read' ? ['scim:read'] : ['scim:read', 'scim:write'];
  return {
    scopes,
    ...(expires === '' ? {} : { expiresAt: new Date(Date.now() + Number(expires) * DAY_MS) }),
    ...(label === '' ? {} : { label }),
  };
}

/**
 * Runs one of the setup page's key actions for `tenant`: issues a key, or rotates or revokes
 * one of the tenant's own keys (a key id of another tenant is answered as unknown). A refused
 * action changes nothing and says why.
 */
export async function runKeyAction(
  keys: KeyStore,
  tenant: string,
  verb: KeyVerb,
  form: URLSearchParams,
): Promise<KeyActionResult> {
  const own = await keys.list(tenant);
  try {
    const full = own.filter((key) => key.status === 'active').length >= MAX_ACTIVE_KEYS;
    const tooMany = `This tenant already has ${MAX_ACTIVE_KEYS} usable keys: revoke one first.`;
    if (verb === 'issue') {
      const options = issueOptions(form);
      if (typeof options === 'string') return { problem: options };
      return full ? { problem: tooMany } : { issued: await keys.issue(tenant, options) };
    }
    const id = form.get('id') ?? '';
    if (!own.some((key) => key.id === id))
      return { problem: `This tenant has no key with the id "${id.slice(0, 40)}".` };
    if (verb === 'rotate') return full ? { problem: tooMany } : { issued: await keys.rotate(id) };
    await keys.revoke(id);
    return {};
  } catch (error) {
    if (error instanceof KeyStoreError) return { problem: error.message };
    throw error;
  }
}
