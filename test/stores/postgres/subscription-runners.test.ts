import { afterAll, beforeAll, describe, it } from 'vitest';
import { PostgresUserStore } from '../../../src/stores/postgres/index.js';
import {
  anInstanceKilledMidDelivery,
  twoInstancesShareTheWork,
} from '../../core/subscriptions/shared-work.js';
import { backends, type Backend } from './harness.js';

// On the server the two instances use two pools, as two processes would; PGlite has one
// connection, so there the instances share it (the leases are still what keeps them apart).
describe.each(backends)('durable subscribers on $name', ({ open }) => {
  let backend: Backend;
  let a: PostgresUserStore;
  let b: PostgresUserStore;

  beforeAll(async () => {
    backend = await open();
    const { executor, other, schema } = backend;
    a = new PostgresUserStore({ executor, schema, migrate: true });
    b = new PostgresUserStore({ executor: other, schema, migrate: true });
    await a.migrate();
  });
  afterAll(() => backend?.close());

  it('two instances share the tenants, never deliver one tenant twice at once, and deliver each event', async () => {
    await twoInstancesShareTheWork(a.subscriptions, b.subscriptions);
  });

  it('an instance killed mid-delivery leaves its tenants to the other once its leases end', async () => {
    await anInstanceKilledMidDelivery(a.subscriptions, b.subscriptions);
  });
});
