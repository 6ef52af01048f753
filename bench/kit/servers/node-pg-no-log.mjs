// scimkit-node-pg-no-log: node-pg-log.mjs with the store's event log hidden (see there).
globalThis.scimkitEvents = 'off';
await import('./node-pg-log.mjs');
