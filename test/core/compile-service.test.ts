// The compile step: options → a service description, printed and inspected without a request.
import { describe, expect, it } from 'vitest';
import {
  ScimConfigError,
  defineAttribute,
  defineSchema,
  staticApiKeys,
  type UserStore,
} from '../../src/index.js';
import { compileService } from '../../src/core/compile/compile-service.js';
import { resolveOptions } from '../../src/core/compile/resolve-options.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';

const verifier = staticApiKeys([{ key: 'k', tenant: 't' }]);
const ROOM = 'urn:example:params:scim:schemas:district:2.0:Room';
const roomSchema = defineSchema({
  id: ROOM,
  name: 'Room',
  description: 'A room',
  attributes: [defineAttribute('displayName', 'string', { required: true })],
});

// The description as data: what a reader would print to see what a configuration serves.
function printed(options: Parameters<typeof resolveOptions>[0]) {
  const d = compileService(resolveOptions(options));
  return {
    basePath: d.basePath,
    limits: d.limits,
    paging: d.paging,
    served: d.served,
    defaultProfile: d.profiles.defaultProfile,
    profiles: [...d.profiles.byName.keys()],
    me: d.me !== undefined,
    mail: d.mail.mailer !== undefined,
  };
}

describe('compileService', () => {
  it('describes a memory store with groups and a host type: types, endpoints, capabilities', () => {
    const description = printed({
      store: new MemoryUserStore(),
      auth: { verifier },
      basePath: '/scim/v2',
      resourceTypes: [
        { name: 'Room', endpoint: '/Rooms', schema: roomSchema, store: new MemoryResourceStore() },
      ],
      limits: { maxBodyBytes: 2048, maxBulkPayloadBytes: 4096 },
      paging: { maxPageSize: 200 },
      dialects: { profiles: { mine: { extends: 'okta' } }, defaultProfile: 'strict' },
    });
    expect(description).toMatchInlineSnapshot(`
      {
        "basePath": "/scim/v2",
        "defaultProfile": "strict",
        "limits": {
          "bodyTimeoutMs": 10000,
          "bulkConcurrency": 8,
          "maxAttributeValues": 10000,
          "maxBodyBytes": 2048,
          "maxBulkOperations": 1000,
          "maxBulkPayloadBytes": 4096,
          "maxPatchOperations": undefined,
          "maxPatchWork": undefined,
          "maxResponseBytes": undefined,
          "maxResponseBytesInFlight": undefined,
          "readBodyBytes": 4096,
        },
        "mail": false,
        "me": false,
        "paging": {
          "advertiseCursors": true,
          "cursorSecret": undefined,
          "cursorTimeoutSeconds": undefined,
          "cursors": true,
          "defaultPageSize": 50,
          "maxPageSize": 200,
        },
        "profiles": [
          "lenient",
          "strict",
          "entra",
          "okta",
          "mine",
        ],
        "served": [
          {
            "capabilities": {
              "filter": true,
              "keysetPaging": true,
              "sort": true,
            },
            "endpoint": "/Users",
            "name": "User",
            "schemas": [
              "urn:ietf:params:scim:schemas:core:2.0:User",
              "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
              "urn:scimkit:params:scim:schemas:extension:account:2.0:User",
            ],
          },
          {
            "capabilities": {
              "filter": true,
              "keysetPaging": true,
              "sort": true,
            },
            "endpoint": "/Groups",
            "name": "Group",
            "schemas": [
              "urn:ietf:params:scim:schemas:core:2.0:Group",
            ],
          },
          {
            "capabilities": {
              "filter": false,
              "keysetPaging": true,
              "sort": true,
            },
            "endpoint": "/Rooms",
            "name": "Room",
            "schemas": [
              "urn:example:params:scim:schemas:district:2.0:Room",
            ],
          },
        ],
      }
    `);
  });

  it('serves no Group for a store without groups, and compiles the User with its extensions', () => {
    const base = new MemoryUserStore();
    const store: UserStore = {
      create: base.create.bind(base),
      get: base.get.bind(base),
      replace: base.replace.bind(base),
      delete: base.delete.bind(base),
      list: base.list.bind(base),
    };
    const SCHOOL = 'urn:example:params:scim:schemas:district:2.0:User';
    const school = defineSchema({
      id: SCHOOL,
      name: 'School',
      description: 'A school',
      attributes: [defineAttribute('studentNumber', 'string')],
    });
    const described = compileService(
      resolveOptions({ store, auth: { verifier }, schema: { extensions: [school] } }),
    );
    expect(described.served.map((t) => t.name)).toEqual(['User']);
    expect(described.served[0]?.schemas).toContain(SCHOOL);
    expect(described.types[0]?.name).toBe('User');
  });

  it('refuses at compile time what no request could fix', () => {
    const store = new MemoryUserStore();
    expect(() =>
      compileService(
        resolveOptions({ store, auth: { verifier }, dialects: { defaultProfile: 'x' } }),
      ),
    ).toThrow(ScimConfigError);
    expect(() =>
      compileService(
        resolveOptions({
          store,
          auth: { verifier },
          resourceTypes: [
            {
              name: 'User',
              endpoint: '/Users',
              schema: roomSchema,
              store: new MemoryResourceStore(),
            },
          ],
        }),
      ),
    ).toThrow(ScimConfigError);
  });
});
