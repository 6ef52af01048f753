import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import type { KeyStore } from '../../src/index.js';

/** The tenant the development key acts for. */
export const DEV_TENANT = 'dev';

/** What the start-up log says about the development key. */
export interface DevKey {
  /** The key, when this process knows it (a key store with no data folder says it once). */
  readonly key: string | undefined;
  /** One line about where the key comes from, or what to do without one. */
  readonly note: string;
}

function readKept(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds or issues the development key of a server without `SCIM_API_KEYS`. The first start
 * issues one for tenant `dev`; with a data folder it is kept there (mode 0600) so a pasted
 * `curl` keeps working after a restart, since the key store holds only its hash. A kept key
 * that was revoked or rotated is not replaced: the developer decided that.
 */
export async function devKey(keys: KeyStore, file: string | undefined): Promise<DevKey> {
  const kept = file === undefined ? undefined : readKept(file);
  if (kept !== undefined && (await keys.verify(kept)) !== null)
    return { key: kept, note: `the development key kept in ${file}` };
  const issuedBefore = (await keys.list(DEV_TENANT)).length > 0;
  // Without a data folder the key was shown once, at the first start: only its hash is kept.
  if (kept === undefined && issuedBefore)
    return {
      key: undefined,
      note:
        'the development key shown at the first start (only its hash is kept); list the keys ' +
        `with npm run keys -- keys list --tenant ${DEV_TENANT}`,
    };
  if (kept !== undefined)
    return {
      key: undefined,
      note:
        `the development key no longer works (revoked or rotated); issue one with ` +
        `npm run keys -- keys issue --tenant ${DEV_TENANT}`,
    };
  const issued = await keys.issue(DEV_TENANT, { label: 'development key' });
  if (file === undefined)
    return { key: issued.secret, note: 'a development key, shown this once: copy it now' };
  writeFileSync(file, `${issued.secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { key: issued.secret, note: `a new development key, kept in ${file}` };
}
