import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK = 'server.lock';
const SECRET = 'activation-secret';

/** True when a process with this id is running (or exists under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates a file only if it does not exist yet; false when it did. */
function createOnce(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * The example server's data folder: the PGlite database, the activation secret, and a lock
 * that keeps a second process out. PGlite does not lock its files itself, and two processes
 * writing one PGlite folder would corrupt it.
 */
export class DataFolder {
  readonly dir: string;
  readonly #lock: string;
  #locked = false;

  constructor(dir: string) {
    this.dir = dir;
    this.#lock = join(dir, LOCK);
  }

  /** Where PGlite keeps the database. */
  get databaseDir(): string {
    return join(this.dir, 'pglite');
  }

  /**
   * Takes the folder for this process. A lock left by a process that no longer runs (killed,
   * crashed) is taken over; a lock of a running process is an error.
   */
  lock(): void {
    mkdirSync(this.dir, { recursive: true });
    for (let attempt = 0; attempt < 2; attempt++) {
      if (createOnce(this.#lock, `${process.pid}\n`)) {
        this.#locked = true;
        return;
      }
      const owner = Number(readFileSync(this.#lock, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new Error(
          `The data folder ${this.dir} is in use by process ${owner}. PGlite serves one process: ` +
            'stop it, choose another SCIMKIT_DATA_DIR, or share a PostgreSQL server (DATABASE_URL).',
        );
      }
      unlinkSync(this.#lock);
    }
    throw new Error(`Could not lock the data folder ${this.dir}.`);
  }

  /** Releases the lock taken by {@link lock}. */
  unlock(): void {
    if (!this.#locked) return;
    this.#locked = false;
    try {
      unlinkSync(this.#lock);
    } catch {
      // Already gone: nothing to release.
    }
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
