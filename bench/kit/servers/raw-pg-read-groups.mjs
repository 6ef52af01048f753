// raw-pg-read-groups: raw-pg-read.mjs whose every read of a user also reads the user's groups,
// as the User's `groups` attribute needs.
globalThis.rawPgChecks = 'groups';
await import('./raw-pg-read.mjs');
