import type { Migration } from './migration.js';

/**
 * The name of the welcome subscriber whose state the outbox's rows become. Written here, not
 * imported: a released migration keeps doing what it did whatever the core names later.
 */
const WELCOME = 'scimkit.welcome';

// RFC 3339 in UTC with milliseconds, as the core writes `occurredAt`.
const RFC3339 = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Migration 11: the welcome email is sent by a durable subscriber of the event log, so the
 * outbox's unsettled rows move into that subscriber's state and the outbox goes. A row not
 * sent yet (due, waiting for a retry, or under a lease) becomes a queued dead letter whose
 * event is a `user.invited` with the row's id (the Mailer's idempotency key stays the same),
 * tenant and creation time, and a user holding just the address and names the email had; its
 * tenant's partition is due at once. A row that failed for good becomes a dead letter with its
 * error. Sent rows are dropped with the table.
 */
export const outboxMigration: Migration = {
  version: 11,
  name: 'welcome email outbox moved to the welcome subscriber',
  statements: (t) => [
    `INSERT INTO ${t.deadLetters} AS d
       (subscriber, event_id, tenant, event, attempts, error, dead_at, state)
     SELECT '${WELCOME}', o.id, o.tenant,
       jsonb_build_object(
         'id', o.id,
         'type', 'user.invited',
         'tenant', o.tenant,
         'occurredAt', to_char(o.created_at AT TIME ZONE 'UTC', ${RFC3339}),
         'cursor', '',
         'data', jsonb_build_object(
           'id', o.user_id,
           'resourceType', 'User',
           'resource', jsonb_build_object(
             'id', o.user_id,
             'emails', jsonb_build_array(
               jsonb_build_object('value', o.payload->>'to', 'primary', true)),
             'name', jsonb_strip_nulls(jsonb_build_object(
               'givenName', o.payload->'givenName',
               'familyName', o.payload->'familyName'))))),
       o.attempts,
       COALESCE(o.last_error, 'queued from the welcome-email outbox'),
       COALESCE(o.failed_at, now()),
       CASE WHEN o.failed_at IS NULL THEN 'queued' ELSE 'dead' END
     FROM ${t.outbox} AS o
     WHERE o.sent_at IS NULL
     ON CONFLICT (subscriber, event_id) DO NOTHING`,
    `INSERT INTO ${t.subscriptionPartitions} AS p (subscriber, tenant, due_at, wakes)
     SELECT DISTINCT '${WELCOME}', tenant, now(), 1 FROM ${t.outbox}
     WHERE sent_at IS NULL AND failed_at IS NULL
     ON CONFLICT (subscriber, tenant) DO UPDATE
       SET due_at = LEAST(p.due_at, excluded.due_at), wakes = p.wakes + 1`,
    `DROP TABLE ${t.outbox}`,
  ],
};
