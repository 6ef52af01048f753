// raw-pg-read-events-count-invite: raw-pg-read-events-count.mjs whose creates of active users
// also record `user.invited`, delivered as welcome emails from the log by a loop in the process.
globalThis.rawPgChecks = 'events,count,invite';
await import('./raw-pg-read.mjs');
