// raw-pg-read-events: raw-pg-read.mjs whose every write also records an event in its statement.
globalThis.rawPgChecks = 'events';
await import('./raw-pg-read.mjs');
