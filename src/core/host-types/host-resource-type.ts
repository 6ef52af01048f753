import type { ResourceStore, ScimResource } from '../../contracts/resource-store.js';
import type { SchemaDefinition } from '../../schema/types.js';

/**
 * A resource type the host registers in `createScim`'s `resourceTypes` (a district's `Class`,
 * say), served with the same machinery as User and Group: validation against its schemas,
 * filters, sort, PATCH (with the dialect rules of the tenant's profile), projection, ETags and
 * If-Match, Bulk, search at the root, `/ResourceTypes`, `/Schemas` and the OpenAPI document.
 *
 * The core schema need not list the common attributes (`id`, `externalId`, `meta`): the core
 * adds those it lacks, so every resource can be filtered, sorted and projected on them.
 *
 * @see RFC 7643 §6 (resource types), §7 (schemas)
 * @example
 * ```ts
 * const classSchema = defineSchema({
 *   id: 'urn:example:params:scim:schemas:district:2.0:Class',
 *   name: 'Class',
 *   description: 'A class of a school',
 *   attributes: [defineAttribute('displayName', 'string', { required: true })],
 * });
 * createScim({
 *   store, verifier, mailer,
 *   resourceTypes: [{ name: 'Class', endpoint: '/Classes', schema: classSchema, store: new MemoryResourceStore() }],
 * });
 * ```
 */
export interface HostResourceType {
  /**
   * The type's name (`Class`): its id at `/ResourceTypes/{name}` and its `meta.resourceType`.
   * Spelled as an attribute name; unique among the types served, `User` and `Group` included.
   */
  readonly name: string;
  /**
   * Its endpoint below the base path (`/Classes`): a slash and a name spelled as an attribute
   * name, in no letter case the same as another type's or an RFC 7644 endpoint's (`/Users`,
   * `/Groups`, `/Me`, `/Bulk`, `/Schemas`, ...).
   */
  readonly endpoint: string;
  /** A human-readable description, for `/ResourceTypes`. Default: the core schema's. */
  readonly description?: string;
  /** The core schema; its `id` is a `urn:` no other schema served uses. */
  readonly schema: SchemaDefinition;
  /** Extension schemas, each with a `urn:` id of its own. */
  readonly extensions?: readonly SchemaDefinition[];
  /** Where its resources are kept (`MemoryResourceStore` from `scimkit/memory`, or the host's). */
  readonly store: ResourceStore;
  /**
   * Checks a resource about to be written (POST, PUT, PATCH, a Bulk operation) beyond what its
   * schemas say: that a reference names a user of the tenant, say. Throw a ScimError
   * (`scimErrors.invalidValue(...)`) to refuse the write with nothing written; any other throw
   * answers 500. It runs before the store write, not in the same transaction: a user deleted
   * later leaves the reference as it is (RFC 7643 §2.3.7 lets references dangle).
   */
  readonly check?: (tenant: string, resource: ScimResource) => void | Promise<void>;
}
