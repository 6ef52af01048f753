// raw-pg-read-events-count: raw-pg-read-events.mjs whose creates also count the user, and whose
// pages read the count instead of `count(*)`.
globalThis.rawPgChecks = 'events,count';
await import('./raw-pg-read.mjs');
