// raw-pg-read: raw-pg-checked.mjs whose PATCH and PUT read the user before a conditional write.
globalThis.rawPgChecks = 'read';
await import('./raw-pg-checked.mjs');
