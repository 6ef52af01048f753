import type pg from 'pg';

/**
 * Loads `size` users into a tenant with one INSERT ... SELECT over generate_series, in
 * batches, as the store would have written them (ids time-ordered, userName `user<i>@...`).
 * Returns the time it took in ms.
 */
export async function bulkLoad(
  pool: pg.Pool,
  schema: string,
  tenant: string,
  size: number,
): Promise<number> {
  const started = performance.now();
  const batch = 200_000;
  for (let from = 0; from < size; from += batch) {
    const to = Math.min(size, from + batch) - 1;
    await pool.query(
      `INSERT INTO "${schema}".users (tenant, id, user_name, external_id, version, created, last_modified, doc)
       SELECT $1, id, user_name, 'ext-' || i, 'W/"1"', at, at,
         jsonb_build_object(
           'schemas', jsonb_build_array('urn:ietf:params:scim:schemas:core:2.0:User',
             'urn:scimkit:params:scim:schemas:extension:account:2.0:User'),
           'id', id, 'externalId', 'ext-' || i, 'userName', user_name, 'active', true,
           'name', jsonb_build_object('givenName', 'Given' || i, 'familyName', 'Family' || i),
           'emails', jsonb_build_array(jsonb_build_object('value', user_name, 'type', 'work', 'primary', true)),
           'urn:scimkit:params:scim:schemas:extension:account:2.0:User', jsonb_build_object('status', 'Invited'),
           'meta', jsonb_build_object('resourceType', 'User', 'created', at, 'lastModified', at, 'version', 'W/"1"'))
       FROM (
         SELECT i, 'u' || lpad(i::text, 12, '0') AS id, 'user' || i || '@example.org' AS user_name,
           timestamptz '2025-01-01' + i * interval '1 millisecond' AS at
         FROM generate_series($2::int, $3::int) AS i
       ) AS g`,
      [tenant, from, to],
    );
  }
  await pool.query(`ANALYZE "${schema}".users`);
  return performance.now() - started;
}
