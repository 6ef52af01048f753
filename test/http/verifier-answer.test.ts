import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, type ApiKeyVerifier } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { expectScimError, ScimClient, USER_SCHEMA } from './contract-client.js';
import { MOUNT, type RunningServer, targets } from './harness.js';

// What a host's verifier might hand back by mistake, by bearer token. Each must fail closed:
// a plain string once let every tenant share one directory.
const answers: Readonly<Record<string, unknown>> = {
  'a-string': 'district-42',
  'a-number': 42,
  false: false,
  'no-id': { profile: 'entra' },
  'empty-id': { id: '' },
  'numeric-id': { id: 42 },
  'long-id': { id: 'd'.repeat(513) },
  'nul-id': { id: 'district\u000042' },
  'bad-profile': { id: 'district-42', profile: 7 },
  'bad-scopes': { id: 'district-42', scopes: 'scim:read' },
  'unknown-scope': { id: 'district-42', scopes: ['scim:admin'] },
  'an-array': ['district-42'],
};

const reported: unknown[] = [];
const store = new MemoryUserStore();
const verifier: ApiKeyVerifier = {
  verify: (token) =>
    token === 'good'
      ? { id: 'district-42' }
      : ((Object.hasOwn(answers, token) ? answers[token] : null) as never),
};
const asyncVerifier: ApiKeyVerifier = { verify: async (token) => verifier.verify(token) };
const services = [
  { kind: 'synchronous', verifier },
  { kind: 'asynchronous', verifier: asyncVerifier },
].map(({ kind, verifier: v }) => ({
  kind,
  scim: createScim({
    store,
    verifier: v,
    mailer: { sendWelcome: () => Promise.resolve() },
    basePath: MOUNT,
    onError: (error) => reported.push(error),
  }),
}));
afterAll(() => Promise.all(services.map(({ scim }) => scim.close())));

describe.each(targets)('a malformed verifier answer fails closed on $name', (target) => {
  describe.each(services)('with a $kind verifier', ({ scim }) => {
    let server: RunningServer;
    const slug = target.name.replace(/[^a-z0-9]/g, '');
    beforeAll(async () => {
      server = await target.start(scim);
    });
    afterAll(() => server.close());

    it.each(Object.keys(answers))('answers 500 to "%s" and writes nothing', async (token) => {
      const client = new ScimClient(() => server.url, token);
      const good = new ScimClient(() => server.url, 'good');
      const userName = `${token}.${slug}@example.org`;
      const before = reported.length;
      const reply = await client.send('POST', '/Users', {
        body: { schemas: [USER_SCHEMA], userName },
      });
      expectScimError(reply, 500);
      expect(reply.json?.detail).toBe('An internal error occurred.');
      expect(reply.text).not.toContain('verify');
      expect(reported.length).toBe(before + 1);
      const cause = (reported.at(-1) as { cause?: unknown }).cause;
      expect(String(cause)).toMatch(/^TypeError: ApiKeyVerifier\.verify: /);
      expectScimError(await client.send('GET', '/Users'), 500);
      expect(await good.countByUserName(userName)).toBe(0);
    });
  });
});
