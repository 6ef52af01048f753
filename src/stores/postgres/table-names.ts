import { ScimConfigError } from '../../errors/index.js';

/** Where the store keeps its tables. */
export interface TableLocation {
  /** The PostgreSQL schema (namespace). Default `scimkit`. */
  readonly schema?: string;
  /** A prefix for every table name, for hosts that keep everything in one schema. Default none. */
  readonly tablePrefix?: string;
}

/** The quoted, schema-qualified names of the store's tables, ready to put in SQL text. */
export interface TableNames {
  /** The schema holding the tables. */
  readonly schema: string;
  /** The users. */
  readonly users: string;
  /** The number of users per tenant. */
  readonly userCounts: string;
  /** The welcome-email outbox, until migration 11 moved its rows and dropped it. */
  readonly outbox: string;
  /** The applied migrations. */
  readonly migrations: string;
  /** The groups, without their members (migration 4). */
  readonly groups: string;
  /** One row per (group, member) (migration 4). */
  readonly groupMembers: string;
  /** The resources of the host's own resource types, as documents (migration 5). */
  readonly resources: string;
  /** The unique keys those resources hold, one row each (migration 5). */
  readonly resourceKeys: string;
  /** The API keys of `PostgresKeyStore` (migration 7). */
  readonly apiKeys: string;
  /** The directory event log (migration 8). */
  readonly events: string;
  /** One row per event subscriber: its walker's cursor and lease (migration 9). */
  readonly subscriptionWalkers: string;
  /** One row per subscriber and tenant: checkpoint, retries, lease (migration 9). */
  readonly subscriptionPartitions: string;
  /** One row per delivery attempt of a subscriber (migration 9). */
  readonly deliveryAttempts: string;
  /** The events subscribers gave up on (migration 9). */
  readonly deadLetters: string;
  /** Unquoted prefix for index, function and trigger names. */
  readonly prefix: string;
  /** The schema name as given, unquoted (for the advisory lock key). */
  readonly rawSchema: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,39}$/;

/**
 * Resolves the store's table names. Names are checked against a strict pattern because they
 * are the only text the store places in SQL that does not come from scimkit itself.
 *
 * @throws ScimConfigError when the schema or prefix is not a lower-case SQL identifier.
 */
export function tableNames(location: TableLocation = {}): TableNames {
  const rawSchema = location.schema ?? 'scimkit';
  const prefix = location.tablePrefix ?? '';
  if (!IDENTIFIER.test(rawSchema)) {
    throw new ScimConfigError(
      `PostgreSQL schema "${rawSchema}" must match ${IDENTIFIER.source} (lower case, digits, _).`,
    );
  }
  if (prefix !== '' && !IDENTIFIER.test(prefix)) {
    throw new ScimConfigError(
      `Table prefix "${prefix}" must match ${IDENTIFIER.source} (lower case, digits, _).`,
    );
  }
  const schema = `"${rawSchema}"`;
  const table = (name: string) => `${schema}."${prefix}${name}"`;
  return {
    schema,
    rawSchema,
    prefix,
    users: table('users'),
    userCounts: table('user_counts'),
    outbox: table('outbox'),
    migrations: table('migrations'),
    groups: table('groups'),
    groupMembers: table('group_members'),
    resources: table('resources'),
    resourceKeys: table('resource_keys'),
    apiKeys: table('api_keys'),
    events: table('events'),
    subscriptionWalkers: table('subscription_walkers'),
    subscriptionPartitions: table('subscription_partitions'),
    deliveryAttempts: table('delivery_attempts'),
    deadLetters: table('dead_letters'),
  };
}
