// The ten-line harness: run scimkit's store conformance suite against your store.
// In your project: import { describeStoreConformance } from 'scimkit/testing/vitest';
import { describeStoreConformance } from '../../src/testing/vitest.js';
import { ArrayUserStore } from './array-user-store.js';
import { MapUserStore } from './map-user-store.js';

// The factory gives every case a fresh, empty store. A store with a database can return
// { store, readStored: (tenant, id) => ..., close: () => ... } to expose a back door to the
// rows and release connections. A service with host resource types runs their stores in the
// same suite: describeStoreConformance('my stores', { users: () => new MyUserStore(),
// resourceTypes: { Class: () => new MyClassStore() } }).
describeStoreConformance('ArrayUserStore', () => new ArrayUserStore());

// A store without an event log: the event log and subscriber cases are reported as skipped.
describeStoreConformance('MapUserStore', () => new MapUserStore());
