import { defineAttribute as attr } from './define-attribute.js';
import { defineSchema } from './define-schema.js';
import { externalIdAttribute, idAttribute, metaAttribute } from './common-attributes.js';
import type { InferAttributes } from './infer.js';
import { GROUP_SCHEMA } from './urns.js';

/**
 * The RFC 7643 §4.2 core Group, every attribute with its characteristics (as §8.7.1 lists
 * them), plus the common attributes of §3.1 (`id`, `externalId`, `meta`). A member's `value`
 * is immutable: a membership is added or removed, never re-pointed.
 *
 * @see RFC 7643 §4.2, §8.7.1
 */
export const groupSchema = defineSchema({
  id: GROUP_SCHEMA,
  name: 'Group',
  description: 'Group',
  attributes: [
    idAttribute,
    externalIdAttribute,
    attr('displayName', 'string', {
      description: 'A human-readable name for the Group.',
      required: true,
    }),
    attr('members', 'complex', {
      multiValued: true,
      description: 'A list of members of the Group.',
      subAttributes: [
        // caseExact as the `id` it refers to (RFC 7643 §8.7.1 leaves it false): "ABC" and
        // "abc" are two different members. Required (§8.7.1 leaves it optional): a member is
        // named by its id, and one without it is refused, never dropped.
        attr('value', 'string', {
          description: 'Identifier of the member of this Group.',
          required: true,
          caseExact: true,
          mutability: 'immutable',
        }),
        attr('$ref', 'reference', {
          description: 'The URI corresponding to a SCIM resource that is a member of this Group.',
          mutability: 'immutable',
          referenceTypes: ['User', 'Group'],
        }),
        attr('display', 'string', {
          description: 'A human-readable name, primarily used for display purposes.',
          mutability: 'readOnly',
        }),
        attr('type', 'string', {
          description: 'A label indicating the type of resource, e.g. "User" or "Group".',
          mutability: 'immutable',
          canonicalValues: ['User', 'Group'],
        }),
      ],
    }),
    metaAttribute('Group'),
  ],
});

type GroupAttributes = InferAttributes<typeof groupSchema.attributes>;

/** What a member is: a user or a group of the same tenant. */
export type MemberType = 'User' | 'Group';

/**
 * One membership as a store keeps it: the member's id, what it is, and the display text the
 * service recorded. `$ref` is not stored: it depends on the request's base URL.
 */
export interface GroupMember {
  /** The member's id (a user's or a group's, in the group's tenant). */
  readonly value: string;
  /** Whether the member is a user or a group; decided by the store from where the id lives. */
  readonly type: MemberType;
  /** A human-readable name of the member, as recorded with the membership. */
  readonly display?: string;
}

/** Group metadata as stored: every value but `location` is set by the service. */
export interface GroupMeta {
  /** Always `Group`. */
  resourceType: 'Group';
  /** When the group was created (ISO 8601). */
  created: string;
  /** When the group was last changed (ISO 8601). */
  lastModified: string;
  /** The weak ETag of this version of the group. */
  version: string;
  /** The group's URL; set on the way out, from the request's base URL. */
  location?: string;
}

/**
 * A Group as scimkit stores and returns it: the SCIM JSON representation of RFC 7643 §4.2.
 * `members` is present only when the group has members and they were asked for (a store
 * keeps them apart from the group, see `GroupStore`). Attributes the library does not model
 * (a host's extensions) are kept as they came.
 *
 * @see RFC 7643 §4.2
 */
export interface ScimGroup {
  /** The schema URNs of the group: the core Group schema and any extension's. */
  schemas: string[];
  /** The service's id of the group: opaque, URL-safe, never reused. */
  id: string;
  /** The IdP's own id of the group, if it sent one. */
  externalId?: GroupAttributes['externalId'];
  /** The group's name as the IdP shows it. */
  displayName: string;
  /** The members, when the group has some and they were asked for. */
  members?: GroupMember[];
  /** The group's metadata. */
  meta: GroupMeta;
  /** A host extension's attributes, under its schema URN, as they came. */
  [attribute: string]: unknown;
}
