import { afterAll, describe, expect, it } from 'vitest';
import { createScim, type ApiKeyVerifier, type ScimRequestHead } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

// The dispatcher takes the head's stages without a promise when the verifier answers at once
// and no rateLimit hook is set. These services differ only in that: every answer must be the
// same, refusals included.
const tenants: Readonly<Record<string, unknown>> = {
  good: { id: 'district-42' },
  reader: { id: 'district-42', scopes: ['scim:read'] },
  malformed: 'district-42',
};
const answer = (token: string) => {
  if (token === 'throws') throw new Error('the key store is down');
  return (Object.hasOwn(tenants, token) ? tenants[token] : null) as never;
};
const verifiers: Record<string, ApiKeyVerifier> = {
  synchronous: { verify: answer },
  asynchronous: { verify: async (token) => answer(token) },
};

function service(kind: 'synchronous' | 'asynchronous', limited: boolean) {
  return createScim({
    store: new MemoryUserStore(),
    verifier: verifiers[kind]!,
    ...(limited ? { auth: { rateLimit: async () => true } } : {}),
  });
}
const services = {
  'synchronous verifier': service('synchronous', false),
  'asynchronous verifier': service('asynchronous', false),
  'synchronous verifier and a rateLimit hook': service('synchronous', true),
};
afterAll(() => Promise.all(Object.values(services).map((s) => s.close())));

const head = (
  method: string,
  path: string,
  token?: string,
  headers: Record<string, string> = {},
): ScimRequestHead => ({
  method,
  path,
  headers: token === undefined ? headers : { ...headers, authorization: `Bearer ${token}` },
});
const requests: [string, ScimRequestHead, string?][] = [
  ['no authorization header', head('GET', '/Users')],
  ['a malformed header', head('GET', '/Users', undefined, { authorization: 'Basic abc' })],
  ['an unknown key', head('GET', '/Users', 'nobody')],
  ['a verifier that throws', head('GET', '/Users', 'throws')],
  ['a malformed tenant', head('GET', '/Users', 'malformed')],
  ['a list', head('GET', '/Users', 'good')],
  ['a missing user', head('GET', '/Users/nobody', 'good')],
  ['no such endpoint', head('GET', '/Nothing', 'good')],
  ['a method not allowed', head('PUT', '/Users', 'good')],
  ['a write without the scope', head('DELETE', '/Users/x', 'reader')],
  [
    'a body too large',
    head('POST', '/Users', 'good', {
      'content-type': 'application/scim+json',
      'content-length': '999999999',
    }),
  ],
  [
    'a media type not read',
    head('POST', '/Users', 'good', { 'content-type': 'text/plain', 'content-length': '2' }),
    '{}',
  ],
  ['the service provider config', head('GET', '/ServiceProviderConfig', 'good')],
];

describe('the dispatcher answers the same whether the head stages await or not', () => {
  it.each(requests)('%s', async (_label, request, body) => {
    const begun = [];
    const handled = [];
    for (const scim of Object.values(services)) {
      const admission = await scim.begin(request);
      begun.push(typeof admission === 'function' ? await admission(body) : admission);
      handled.push(await scim.handle({ ...request, ...(body === undefined ? {} : { body }) }));
    }
    expect(begun[0]?.status).toBeGreaterThanOrEqual(200);
    for (const answers of [begun, handled]) {
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
    }
  });
});
