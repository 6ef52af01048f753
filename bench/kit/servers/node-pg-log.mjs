// scimkit-node-pg-log: node-pg.mjs keeping the store's event log, without the welcome email.
globalThis.scimkitEvents = 'log';
await import('./node-pg.mjs');
