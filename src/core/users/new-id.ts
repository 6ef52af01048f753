// Crockford's base32 in lower case: URL-safe, and its characters sort in ASCII order, so ids
// compare as plain strings in creation order.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RANDOM_CHARS = 16;

let lastTime = -1;
let lastRandom: number[] = [];

function randomChars(): number[] {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_CHARS));
  return Array.from(bytes, (b) => b & 31);
}

// Adds one to the random part, so ids made within the same millisecond still increase.
function increment(chars: number[]): number[] {
  const next = chars.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if ((next[i] ?? 0) < 31) {
      next[i] = (next[i] ?? 0) + 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

/**
 * Makes a new resource id: 26 characters, 10 of time (ms) then 16 random, like a ULID.
 * Opaque, URL-safe, never reused, and increasing within a process, so "ordered by id" is
 * creation order.
 */
export function newId(now: number = Date.now()): string {
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
  } else {
    lastTime = now;
    lastRandom = randomChars();
  }
  let time = '';
  let t = lastTime;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let random = '';
  for (const c of lastRandom) random += ALPHABET[c];
  return time + random;
}
