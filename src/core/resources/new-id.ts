// Crockford's base32 in lower case: URL-safe, and its characters sort in ASCII order, so ids
// compare as plain strings in creation order.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

/**
 * The id clock: module state with a reason. Ids must increase within the process whichever
 * service makes them (users, groups, host resources, events of every `createScim`), so
 * the last time and random part are kept once per process.
 */
const idClock = {
  lastTime: -1,
  /** The random part of the last id, one base32 digit (0–31) per character. */
  lastRandom: new Uint8Array(RANDOM_CHARS),
};

// Adds one to the random part, so ids made within the same millisecond still increase.
function increment(random: Uint8Array): void {
  for (let i = RANDOM_CHARS - 1; i >= 0; i--) {
    if ((random[i] as number) < 31) {
      random[i] = (random[i] as number) + 1;
      return;
    }
    random[i] = 0;
  }
}

/**
 * Makes a new resource id: 26 characters, 10 of time (ms) then 16 random, like a ULID.
 * Opaque, URL-safe, never reused, and increasing within a process, so "ordered by id" is
 * creation order.
 */
export function newId(now: number = Date.now()): string {
  const random = idClock.lastRandom;
  if (now <= idClock.lastTime) {
    increment(random);
  } else {
    idClock.lastTime = now;
    crypto.getRandomValues(random);
    for (let i = 0; i < RANDOM_CHARS; i++) random[i] = (random[i] as number) & 31;
  }
  let time = '';
  for (let t = idClock.lastTime, i = 0; i < TIME_CHARS; i++, t = Math.floor(t / 32)) {
    time = ALPHABET.charAt(t % 32) + time;
  }
  let rest = '';
  for (const digit of random) rest += ALPHABET.charAt(digit);
  return time + rest;
}
