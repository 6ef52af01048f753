// raw-pg-read-shared-all: raw-pg-read-shared.mjs with every other check too: an event a write,
// the count, the welcome email recorded and delivered, and the groups of each read.
globalThis.rawPgChecks = 'events,count,invite,groups,shared';
await import('./raw-pg-read.mjs');
