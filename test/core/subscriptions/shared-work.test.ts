import { describe, it } from 'vitest';
import { MemoryUserStore } from '../../../src/stores/memory/index.js';
import { anInstanceKilledMidDelivery, twoInstancesShareTheWork } from './shared-work.js';

describe('two instances on one memory store', () => {
  it('share the tenants, never deliver one tenant twice at once, and deliver each event', async () => {
    const store = new MemoryUserStore().subscriptions;
    await twoInstancesShareTheWork(store, store);
  });

  it('take over the tenants of an instance killed mid-delivery once its leases end', async () => {
    const store = new MemoryUserStore().subscriptions;
    await anInstanceKilledMidDelivery(store, store);
  });
});
