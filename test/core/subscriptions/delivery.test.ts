import { describe, expect, it } from 'vitest';
import { recordingHandler, subscriberSetup } from './harness.js';

const ids = (events: readonly { id: string; tenant: string }[], tenant: string) =>
  events.filter((e) => e.tenant === tenant).map((e) => e.id);

describe('a durable subscriber delivers the log', () => {
  it('delivers every event once, in log order per tenant, across pages and tenants', async () => {
    const { log, subscribe, errors } = subscriberSetup();
    log.appendMany(['a', 'b', 'c'], 30);
    const { handler, calls, delivered } = recordingHandler();
    const sub = subscribe('orders', handler, { batchSize: 7, concurrency: 2 });
    await sub.drain();
    for (const t of ['a', 'b', 'c']) expect(delivered(t)).toEqual(ids(log.events, t));
    expect(calls).toHaveLength(90);
    expect(calls.every((c) => c.attempt === 1)).toBe(true);
    expect(errors).toEqual([]);
    await sub.stop();
  });

  it('wakes on kick() and delivers what was written after the last round', async () => {
    const { log, subscribe, subscribers } = subscriberSetup();
    const { handler, delivered } = recordingHandler();
    const sub = subscribe('late', handler);
    await sub.drain();
    log.appendMany(['a'], 3);
    subscribers.kick(() => log.events.map((event) => event.type));
    await expect.poll(() => delivered('a')).toEqual(ids(log.events, 'a'));
    await sub.stop();
  });

  it('finds a write whose event the log showed only after the round it woke', async () => {
    const { log, subscribe, subscribers } = subscriberSetup();
    const { handler, delivered } = recordingHandler();
    const sub = subscribe('held', handler);
    await sub.drain();
    // An older transaction still open holds the write's event back from the woken round.
    log.hold();
    log.append('a');
    subscribers.kick(() => ['user.created']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    log.release();
    // No later write, no poll: the rounds that follow the last write deliver it.
    await expect.poll(() => delivered('a'), { timeout: 3_000 }).toEqual(ids(log.events, 'a'));
    await sub.stop();
  });

  it('delivers only the types asked for', async () => {
    const { log, subscribe } = subscriberSetup();
    log.append('a', 'user.created');
    log.append('a', 'group.created');
    log.append('a', 'user.deleted');
    const { handler, delivered } = recordingHandler();
    const sub = subscribe('users-only', handler, { types: ['user.created', 'user.deleted'] });
    await sub.drain();
    expect(delivered()).toEqual(['ev-1', 'ev-3']);
    await sub.stop();
  });

  it('starts a new subscriber after startAfter, and an existing one at its checkpoint', async () => {
    const { log, subscribe } = subscriberSetup();
    log.appendMany(['a'], 4);
    const first = recordingHandler();
    const sub = subscribe('from-2', first.handler, { startAfter: log.events[1]!.cursor });
    await sub.drain();
    expect(first.delivered()).toEqual(['ev-3', 'ev-4']);
    await sub.stop();
    log.append('a');
    const second = recordingHandler();
    const again = subscribe('from-2', second.handler, { startAfter: log.events[0]!.cursor });
    await again.drain();
    expect(second.delivered()).toEqual(['ev-5']);
    await again.stop();
  });
});

describe('a failing or hanging handler holds back only its tenant', () => {
  it('retries a failed event after its backoff, and meanwhile delivers the other tenants', async () => {
    const { log, subscribe, clock, store } = subscriberSetup();
    log.appendMany(['a', 'b'], 5);
    let failures = 0;
    const { handler, calls, delivered } = recordingHandler((event) => {
      if (event.id === 'ev-1' && failures++ === 0) throw new Error('mailbox service down');
    });
    const sub = subscribe('mailboxes', handler, { backoff: { initialMs: 60_000 } });
    await sub.drain();
    expect(delivered('b')).toEqual(ids(log.events, 'b'));
    expect(delivered('a')).toEqual(['ev-1']);
    // Not due yet: a drain delivers nothing more of tenant a.
    clock.advance(29_000);
    await sub.drain();
    expect(delivered('a')).toEqual(['ev-1']);
    clock.advance(31_000);
    await sub.drain();
    expect(delivered('a')).toEqual(['ev-1', ...ids(log.events, 'a')]);
    expect(calls.find((c) => c.id === 'ev-1' && c.attempt === 2)).toBeDefined();
    const { attempts } = await sub.attempts({ tenant: 'a', eventId: 'ev-1' });
    expect(attempts.map((a) => [a.attempt, a.status, a.error])).toEqual([
      [2, 'ok', undefined],
      [1, 'failed', 'Error: mailbox service down'],
    ]);
    expect(await store.listDeadLetters({ subscriber: 'mailboxes', limit: 10 })).toEqual([]);
    await sub.stop();
  });

  it('after a failure mid-page, delivers the failed event again and none before it', async () => {
    const { log, subscribe, clock } = subscriberSetup();
    log.appendMany(['a'], 5);
    let failures = 0;
    const { handler, delivered } = recordingHandler((event) => {
      if (event.id === 'ev-3' && failures++ === 0) throw new Error('try later');
    });
    const sub = subscribe('mid-page', handler, { backoff: { initialMs: 1_000 } });
    await sub.drain();
    clock.advance(2_000);
    await sub.drain();
    expect(delivered('a')).toEqual(['ev-1', 'ev-2', 'ev-3', 'ev-3', 'ev-4', 'ev-5']);
    const { attempts } = await sub.attempts({ tenant: 'a' });
    expect(attempts.map((a) => [a.eventId, a.status])).toEqual([
      ['ev-5', 'ok'],
      ['ev-4', 'ok'],
      ['ev-3', 'ok'],
      ['ev-3', 'failed'],
      ['ev-2', 'ok'],
      ['ev-1', 'ok'],
    ]);
    await sub.stop();
  });

  it('after a store or log failure waits a retry delay before reading the tenant again', async () => {
    const { log, subscribe, errors } = subscriberSetup();
    log.appendMany(['a'], 2);
    const list = log.list.bind(log);
    let tenantReads = 0;
    log.list = async (query) => {
      if (query.tenant === undefined) return list(query);
      tenantReads++;
      throw new Error('connection lost');
    };
    const { handler, delivered } = recordingHandler();
    const sub = subscribe('flaky-store', handler, { backoff: { initialMs: 60_000 } });
    await sub.drain();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(delivered()).toEqual([]);
    expect(tenantReads).toBeGreaterThanOrEqual(1);
    expect(tenantReads).toBeLessThanOrEqual(2);
    expect(errors.length).toBe(tenantReads);
    await sub.stop();
  });

  it("delivers other tenants while one tenant's handler call is still running", async () => {
    const { log, subscribe } = subscriberSetup();
    log.append('a');
    log.appendMany(['b', 'c'], 3);
    let othersDone: () => void = () => {};
    const others = new Promise<void>((resolve) => (othersDone = resolve));
    const { handler, calls, delivered } = recordingHandler(async (event) => {
      if (delivered('b').length === 3 && delivered('c').length === 3) othersDone();
      // Tenant a's call settles only once b and c are delivered: it succeeds only if they
      // were not waiting behind it.
      if (event.tenant === 'a') await others;
    });
    const sub = subscribe('slow-a', handler, {
      concurrency: 3,
      timeoutMs: 30_000,
      leaseMs: 60_000,
    });
    await sub.drain();
    expect(calls.filter((c) => c.tenant === 'a').map((c) => c.attempt)).toEqual([1]);
    expect(delivered('b')).toEqual(ids(log.events, 'b'));
    await sub.stop();
  });

  it('aborts a hanging call after timeoutMs and retries it; another tenant is delivered meanwhile', async () => {
    const { log, subscribe, clock } = subscriberSetup();
    log.append('a');
    log.appendMany(['b'], 3);
    let bDone: () => void = () => {};
    const bDelivered = new Promise<void>((resolve) => (bDone = resolve));
    const { handler, calls, delivered } = recordingHandler(async (event, { attempt }) => {
      if (event.tenant === 'b' && event.id === 'ev-4') bDone();
      // Tenant a's first call ignores its signal and never settles.
      if (event.tenant === 'a' && attempt === 1) {
        await bDelivered;
        await new Promise(() => {});
      }
    });
    const sub = subscribe('hangs', handler, {
      timeoutMs: 200,
      leaseMs: 400,
      backoff: { initialMs: 1000 },
    });
    await sub.drain();
    expect(delivered('b')).toEqual(ids(log.events, 'b'));
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[0]!.signal.reason).toMatchObject({ name: 'HandlerTimeout' });
    const { attempts } = await sub.attempts({ tenant: 'a' });
    expect(attempts.map((a) => [a.status, a.error?.split(':')[0]])).toEqual([
      ['failed', 'HandlerTimeout'],
    ]);
    clock.advance(1000);
    await sub.drain();
    expect(delivered('a')).toEqual(['ev-1', 'ev-1']);
    await sub.stop();
  });
});

describe('dead letters', () => {
  it('gives an event up after maxAttempts, moves the tenant on, and delivers it again on retry', async () => {
    const { log, subscribe } = subscriberSetup();
    log.appendMany(['a'], 3);
    let failing = true;
    const { handler, delivered } = recordingHandler((event) => {
      if (failing && event.id === 'ev-2') throw new Error(`refused ${event.id}`);
    });
    const sub = subscribe('strict', handler, { maxAttempts: 3, backoff: { initialMs: 0 } });
    await sub.drain();
    expect(delivered()).toEqual(['ev-1', 'ev-2', 'ev-2', 'ev-2', 'ev-3']);
    const [letter, ...others] = await sub.deadLetters();
    expect(others).toEqual([]);
    expect(letter).toMatchObject({
      subscriber: 'strict',
      tenant: 'a',
      event: log.events[1],
      attempts: 3,
      error: 'Error: refused ev-2',
      state: 'dead',
    });
    const { attempts } = await sub.attempts({ tenant: 'a', eventId: 'ev-2' });
    expect(attempts.map((a) => a.status)).toEqual(['dead', 'failed', 'failed']);

    failing = false;
    expect(await sub.retry({ tenant: 'b' })).toBe(0);
    expect(await sub.retry({ eventIds: ['ev-2'] })).toBe(1);
    await sub.drain();
    expect(delivered().slice(5)).toEqual(['ev-2']);
    expect(await sub.deadLetters()).toEqual([]);
    await sub.stop();
  });
});

describe('replay', () => {
  it("delivers one tenant's events again from a cursor, or every tenant's from the start", async () => {
    const { log, subscribe } = subscriberSetup();
    log.appendMany(['a', 'b'], 3);
    const { handler, delivered } = recordingHandler();
    const sub = subscribe('replayed', handler);
    await sub.drain();
    const aEvents = ids(log.events, 'a');
    await sub.replay({ tenant: 'a', after: log.events.find((e) => e.id === aEvents[0])!.cursor });
    await sub.drain();
    expect(delivered('a')).toEqual([...aEvents, ...aEvents.slice(1)]);
    expect(delivered('b')).toEqual(ids(log.events, 'b'));
    await sub.replay({});
    await sub.drain();
    expect(delivered('b')).toEqual([...ids(log.events, 'b'), ...ids(log.events, 'b')]);
    await sub.stop();
  });

  it('refuses a cursor the log did not give, and moves nothing', async () => {
    const { log, subscribe } = subscriberSetup();
    log.appendMany(['a'], 2);
    const { handler, delivered } = recordingHandler();
    const sub = subscribe('careful', handler);
    await sub.drain();
    await expect(sub.replay({ tenant: 'a', after: 'forged' })).rejects.toMatchObject({
      status: 400,
      scimType: 'invalidCursor',
    });
    await sub.drain();
    expect(delivered()).toEqual(['ev-1', 'ev-2']);
    await sub.stop();
  });

  it('stop() waits for the call in flight and hands the tenant back at once', async () => {
    const { log, subscribe } = subscriberSetup();
    log.appendMany(['a'], 3);
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = recordingHandler(() => gate);
    const sub = subscribe('handover', first.handler);
    await expect.poll(() => first.calls.length).toBe(1);
    const stopping = sub.stop();
    open();
    await stopping;
    expect(first.delivered()).toEqual(['ev-1']);
    // The clock stands still: a tenant not handed back would wait for its lease forever.
    const second = recordingHandler();
    const next = subscribe('handover', second.handler);
    await next.drain();
    expect(second.delivered()).toEqual(['ev-2', 'ev-3']);
    await next.stop();
  });
});
