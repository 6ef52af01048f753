// Crockford's base32 in lower case: URL-safe, and its characters sort in ASCII order, so ids
// compare as plain strings in creation order.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RANDOM_CHARS = 16;
// Random bytes are drawn a pool at a time: one system call per 256 ids instead of one per id.
const POOL_SIZE = RANDOM_CHARS * 256;

const pool = new Uint8Array(POOL_SIZE);
let poolAt = POOL_SIZE;
let lastTime = -1;
let lastTimeChars = '';
const lastRandom = new Uint8Array(RANDOM_CHARS);

function refreshRandom(): void {
  if (poolAt === POOL_SIZE) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  for (let i = 0; i < RANDOM_CHARS; i++) lastRandom[i] = (pool[poolAt++] as number) & 31;
}

// Adds one to the random part, so ids made within the same millisecond still increase.
function increment(): void {
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
  if (now <= lastTime) {
    increment();
  } else {
    lastTime = now;
    lastTimeChars = timeChars(now);
    refreshRandom();
  }
  let random = '';
  for (let i = 0; i < RANDOM_CHARS; i++) random += ALPHABET[lastRandom[i] as number];
  return lastTimeChars + random;
}
