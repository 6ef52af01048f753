// Crockford's base32 in lower case: URL-safe, and its characters sort in ASCII order, so ids
// compare as plain strings in creation order.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

/**
 * The id clock: module state with a reason. Ids must increase within the process whichever
 * service makes them (users, groups, host resources, events of every `createScim`), so
 * the last time and random part are kept once per process, with the characters of the last id.
 */
const idClock = {
  lastTime: -1,
  /** The random part of the last id, one base32 digit (0–31) per character. */
  lastRandom: new Uint8Array(RANDOM_CHARS),
  /** The last id's characters, as ASCII bytes. */
  chars: new Uint8Array(TIME_CHARS + RANDOM_CHARS),
};

const decoder = new TextDecoder();

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
  const { lastRandom: random, chars } = idClock;
  if (now <= idClock.lastTime) {
    increment(random);
  } else {
    idClock.lastTime = now;
    for (let t = now, i = TIME_CHARS - 1; i >= 0; i--, t = Math.floor(t / 32)) {
      chars[i] = ALPHABET.charCodeAt(t % 32);
    }
    crypto.getRandomValues(random);
    for (let i = 0; i < RANDOM_CHARS; i++) random[i] = (random[i] as number) & 31;
  }
  for (let i = 0; i < RANDOM_CHARS; i++) {
    chars[TIME_CHARS + i] = ALPHABET.charCodeAt(random[i] as number);
  }
  // One string of one piece: built a character at a time, V8 would keep it as a tree of its
  // pieces (eight objects, three times the bytes), and ids outlive the request (a stored
  // resource's, a logged event's).
  return decoder.decode(chars);
}
