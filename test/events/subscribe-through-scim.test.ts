// `scim.events.subscribe` as a host calls it: the service's own store log and subscription
// state, the events of its writes delivered, nothing once `scim.close()` has stopped it.
import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { createScim } from '../../src/index.js';
import { staticApiKeys } from '../../src/index.js';
import { setup } from '../core/harness.js';

describe('scim.events.subscribe', () => {
  it('delivers the events of the service writes to a durable subscriber', async () => {
    const { scim, createUser } = setup();
    const seen: LoggedEvent[] = [];
    const subscription = scim.events.subscribe('audit', async (event) => {
      seen.push(event);
    });
    const id = (await createUser('ada@example.com')).id as string;
    await subscription.drain();
    expect(seen.map((e) => [e.type, e.tenant, e.data.id])).toContainEqual([
      'user.created',
      'tenant-a',
      id,
    ]);
    await scim.close();
    expect(() => scim.events.subscribe('late', async () => undefined)).toThrow(/closed/);
  });

  it('is woken by a write of its own process, without waiting for its poll', async () => {
    const { scim, createUser } = setup();
    const seen: string[] = [];
    scim.events.subscribe('wake', async (event) => void seen.push(event.type), {
      pollIntervalMs: 3_600_000,
    });
    await createUser('grace@example.com');
    for (let i = 0; i < 200 && !seen.includes('user.created'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toContain('user.created');
    await scim.close();
  });

  it('refuses clearly when the store keeps no event log', () => {
    const store = new MemoryUserStore({ events: false });
    const scim = createScim({
      store,
      verifier: staticApiKeys([{ key: 'k'.repeat(32), tenant: 't' }]),
    });
    expect(() => scim.events.subscribe('audit', async () => undefined)).toThrow(/no event log/);
  });
});
