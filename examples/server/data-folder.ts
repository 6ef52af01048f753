import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOnce, LockHeldError, takeFolderLock, type FolderLock } from './folder-lock.js';

const LOCK = 'server.lock';
const SECRET = 'activation-secret';

/**
 * The example server's data folder: the PGlite database, the activation secret, and a lock
 * that keeps a second process out. PGlite does not lock its files itself, and two processes
 * writing one PGlite folder would corrupt it.
 */
export class DataFolder {
  readonly dir: string;
  readonly #lock: string;
  #held: FolderLock | undefined;

  constructor(dir: string) {
    this.dir = dir;
    this.#lock = join(dir, LOCK);
  }

  /** Where the development key is kept (mode 0600), for a `curl` that works after a restart. */
  get devKeyFile(): string {
    return join(this.dir, 'dev-api-key');
  }

  /** Where PGlite keeps the database. */
  get databaseDir(): string {
    return join(this.dir, 'pglite');
  }

  /**
   * Takes the folder for this process. A lock left by a process that no longer runs (killed,
   * crashed) is taken over; a lock of a running process is an error. Of several servers
   * starting at once on one folder, exactly one gets it (see {@link takeFolderLock}).
   */
  async lock(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    try {
      this.#held = await takeFolderLock(this.#lock);
    } catch (error) {
      if (!(error instanceof LockHeldError)) throw error;
      throw new Error(
        `The data folder ${this.dir} is in use by process ${error.owner}. PGlite serves one ` +
          'process: stop it, choose another SCIMKIT_DATA_DIR, or share a PostgreSQL server (DATABASE_URL).',
      );
    }
  }

  /** Releases the lock taken by {@link lock}. */
  unlock(): void {
    this.#held?.release();
    this.#held = undefined;
  }

  /**
   * Returns the activation secret kept in the folder, making it on first use, so that links in
   * emails sent before a restart still work after it.
   */
  activationSecret(): string {
    const path = join(this.dir, SECRET);
    createOnce(path, `${randomBytes(32).toString('hex')}\n`);
    const secret = readFileSync(path, 'utf8').trim();
    if (secret === '')
      throw new Error(`${path} is empty; delete it or set SCIMKIT_ACTIVATION_SECRET.`);
    return secret;
  }
}
