// Crockford's base32 in lower case: URL-safe, and its characters sort in ASCII order, so ids
// compare as plain strings in creation order.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const CODES: readonly number[] = Object.freeze(Array.from(ALPHABET, (c) => c.charCodeAt(0)));
const RANDOM_CHARS = 16;
// Random bytes are drawn a pool at a time: one system call per 256 ids instead of one per id,
// which would cost every id a call into the system.
const POOL_SIZE = RANDOM_CHARS * 256;

/**
 * The id clock: module state with a reason. Ids must increase within the process
 * whichever service makes them (users, groups, outbox messages of every `createScim`), so the
 * last time and random part are kept once per process, with the pool of random bytes still
 * unused (`poolAt` is the next unused byte).
 */
const idClock = {
  pool: new Uint8Array(POOL_SIZE),
  poolAt: POOL_SIZE,
  lastTime: -1,
  /** The characters of `lastTime`, as character codes. */
  lastTimeCodes: new Uint8Array(10),
  lastRandom: new Uint8Array(RANDOM_CHARS),
};

function refreshRandom(): void {
  const { pool, lastRandom } = idClock;
  if (idClock.poolAt === POOL_SIZE) {
    crypto.getRandomValues(pool);
    idClock.poolAt = 0;
  }
  for (let i = 0; i < RANDOM_CHARS; i++) lastRandom[i] = (pool[idClock.poolAt++] as number) & 31;
}

// Adds one to the random part, so ids made within the same millisecond still increase.
function increment(): void {
  const { lastRandom } = idClock;
  for (let i = RANDOM_CHARS - 1; i >= 0; i--) {
    if ((lastRandom[i] as number) < 31) {
      lastRandom[i] = (lastRandom[i] as number) + 1;
      return;
    }
    lastRandom[i] = 0;
  }
}

function setTimeCodes(t: number): void {
  const codes = idClock.lastTimeCodes;
  for (let i = 9; i >= 0; i--) {
    codes[i] = CODES[t % 32] as number;
    t = Math.floor(t / 32);
  }
}

/**
 * Makes a new resource id: 26 characters, 10 of time (ms) then 16 random, like a ULID.
 * Opaque, URL-safe, never reused, and increasing within a process, so "ordered by id" is
 * creation order.
 */
export function newId(now: number = Date.now()): string {
  if (now <= idClock.lastTime) {
    increment();
  } else {
    idClock.lastTime = now;
    setTimeCodes(now);
    refreshRandom();
  }
  const t = idClock.lastTimeCodes;
  const r = idClock.lastRandom;
  const c = (i: number) => CODES[r[i] as number] as number;
  // One flat string of 26 characters: built a character at a time, an id was a tree of pieces
  // until something read it whole (and each kept outbox message id had to be flattened).
  return String.fromCharCode(
    t[0] as number,
    t[1] as number,
    t[2] as number,
    t[3] as number,
    t[4] as number,
    t[5] as number,
    t[6] as number,
    t[7] as number,
    t[8] as number,
    t[9] as number,
    c(0),
    c(1),
    c(2),
    c(3),
    c(4),
    c(5),
    c(6),
    c(7),
    c(8),
    c(9),
    c(10),
    c(11),
    c(12),
    c(13),
    c(14),
    c(15),
  );
}
