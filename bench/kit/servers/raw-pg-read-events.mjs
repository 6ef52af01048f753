// raw-pg-read-events: raw-pg-read.mjs whose every write also records an event in its statement.
globalThis.rawPgChecks = 'read,events';
await import('./raw-pg-checked.mjs');
