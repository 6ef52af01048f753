import type { TableNames } from './table-names.js';

/** The SQL of {@link PostgresSubscriptionStore}, built once per store from its table names. */
export type SubscriptionStatements = ReturnType<typeof subscriptionStatements>;

/**
 * Builds the subscription store's statements. Every change made under a claim is one
 * statement whose first step is the `UPDATE … AND token = $3` of the claim: the other steps
 * (the attempt, the dead letter) read its `RETURNING` row, so they happen only when the token
 * was current, in the same atomic step.
 *
 * Parameters of the attempt statements: $1 subscriber, $2 tenant, $3 token, $4 event id,
 * $5 event type, $6 attempt number, $7 time of the attempt.
 *
 * @internal
 */
export function subscriptionStatements(t: TableNames) {
  const W = t.subscriptionWalkers;
  const P = t.subscriptionPartitions;
  const A = t.deliveryAttempts;
  const D = t.deadLetters;
  const held = 'WHERE subscriber = $1 AND tenant = $2 AND token = $3';
  const attempt = (status: string, error: string) =>
    `INSERT INTO ${A} (subscriber, tenant, event_id, event_type, attempt, status, error, at)
     SELECT $1, $2, $4, $5, $6, '${status}', ${error}, $7::timestamptz FROM p`;
  return {
    // A new subscriber's row is made already claimed; an existing one is claimed only when
    // its lease is over.
    claimWalker: `INSERT INTO ${W} AS w (subscriber, log_cursor, token, lease_until)
      VALUES ($1, $4::text, gen_random_uuid()::text, $3::timestamptz)
      ON CONFLICT (subscriber) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until
        WHERE w.lease_until IS NULL OR w.lease_until <= $2::timestamptz
      RETURNING log_cursor, token`,
    // $3 cursor, $4 lease end, $5 checkpoint of new partitions, $6 now, $7 tenants (sorted, so
    // that two statements lock partition rows in one order).
    advanceWalker: `WITH w AS (
        UPDATE ${W} SET log_cursor = $3::text, lease_until = $4::timestamptz
        WHERE subscriber = $1 AND token = $2 RETURNING 1
      ), marked AS (
        INSERT INTO ${P} AS p (subscriber, tenant, checkpoint_cursor, due_at, wakes)
        SELECT $1, tenant, $5::text, $6::timestamptz, 1
        FROM unnest($7::text[]) AS tenant WHERE EXISTS (SELECT 1 FROM w)
        ORDER BY tenant
        ON CONFLICT (subscriber, tenant) DO UPDATE
          SET due_at = COALESCE(p.due_at, excluded.due_at), wakes = p.wakes + 1
      )
      SELECT count(*) AS n FROM w`,
    releaseWalker: `UPDATE ${W} SET token = NULL, lease_until = NULL
      WHERE subscriber = $1 AND token = $2 RETURNING 1`,
    // SKIP LOCKED lets concurrent claimers take disjoint partitions instead of waiting; the
    // lease keeps a claimed partition hidden after the claiming statement commits.
    claimPartitions: `UPDATE ${P} SET token = gen_random_uuid()::text, lease_until = $3::timestamptz
      WHERE subscriber = $1 AND tenant IN (
        SELECT tenant FROM ${P}
        WHERE subscriber = $1 AND due_at <= $2::timestamptz
          AND (lease_until IS NULL OR lease_until <= $2::timestamptz)
        ORDER BY due_at, tenant
        LIMIT $4
        FOR UPDATE SKIP LOCKED
      )
      RETURNING tenant, checkpoint_cursor, attempts, token, wakes, due_at`,
    renewPartition: `UPDATE ${P} SET lease_until = $4::timestamptz ${held} RETURNING 1`,
    // A run of deliveries: $4 event ids, $5 event types, $6 attempt numbers, $7 times, in the
    // order delivered; $8 the cursor of the last one read from the log (NULL: only queued dead
    // letters, the checkpoint stays), $9 lease end, $10 the ids that were queued dead letters.
    recordDelivered: `WITH p AS (
        UPDATE ${P} SET checkpoint_cursor = COALESCE($8::text, checkpoint_cursor),
          attempts = 0, last_error = NULL, lease_until = $9::timestamptz
        ${held} RETURNING 1
      ), a AS (
        INSERT INTO ${A} (subscriber, tenant, event_id, event_type, attempt, status, error, at)
        SELECT $1, $2, r.id, r.type, r.attempt, 'ok', NULL, r.at
        FROM unnest($4::text[], $5::text[], $6::integer[], $7::timestamptz[])
          WITH ORDINALITY AS r(id, type, attempt, at, n)
        WHERE EXISTS (SELECT 1 FROM p)
        ORDER BY r.n
      ), d AS (
        DELETE FROM ${D} WHERE subscriber = $1 AND event_id = ANY($10::text[])
          AND EXISTS (SELECT 1 FROM p)
      )
      SELECT count(*) AS n FROM p`,
    // $8 error, $9 when it is due again. The lease ends: whoever is free then retries.
    recordFailed: `WITH p AS (
        UPDATE ${P} SET attempts = $6, last_error = $8::text, due_at = $9::timestamptz,
          token = NULL, lease_until = NULL
        ${held} RETURNING 1
      ), a AS (${attempt('failed', '$8::text')}
      )
      SELECT count(*) AS n FROM p`,
    // $8 from a dead letter, $9 the event's cursor, $10 error, $11 lease end, $12 the event.
    recordDead: `WITH p AS (
        UPDATE ${P} SET
          checkpoint_cursor = CASE WHEN $8::boolean THEN checkpoint_cursor ELSE $9::text END,
          attempts = 0, last_error = NULL, lease_until = $11::timestamptz
        ${held} RETURNING 1
      ), a AS (${attempt('dead', '$10::text')}
      ), l AS (
        INSERT INTO ${D} AS d (subscriber, event_id, tenant, event, attempts, error, dead_at, state)
        SELECT $1, $4, $2, $12::jsonb, $6, $10::text, $7::timestamptz, 'dead' FROM p
        ON CONFLICT (subscriber, event_id) DO UPDATE SET attempts = d.attempts + excluded.attempts,
          error = excluded.error, dead_at = excluded.dead_at, state = 'dead'
      )
      SELECT count(*) AS n FROM p`,
    // $4 the wakes seen at the claim: idle only when no mark came since.
    releasePartition: `UPDATE ${P} SET token = NULL, lease_until = NULL,
        due_at = CASE WHEN wakes = $4::bigint THEN NULL ELSE due_at END
      ${held} RETURNING 1`,
    // $2 the cursor to replay after, $3 now, $4 the tenant. The token goes (its holder can
    // record nothing more) but the lease stays until it ends: the holder's attempt in flight.
    replayTenant: `INSERT INTO ${P} AS p (subscriber, tenant, checkpoint_cursor, due_at, wakes)
      VALUES ($1, $4, $2::text, $3::timestamptz, 1)
      ON CONFLICT (subscriber, tenant) DO UPDATE SET checkpoint_cursor = excluded.checkpoint_cursor,
        attempts = 0, last_error = NULL, due_at = excluded.due_at, wakes = p.wakes + 1, token = NULL`,
    // The walker delivers nothing, so its lease ends at once.
    replayAll: `WITH p AS (
        UPDATE ${P} SET checkpoint_cursor = $2::text, attempts = 0, last_error = NULL,
          due_at = $3::timestamptz, wakes = wakes + 1, token = NULL
        WHERE subscriber = $1
      )
      INSERT INTO ${W} AS w (subscriber, log_cursor) VALUES ($1, $2::text)
      ON CONFLICT (subscriber) DO UPDATE SET log_cursor = excluded.log_cursor, token = NULL,
        lease_until = NULL`,
    listDeadLetters: `SELECT subscriber, tenant, event, attempts, error, dead_at, state FROM ${D}
      WHERE subscriber = $1 AND ($2::text IS NULL OR tenant = $2::text)
        AND ($3::text IS NULL OR state = $3::text) AND ($4::text IS NULL OR event_id > $4::text)
      ORDER BY event_id LIMIT $5`,
    // $2 tenant or NULL, $3 event ids or NULL, $4 now.
    retryDeadLetters: `WITH q AS (
        UPDATE ${D} SET state = 'queued'
        WHERE subscriber = $1 AND state = 'dead' AND ($2::text IS NULL OR tenant = $2::text)
          AND ($3::text[] IS NULL OR event_id = ANY($3::text[]))
        RETURNING tenant
      ), marked AS (
        INSERT INTO ${P} AS p (subscriber, tenant, due_at, wakes)
        SELECT DISTINCT $1, tenant, $4::timestamptz, 1 FROM q
        ON CONFLICT (subscriber, tenant) DO UPDATE
          SET due_at = LEAST(p.due_at, excluded.due_at), wakes = p.wakes + 1
      )
      SELECT count(*) AS n FROM q`,
    listAttempts: `SELECT seq, subscriber, tenant, event_id, event_type, attempt, status, error, at
      FROM ${A}
      WHERE tenant = $1 AND ($2::text IS NULL OR subscriber = $2::text)
        AND ($3::text IS NULL OR event_id = $3::text) AND ($4::bigint IS NULL OR seq < $4::bigint)
      ORDER BY seq DESC LIMIT $5`,
    purgeAttempts: `DELETE FROM ${A} WHERE seq IN (
        SELECT seq FROM ${A} WHERE at < $1::timestamptz ORDER BY at LIMIT $2
      ) RETURNING 1`,
    purgeDeadLetters: `DELETE FROM ${D} WHERE (subscriber, event_id) IN (
        SELECT subscriber, event_id FROM ${D} WHERE dead_at < $1::timestamptz
        ORDER BY dead_at LIMIT $2
      ) RETURNING 1`,
  };
}
