// raw-pg-read-shared-all-status: raw-pg-read-shared-all.mjs whose PATCH or PUT that changes
// `active` also records the account's event, as scimkit records two events for such a write.
globalThis.rawPgChecks = 'events,count,invite,groups,status,shared';
await import('./raw-pg-read.mjs');
