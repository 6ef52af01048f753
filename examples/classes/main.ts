/**
 * A resource type of the host's own: a district's `Class` at `/Classes`, served by createScim
 * beside Users and Groups with nothing else written: validation, filters, sort, PATCH,
 * projection, ETags, Bulk, search at the root and discovery. Run `npx tsx examples/classes/main.ts`,
 * then:
 * curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8080/api/v1/scim/v2/ResourceTypes/Class
 *
 * The stores are chosen as the example server chooses its own: in memory by default,
 * `SCIMKIT_STORE=pglite` (in `SCIMKIT_DATA_DIR`), or PostgreSQL at `DATABASE_URL`.
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
// In an application: 'scimkit' and 'scimkit/node'.
import { scimNode } from '../../src/adapters/node/index.js';
import {
  createScim,
  scimErrors,
  staticApiKeys,
  type Scim,
  type ScimOptionsBase,
  type ScimResource,
} from '../../src/index.js';
import { readStoreConfig, type StoreConfig } from '../server/config.js';
import { classSchema } from './class-schema.js';
import { memoryStores, openClassesStores, type ClassesStores } from './open-stores.js';

/**
 * Refuses a class whose teacher or a student is not a user of the tenant. scimkit leaves
 * references to the host: the schema says what a reference looks like, this says what it
 * may point at.
 */
async function checkPeople(scim: Scim, tenant: string, resource: ScimResource) {
  type Person = { value?: string } | undefined;
  const people: [string, Person][] = [['teacher', resource.teacher as Person]];
  for (const student of (resource.students as Person[] | undefined) ?? [])
    people.push(['student', student]);
  for (const [role, person] of people) {
    const id = person?.value;
    if (id !== undefined && (await scim.users.get(tenant, id)) === null)
      throw scimErrors.invalidValue(`The ${role} "${id}" is not a user of this district.`);
  }
}

/** Builds the service: Users, Groups and Classes, in `stores` (default: all in memory). */
export function classesScim(
  overrides: Partial<ScimOptionsBase> = {},
  stores: Pick<ClassesStores, 'users' | 'classes'> = memoryStores(),
): Scim {
  const { auth, ...rest } = overrides;
  const verifier = staticApiKeys([{ key: process.env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]);
  const scim: Scim = createScim({
    store: stores.users,
    auth: { verifier, ...auth },
    mail: { mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) } },
    basePath: '/api/v1/scim/v2',
    resourceTypes: [
      {
        name: 'Class',
        endpoint: '/Classes',
        description: 'A class taught in a school of the district',
        schema: classSchema,
        store: stores.classes,
        check: (tenant, resource) => checkPeople(scim, tenant, resource),
      },
    ],
    ...rest,
  });
  return scim;
}

/** Opens the stores the environment names and serves the example until the process stops. */
async function main(): Promise<void> {
  const env = process.env;
  const port = Number(env.PORT ?? 8080);
  const memory: StoreConfig = { kind: 'memory' };
  const stores = await openClassesStores(
    env.SCIMKIT_STORE || env.DATABASE_URL ? readStoreConfig(env) : memory,
  );
  createServer(scimNode(classesScim({}, stores))).listen(port, '127.0.0.1', () =>
    console.log(`SCIM with /Classes at http://127.0.0.1:${port}/api/v1/scim/v2`),
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
