// Crockford's base32 in lower case: URL-safe, and its characters sort in ASCII order, so ids
// compare as plain strings in creation order.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RANDOM_CHARS = 16;
// Random bytes are drawn a pool at a time: one system call per 256 ids instead of one per id.
const POOL_SIZE = RANDOM_CHARS * 256;

/**
 * The id clock: module state with a reason (issue 16). Ids must increase within the process
 * whichever service makes them (users, groups, outbox messages of every `createScim`), so the
 * last time and random part are kept once per process, with the pool of random bytes still
 * unused (`poolAt` is the next unused byte).
 */
const idClock = {
  pool: new Uint8Array(POOL_SIZE),
  poolAt: POOL_SIZE,
  lastTime: -1,
  lastTimeChars: '',
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

function timeChars(t: number): string {
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
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
    idClock.lastTimeChars = timeChars(now);
    refreshRandom();
  }
  let random = '';
  for (let i = 0; i < RANDOM_CHARS; i++) random += ALPHABET[idClock.lastRandom[i] as number];
  return idClock.lastTimeChars + random;
}
