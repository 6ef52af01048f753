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
 * Fills `random` with 16 random base32 digits (80 bits) from the random digits of a version-4
 * UUID: the 8 + 4 + 8 hex digits that are neither its version nor its variant. The UUID
 * rather than `getRandomValues`: both are cryptographically random, but Node serves
 * `randomUUID` from a buffer of random bytes it fills in bulk, and asks the system for bytes
 * on every `getRandomValues` (about ten times the cost, once per millisecond of creates).
 */
function drawRandom(random: Uint8Array): void {
  const uuid = crypto.randomUUID(); // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx
  const hex = uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(24, 32);
  // Five hex digits are 20 bits, four base32 digits.
  for (let group = 0; group < 4; group++) {
    let bits = Number.parseInt(hex.slice(group * 5, group * 5 + 5), 16);
    for (let i = 3; i >= 0; i--, bits >>>= 5) random[group * 4 + i] = bits & 31;
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
    drawRandom(random);
  }
  for (let i = 0; i < RANDOM_CHARS; i++) {
    chars[TIME_CHARS + i] = ALPHABET.charCodeAt(random[i] as number);
  }
  // One string of one piece: built a character at a time, V8 would keep it as a tree of its
  // pieces (eight objects, three times the bytes), and ids outlive the request (a stored
  // resource's, a logged event's).
  return decoder.decode(chars);
}
