import { describe, expect, it } from 'vitest';
import { Sessions } from './sessions.js';
import { clientOf, MAX_TRACKED, SignInLimiter } from './sign-in-limiter.js';

describe('console sign-in limiter', () => {
  it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe(clientOf('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(clientOf('2001:db8:1:2::1')).not.toBe(clientOf('2001:db8:1:3::1'));
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('::ffff:10.0.0.7')).toBe('10.0.0.7');
    expect(clientOf('10.0.0.7')).not.toBe(clientOf('10.0.0.8'));
  });

  it('asks to wait until the window ends, then lets the client try again', () => {
    let now = 0;
    const limiter = new SignInLimiter(
      { perClient: 2, perTenant: 100, windowMs: 60_000 },
      () => now,
    );
    limiter.fail('a', 't');
    expect(limiter.retryAfter('a', 't')).toBe(0);
    limiter.fail('a', 't');
    expect(limiter.retryAfter('a', 't')).toBe(60);
    now = 45_000;
    expect(limiter.retryAfter('a', 'other')).toBe(15);
    expect(limiter.retryAfter('b', 't')).toBe(0);
    now = 60_000;
    expect(limiter.retryAfter('a', 't')).toBe(0);
  });

  it('remembers a bounded number of clients, the most recent kept', () => {
    const limiter = new SignInLimiter({ perClient: 1, perTenant: 1e9, windowMs: 60_000 });
    for (let i = 0; i <= MAX_TRACKED; i++) limiter.fail(`client-${i}`, 't');
    expect(limiter.retryAfter(`client-${MAX_TRACKED}`, 'x')).toBeGreaterThan(0);
    expect(limiter.retryAfter('client-0', 'x')).toBe(0);
  });
});

describe('console sessions', () => {
  const open = (sessions: Sessions, tenant: string) =>
    sessions.open({ tenant, scopes: undefined, keyId: undefined });

  it('gives each session its own anti-forgery token and ends expired ones', () => {
    let now = 0;
    const sessions = new Sessions({ perTenant: 5, total: 10 }, () => now);
    const a = open(sessions, 't');
    const b = open(sessions, 't');
    expect(sessions.get(a)?.csrf).not.toBe(sessions.get(b)?.csrf);
    now = 9 * 60 * 60 * 1000;
    expect(sessions.get(a)).toBeUndefined();
    open(sessions, 't');
    expect(sessions.size).toBe(1);
  });
});
