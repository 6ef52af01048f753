import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutboxMessage } from '../../src/contracts/outbox.js';
import { frozenCopy, frozenNextVersion } from '../../src/stores/memory/clone-json.js';
import { exactObject } from '../../src/json/exact-objects.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { createUserFactory } from '../../src/testing/index.js';

// The memory store keeps what it stores in a compact layout, a device behind the memory store's
// seam; these tests hold that layout to the plain behaviour.

describe('exactObject, the seam that lays stored objects out at their exact size', () => {
  it('makes an object that is a plain `{}` to every reader', () => {
    for (const members of [0, 1, 2, 7, 16, 17, 40]) {
      const made = exactObject(members);
      expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
      expect(Object.keys(made)).toEqual([]);
      expect(made.constructor).toBe(Object);
      expect(Object.prototype.toString.call(made)).toBe('[object Object]');
      expect(JSON.stringify(made)).toBe('{}');
      made.a = 1;
      expect(made).toStrictEqual({ a: 1 });
    }
  });

  it('gives frozen copies equal to the JSON they copy, members in order', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 20 }),
      ),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json, { maxKeys: 20 }), (source) => {
        // The generated objects have no prototype; JSON gives the same members on a plain one.
        const plain = JSON.parse(JSON.stringify(source)) as object;
        const copy = frozenCopy(source);
        expect(copy).toStrictEqual(plain);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(source));
        expect(Object.isFrozen(copy)).toBe(true);
        const next = frozenNextVersion({ ...plain, added: 1 }, copy);
        expect(next).toStrictEqual({ ...plain, added: 1 });
      }),
    );
  });

  it('keeps a "__proto__" member as a member, not as the prototype', () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object;
    const copy = frozenCopy(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });
});

describe('MemoryOutbox entries (the message kept in the entry itself)', () => {
  async function recorded(message: OutboxMessage) {
    const store = new MemoryUserStore();
    const users = createUserFactory(message.tenant);
    await store.create(message.tenant, users.make(), { outbox: [message] });
    const now = new Date('2030-01-01T00:00:00Z');
    const [claimed] = await store.outbox.claim(now, new Date('2030-01-01T00:01:00Z'), 10);
    await store.outbox.complete(claimed!.id, claimed!.claimToken, now);
    return { claimed, entry: store.outboxSnapshot()[0]! };
  }

  const base = {
    id: 'welcome-1',
    kind: 'welcome',
    tenant: 't',
    userId: 'u-1',
    to: 'ada@example.org',
    createdAt: '2030-01-01T00:00:00.000Z',
  } as const;

  it('gives a message back with exactly the members it was recorded with', async () => {
    for (const message of [
      base,
      { ...base, givenName: 'Ada' },
      { ...base, familyName: 'Lovelace' },
      { ...base, givenName: 'Ada', familyName: 'Lovelace' },
    ]) {
      const { claimed, entry } = await recorded(message);
      const { attempts, claimToken: _token, ...asClaimed } = claimed!;
      expect(asClaimed).toStrictEqual(message);
      expect(attempts).toBe(0);
      expect(entry.message).toStrictEqual(message);
      expect(entry).toMatchObject({ state: 'sent', sentAt: '2030-01-01T00:00:00.000Z' });
    }
  });

  it('keeps members beyond the usual ones, and ones whose value is not a string', async () => {
    const message = {
      ...base,
      givenName: undefined,
      locale: 'fr',
      extra: { nested: [1, 2] },
    } as unknown as OutboxMessage;
    const { claimed, entry } = await recorded(message);
    const { attempts: _a, claimToken: _t, ...asClaimed } = claimed!;
    expect(asClaimed).toStrictEqual(message);
    expect(entry.message).toStrictEqual(message);
  });

  it('shows when a message that failed is due again, and nothing of it once it failed for good', async () => {
    const store = new MemoryUserStore();
    const users = createUserFactory('t');
    const user = users.make();
    await store.create('t', user, { outbox: [users.message(user)] });
    const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s));
    let [claimed] = await store.outbox.claim(at(0), at(30), 10);
    await store.outbox.fail(claimed!.id, claimed!.claimToken, 'SMTP 451', at(10));
    expect(store.outboxSnapshot()[0]).toMatchObject({
      state: 'pending',
      dueAt: at(10).toISOString(),
    });
    expect(await store.outbox.claim(at(5), at(35), 10)).toEqual([]);
    [claimed] = await store.outbox.claim(at(10), at(40), 10);
    expect(store.outboxSnapshot()[0]).toMatchObject({ leaseUntil: at(40).toISOString() });
    await store.outbox.fail(claimed!.id, claimed!.claimToken, 'no such mailbox', undefined);
    const [entry] = store.outboxSnapshot();
    expect(entry).toStrictEqual({
      message: entry!.message,
      state: 'failed',
      attempts: 2,
      lastError: 'no such mailbox',
    });
  });
});
