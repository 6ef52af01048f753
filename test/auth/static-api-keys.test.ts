import { describe, expect, it } from 'vitest';
import {
  sha256Hex,
  staticApiKeys,
  webCryptoVerifier,
  type StaticApiKey,
} from '../../src/auth/static-api-keys.js';
import type { ApiKeyVerifier } from '../../src/contracts/api-key-verifier.js';
import { ScimConfigError } from '../../src/errors/index.js';

// FIPS 180-2, appendix B.1: SHA-256("abc").
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

const KEYS: readonly StaticApiKey[] = [
  { key: 'plain-key-1', tenant: 'one' },
  { sha256: ABC.toUpperCase(), tenant: 'two', profile: 'entra' },
];

describe('sha256Hex', () => {
  it('gives the standard digest in lower-case hex', async () => {
    expect(await sha256Hex('abc')).toBe(ABC);
    expect(await sha256Hex('')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });
});

// The verifier of Node (node:crypto, synchronous) and the one of runtimes without it
// (WebCrypto, asynchronous) must accept and refuse exactly the same keys.
describe.each([
  ['node:crypto', staticApiKeys],
  ['WebCrypto', webCryptoVerifier],
] as const)(
  'staticApiKeys on %s',
  (_name, build: (keys: readonly StaticApiKey[]) => ApiKeyVerifier) => {
    const verifier = build(KEYS);

    it('finds the tenant of a plain key and of a key configured by its digest (any case)', async () => {
      expect(await verifier.verify('plain-key-1')).toEqual({ id: 'one' });
      expect(await verifier.verify('abc')).toEqual({ id: 'two', profile: 'entra' });
    });

    it('refuses a key that differs in one character, in length, or in case', async () => {
      for (const wrong of [
        'plain-key-2',
        'plain-key-1 ',
        'plain-key',
        'PLAIN-KEY-1',
        'abd',
        ABC,
        '',
      ]) {
        expect(await verifier.verify(wrong)).toBeNull();
      }
    });
  },
);

describe('staticApiKeys at start', () => {
  it('refuses a key that no client could send in a Bearer header, naming the tenant, not the key', () => {
    for (const key of ['two words', 'tab\there', 'new\nline', ' lead', 'nbsp\u00a0x', 'clé']) {
      const build = () => staticApiKeys([{ key, tenant: 'district-9' }]);
      expect(build).toThrow(ScimConfigError);
      expect(build).toThrow(/district-9.*whitespace or a character outside printable ASCII/);
      try {
        build();
      } catch (error) {
        expect((error as Error).message).not.toContain(key);
      }
    }
    expect(() => staticApiKeys([{ key: '', tenant: 'x' }])).toThrow(/empty/);
  });

  it('accepts every printable ASCII character, and such a key authenticates', async () => {
    const key = '!"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~';
    const verifier = staticApiKeys([{ key, tenant: 't' }]);
    expect(await verifier.verify(key)).toEqual({ id: 't' });
  });
});
