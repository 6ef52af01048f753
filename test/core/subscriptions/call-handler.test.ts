import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../../src/contracts/event-log.js';
import { callHandler } from '../../../src/core/subscriptions/call-handler.js';
import type { DeliveryContext } from '../../../src/core/subscriptions/types.js';

const event: LoggedEvent = {
  id: 'ev-1',
  type: 'user.created',
  tenant: 't',
  occurredAt: '2030-01-01T00:00:00.000Z',
  data: { id: 'u1', resourceType: 'User' },
  cursor: '1',
};

describe('callHandler', () => {
  it('aborts the signal of a call past its timeout, whether the handler read it before or after', async () => {
    const kept: DeliveryContext[] = [];
    let readEarly: AbortSignal | undefined;
    const early = callHandler(
      (_e, delivery) => {
        readEarly = delivery.signal;
        return new Promise(() => {});
      },
      event,
      1,
      20,
    );
    const late = callHandler(
      (_e, delivery) => {
        kept.push(delivery);
        return new Promise(() => {});
      },
      event,
      2,
      20,
    );
    await expect(early).rejects.toMatchObject({ name: 'HandlerTimeout' });
    await expect(late).rejects.toMatchObject({ name: 'HandlerTimeout' });
    expect(readEarly?.aborted).toBe(true);
    const readLate = kept[0]!.signal;
    expect(readLate.aborted).toBe(true);
    expect(readLate.reason).toMatchObject({ name: 'HandlerTimeout' });
    expect(kept[0]!.attempt).toBe(2);
    // One signal per call, the same at every read.
    expect(kept[0]!.signal).toBe(readLate);
  });

  it('leaves the signal of a call that settled in time unaborted, and passes on what it threw', async () => {
    let signal: AbortSignal | undefined;
    await callHandler(
      async (_e, delivery) => {
        signal = delivery.signal;
      },
      event,
      1,
      1000,
    );
    expect(signal?.aborted).toBe(false);
    await expect(
      callHandler(
        () => {
          throw new Error('boom');
        },
        event,
        1,
        1000,
      ),
    ).rejects.toThrow('boom');
  });
});
