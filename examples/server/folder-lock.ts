import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Tries before {@link takeFolderLock} gives up on a lock that keeps changing hands. */
const ATTEMPTS = 50;
/** Pause between tries while another process takes over the same stale lock. */
const PAUSE_MS = 20;

// The nonces of the locks this process holds: a lock file naming our own pid is ours only if
// its nonce is here; otherwise it was left by an earlier process that had the same pid (a
// container restarted, pid 1 again).
const held = new Set<string>();

/** A lock held by this process; {@link FolderLock.release} gives it up. */
export interface FolderLock {
  release(): void;
}

/** Thrown when a running process holds the lock. */
export class LockHeldError extends Error {
  override readonly name = 'LockHeldError';
  constructor(readonly owner: number) {
    super(`held by process ${owner}`);
  }
}

/** True when a process with this id is running (or exists under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates a file only if it does not exist yet (one atomic `open(O_EXCL)`); false when it did. */
export function createOnce(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Puts a file with `text` at `path` only if none is there, whole: written aside, then linked
 * into place (atomic, EEXIST when taken). An exclusive create followed by a write would show
 * other takers an empty lock for a moment, which they would take for a stale one.
 */
function placeOnce(path: string, text: string, nonce: string): boolean {
  const aside = `${path}.${nonce}.tmp`;
  writeFileSync(aside, text, { mode: 0o600 });
  try {
    linkSync(aside, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkIfThere(aside);
  }
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function unlinkIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Takes the lock file at `path` for this process, or throws {@link LockHeldError} when a
 * running process holds it. The file holds `<pid> <nonce>`.
 *
 * Taking a free lock is one atomic link of a file already written. Taking over a stale one (its process is gone)
 * must not let two takers both win, as "read, see it stale, delete, create" did: a second
 * taker deleted the first one's fresh lock. So the right to delete a stale lock is itself an
 * exclusive create, of `<path>.takeover-<nonce of that stale lock>`: one taker gets it,
 * deletes exactly that stale file (nobody else may touch it), and then competes for the free
 * lock like everyone else. Exactly one process wins.
 */
export async function takeFolderLock(path: string): Promise<FolderLock> {
  const nonce = randomBytes(12).toString('hex');
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (placeOnce(path, `${process.pid} ${nonce}\n`, nonce)) {
      held.add(nonce);
      return { release: () => release(path, nonce) };
    }
    const text = readOrUndefined(path);
    if (text === undefined) continue; // released or taken over meanwhile: try again at once
    const [pidText = '', staleNonce = pidText] = text.trim().split(/\s+/);
    const owner = Number(pidText);
    const ours = owner === process.pid && held.has(staleNonce);
    if (Number.isInteger(owner) && owner > 0 && (ours || (owner !== process.pid && alive(owner))))
      throw new LockHeldError(owner);
    const takeover = `${path}.takeover-${staleNonce.replace(/[^\w-]/g, '_')}`;
    if (createOnce(takeover, `${process.pid}\n`)) {
      try {
        // Only the holder of this takeover file removes this stale lock: it is still there.
        if (readOrUndefined(path) === text) unlinkIfThere(path);
      } finally {
        unlinkIfThere(takeover);
      }
      continue;
    }
    await sleep(PAUSE_MS); // another process is taking it over: see who wins
  }
  throw new Error(
    `Could not take the lock ${path}: another process kept it busy. If no other server is ` +
      `starting on this folder, delete ${path} and ${path}.takeover-* and start again.`,
  );
}

function release(path: string, nonce: string): void {
  if (!held.delete(nonce)) return;
  // Remove the file only while it is still ours.
  if (readOrUndefined(path)?.trim() === `${process.pid} ${nonce}`) unlinkIfThere(path);
}
