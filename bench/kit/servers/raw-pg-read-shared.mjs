// raw-pg-read-shared: raw-pg-read.mjs whose concurrent statements of a kind are shared, one
// statement of a kind at a time, as scimkit's PostgreSQL store shares them.
globalThis.rawPgChecks = 'shared';
await import('./raw-pg-read.mjs');
