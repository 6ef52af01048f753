/**
 * A resource type of the host's own: a district's `Class` at `/Classes`, served by createScim
 * beside Users and Groups with nothing else written: validation, filters, sort, PATCH,
 * projection, ETags, Bulk, search at the root and discovery. Run `npx tsx examples/classes/main.ts`,
 * then:
 * curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8080/api/v1/scim/v2/ResourceTypes/Class
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
// In an application: 'scimkit', 'scimkit/node' and 'scimkit/memory'.
import { scimNode } from '../../src/adapters/node/index.js';
import {
  createScim,
  scimErrors,
  staticApiKeys,
  type Scim,
  type ScimOptions,
  type ScimResource,
} from '../../src/index.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import { classSchema } from './class-schema.js';

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

/** Builds the service: Users, Groups and Classes, all in memory. */
export function classesScim(overrides: Partial<ScimOptions> = {}): Scim {
  const scim: Scim = createScim({
    store: new MemoryUserStore(),
    verifier: staticApiKeys([{ key: process.env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]),
    mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) },
    basePath: '/api/v1/scim/v2',
    resourceTypes: [
      {
        name: 'Class',
        endpoint: '/Classes',
        description: 'A class taught in a school of the district',
        schema: classSchema,
        store: new MemoryResourceStore(),
        check: (tenant, resource) => checkPeople(scim, tenant, resource),
      },
    ],
    ...overrides,
  });
  return scim;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 8080);
  createServer(scimNode(classesScim())).listen(port, '127.0.0.1', () =>
    console.log(`SCIM with /Classes at http://127.0.0.1:${port}/api/v1/scim/v2`),
  );
}
