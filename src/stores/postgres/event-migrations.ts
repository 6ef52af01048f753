import type { Migration } from './migration.js';

/**
 * Migration 13: a row of the log may hold several member events of one write (see
 * `EVENTS_PER_ROW`); `event_count` says how many, so that a page reads about as many events as
 * it shows. An instance of an older version reads such a row as one event of its own shape:
 * stop those before migrating.
 */
export const eventRowsMigration: Migration = {
  version: 13,
  name: 'several member events per event row',
  statements: (t) => [`ALTER TABLE ${t.events} ADD COLUMN event_count integer NOT NULL DEFAULT 1`],
};

/**
 * The migrations of the directory events (8: the event log; 9: the durable subscribers'
 * delivery state), in the list of `migrations.ts` between 7 and 10.
 */
export const eventMigrations: readonly Migration[] = [
  {
    version: 8,
    name: 'directory event log',
    statements: (t) => [
      // The log is read in (xid, seq) order, and only below the oldest transaction still
      // running: an event whose transaction commits late has the xid it began with, so no
      // reader has passed it (see event-statements.ts). No counter row serialises the writers.
      `CREATE TABLE ${t.events} (
        xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        tenant text COLLATE "C" NOT NULL,
        type text COLLATE "C" NOT NULL,
        occurred_at timestamptz NOT NULL,
        event jsonb NOT NULL,
        PRIMARY KEY (xid, seq)
      )`,
      `CREATE INDEX "${t.prefix}events_tenant_idx" ON ${t.events} (tenant, xid, seq)`,
      `CREATE INDEX "${t.prefix}events_occurred_at_idx" ON ${t.events} (occurred_at)`,
    ],
  },
  {
    version: 9,
    name: 'durable event subscribers',
    statements: (t) => [
      // A subscriber's walker: the log position it has read the whole log up to, and the
      // lease (with its fencing token) of the one process that walks it.
      `CREATE TABLE ${t.subscriptionWalkers} (
        subscriber text COLLATE "C" PRIMARY KEY,
        log_cursor text,
        token text,
        lease_until timestamptz
      )`,
      // One partition per subscriber and tenant, delivered in log order by whoever holds its
      // lease; due_at NULL means idle, wakes counts the walker's marks so that a partition
      // released as idle keeps a mark made during its claim.
      `CREATE TABLE ${t.subscriptionPartitions} (
        subscriber text COLLATE "C" NOT NULL,
        tenant text COLLATE "C" NOT NULL,
        checkpoint_cursor text,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        due_at timestamptz,
        wakes bigint NOT NULL DEFAULT 0,
        token text,
        lease_until timestamptz,
        PRIMARY KEY (subscriber, tenant)
      )`,
      `CREATE INDEX "${t.prefix}subscription_partitions_due_idx"
       ON ${t.subscriptionPartitions} (subscriber, due_at) WHERE due_at IS NOT NULL`,
      `CREATE TABLE ${t.deliveryAttempts} (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subscriber text COLLATE "C" NOT NULL,
        tenant text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        event_type text NOT NULL,
        attempt integer NOT NULL,
        status text NOT NULL CHECK (status IN ('ok', 'failed', 'dead')),
        error text,
        at timestamptz NOT NULL
      )`,
      `CREATE INDEX "${t.prefix}delivery_attempts_tenant_idx" ON ${t.deliveryAttempts} (tenant, seq)`,
      `CREATE INDEX "${t.prefix}delivery_attempts_at_idx" ON ${t.deliveryAttempts} (at)`,
      // The event is copied: a dead letter can be retried after the log purged the event.
      `CREATE TABLE ${t.deadLetters} (
        subscriber text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        tenant text COLLATE "C" NOT NULL,
        event jsonb NOT NULL,
        attempts integer NOT NULL,
        error text NOT NULL,
        dead_at timestamptz NOT NULL,
        state text NOT NULL CHECK (state IN ('dead', 'queued')),
        PRIMARY KEY (subscriber, event_id)
      )`,
      `CREATE INDEX "${t.prefix}dead_letters_dead_at_idx" ON ${t.deadLetters} (dead_at)`,
    ],
  },
];
