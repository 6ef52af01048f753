// scimkit-node-pg-no-log: node-pg.mjs with the store's event log hidden, without the welcome email.
globalThis.scimkitEvents = 'off';
await import('./node-pg.mjs');
