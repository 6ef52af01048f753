// The console's sign-in and sessions against a hostile web: key guessing, cross-site posts
// and session flooding, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import {
  consoleRequest,
  cookieOf,
  postForm,
  postSignIn,
  signIn,
  signInForm,
  type ConsoleSession,
} from './console-client.js';
import { testConfig } from './test-config.js';

const KEYS = [
  { key: 'k1', tenant: 't1' },
  { key: 'k2', tenant: 't2' },
  { key: 'k3', tenant: 't3' },
];

const start = (extra: Parameters<typeof testConfig>[0] = {}) =>
  startServer(testConfig({ keys: KEYS, ...extra }), { print: () => undefined });

/** Whether a session still opens the console of its tenant (else the sign-in page shows). */
async function signedIn(consoleUrl: string, session: ConsoleSession, tenant: string) {
  const page = await consoleRequest(consoleUrl, { headers: { cookie: session.cookie } });
  return page.text.includes(`<b id="tenant">${tenant}</b>`);
}

describe('console sign-in is rate limited', () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await start({
      consoleSignInLimits: { perClient: 3, perTenant: 5, windowMs: 60_000 },
    });
  });
  afterAll(() => running.close());

  it('answers 429 with Retry-After to a client past its failures, the right key included', async () => {
    const from = '127.0.0.2';
    for (let i = 0; i < 3; i++)
      expect((await postSignIn(running.consoleUrl, 't1', `guess-${i}`, from)).status).toBe(401);
    const limited = await postSignIn(running.consoleUrl, 't1', 'guess-3', from);
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(limited.text).toContain('Too many failed sign-ins');
    // While limited, a right guess is no signal either.
    const right = await postSignIn(running.consoleUrl, 't2', 'k2', from);
    expect(right.status).toBe(429);
    expect(cookieOf(right, 'scimkit_console')).toBeUndefined();
    // Another client is not held by this one's failures.
    expect((await postSignIn(running.consoleUrl, 't2', 'k2', '127.0.0.3')).status).toBe(303);
  });

  it('answers 429 for a tenant guessed at from many clients, and not for other tenants', async () => {
    // Five clients, one failure each against t3: none is past its own limit.
    for (let i = 0; i < 5; i++)
      expect(
        (await postSignIn(running.consoleUrl, 't3', `guess-${i}`, `127.0.1.${i + 1}`)).status,
      ).toBe(401);
    const fresh = await postSignIn(running.consoleUrl, 't3', 'k3', '127.0.1.100');
    expect(fresh.status).toBe(429);
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(0);
    expect((await postSignIn(running.consoleUrl, 't1', 'k1', '127.0.1.101')).status).toBe(303);
  });

  it('counts a right key named under another tenant as a failure', async () => {
    const from = '127.0.2.1';
    expect((await postSignIn(running.consoleUrl, 't2', 'k1', from)).status).toBe(401);
    expect((await postSignIn(running.consoleUrl, 't2', 'k1', from)).status).toBe(401);
    expect((await postSignIn(running.consoleUrl, 't2', 'k1', from)).status).toBe(401);
    expect((await postSignIn(running.consoleUrl, 't1', 'k1', from)).status).toBe(429);
  });
});

describe('console forms refuse cross-site posts', () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await start();
  });
  afterAll(() => running.close());

  const signInPost = async (headers: Record<string, string>, withToken = true) => {
    const form = await signInForm(running.consoleUrl);
    return consoleRequest(`${running.consoleUrl}/sign-in`, {
      headers: { cookie: form.cookie, ...headers },
      form: { ...(withToken ? { csrf: form.csrf } : {}), tenant: 't1', key: 'k1' },
    });
  };

  it('signs no visitor in from another site (login CSRF)', async () => {
    for (const reply of [
      await signInPost({ origin: 'https://attacker.example' }),
      await signInPost({ 'sec-fetch-site': 'cross-site' }),
      await signInPost({ 'sec-fetch-site': 'same-site' }),
      await signInPost({ origin: 'null' }),
      // A page of another site cannot read the sign-in token, and no header gives it away.
      await signInPost({}, false),
    ]) {
      expect(reply.status).toBe(403);
      expect(cookieOf(reply, 'scimkit_console')).toBeUndefined();
    }
    const own = new URL(running.consoleUrl).origin;
    expect((await signInPost({ origin: own, 'sec-fetch-site': 'same-origin' })).status).toBe(303);
  });

  it('sets both cookies SameSite=Strict and HttpOnly', async () => {
    const page = await consoleRequest(running.consoleUrl);
    const signInCookie = [page.headers['set-cookie']].flat().join('\n');
    expect(signInCookie).toMatch(/^scimkit_console_sign_in=[\w-]{43}; .*HttpOnly; SameSite=Strict/);
    const reply = await postSignIn(running.consoleUrl, 't1', 'k1');
    expect([reply.headers['set-cookie']].flat().join('\n')).toMatch(
      /^scimkit_console=[\w-]{43}; .*HttpOnly; SameSite=Strict/,
    );
  });

  it('keeps a session signed in when another site posts its sign-out', async () => {
    const session = await signIn(running.consoleUrl, 't1', 'k1');
    const url = `${running.consoleUrl}/sign-out`;
    const forged = [
      await postForm(url, session, {}, { origin: 'https://attacker.example' }),
      await postForm(url, session, {}, { 'sec-fetch-site': 'cross-site' }),
      await postForm(url, { ...session, csrf: 'not-the-token' }, {}),
    ];
    for (const reply of forged) expect(reply.status).toBe(403);
    expect(await signedIn(running.consoleUrl, session, 't1')).toBe(true);
    expect((await postForm(url, session, {})).status).toBe(303);
    expect(await signedIn(running.consoleUrl, session, 't1')).toBe(false);
  });
});

describe('console sessions are bounded per tenant', () => {
  it("lets one tenant's 1,000 sign-ins end only its own oldest sessions", async () => {
    const running = await start();
    try {
      const other = await signIn(running.consoleUrl, 't2', 'k2');
      const first = await signIn(running.consoleUrl, 't1', 'k1');
      let last = first;
      for (let i = 0; i < 1000; i++) last = await signIn(running.consoleUrl, 't1', 'k1');
      expect(await signedIn(running.consoleUrl, other, 't2')).toBe(true);
      expect(await signedIn(running.consoleUrl, last, 't1')).toBe(true);
      expect(await signedIn(running.consoleUrl, first, 't1')).toBe(false);
    } finally {
      await running.close();
    }
  }, 120_000);

  it('past the total, the tenant holding the most sessions gives up its oldest', async () => {
    const running = await start({ consoleSessionLimits: { perTenant: 3, total: 5 } });
    try {
      const t2 = await signIn(running.consoleUrl, 't2', 'k2');
      const t1 = [];
      for (let i = 0; i < 3; i++) t1.push(await signIn(running.consoleUrl, 't1', 'k1'));
      const t3 = [];
      for (let i = 0; i < 2; i++) t3.push(await signIn(running.consoleUrl, 't3', 'k3'));
      // Six sessions for five places: t1 holds the most and loses its oldest.
      expect(await signedIn(running.consoleUrl, t2, 't2')).toBe(true);
      expect(await signedIn(running.consoleUrl, t1[0]!, 't1')).toBe(false);
      for (const s of t1.slice(1)) expect(await signedIn(running.consoleUrl, s, 't1')).toBe(true);
      for (const s of t3) expect(await signedIn(running.consoleUrl, s, 't3')).toBe(true);
    } finally {
      await running.close();
    }
  });
});
