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

  it('refuses clearly when the store keeps no event log', () => {
    const store = new MemoryUserStore({ events: false });
    const scim = createScim({
      store,
      verifier: staticApiKeys([{ key: 'k'.repeat(32), tenant: 't' }]),
    });
    expect(() => scim.events.subscribe('audit', async () => undefined)).toThrow(/no event log/);
  });
});
