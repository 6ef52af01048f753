import type { InferAttribute, InferAttributes, InferExtension } from './infer.js';
import type { accountSchema, enterpriseUserSchema, userSchema } from './user-schema.js';
import type { ACCOUNT_SCHEMA, ENTERPRISE_USER_SCHEMA } from './urns.js';

/** Flattens an intersection into one object type, for readable hovers and errors. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** Makes the keys `K` of `T` present: values the service guarantees though the schema does not. */
type WithPresent<T, K extends keyof T> = Simplify<
  Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> }
>;

type CoreAttribute<N extends string> = Extract<
  (typeof userSchema.attributes)[number],
  { readonly name: N }
>;
type CoreAttributes = InferAttributes<typeof userSchema.attributes>;

/** One value of a multi-valued attribute such as `emails` or `roles`, from the User schema. */
export type MultiValue = NonNullable<CoreAttributes['emails']>[number];

/** The `name` complex attribute, from the User schema. */
export type UserName = NonNullable<CoreAttributes['name']>;

/** The account extension's values: the lifecycle scimkit keeps for each user (`status` always set). */
export type AccountExtension = WithPresent<InferExtension<typeof accountSchema>, 'status'>;

/** The Enterprise User extension's values (RFC 7643 §4.3), from its schema. */
export type EnterpriseUser = InferExtension<typeof enterpriseUserSchema>;

/**
 * Resource metadata, as stored: every value but `location`, which is added per request,
 * is always set by the service.
 */
export type UserMeta = WithPresent<
  InferAttribute<CoreAttribute<'meta'>>,
  'resourceType' | 'created' | 'lastModified' | 'version'
>;

/**
 * The User's attributes as the schemas define them, with what the service guarantees on
 * top: `meta` and the account extension are always there. `active` is a boolean from
 * creation on (omitted on create means `false`) and absent only once a client removed it
 * (RFC 7644 §3.5.2.2: unassigned); the account status then stays as it was, so the status,
 * not `active`, says whether the account is usable. `password` is absent: it is never stored
 * (`returned: never`).
 */
export type ScimUserAttributes = Omit<CoreAttributes, 'meta'> & {
  /** The schema URNs of the user: the core User schema and those of its extensions. */
  schemas: string[];
  /** The user's metadata. */
  meta: UserMeta;
  /** The account extension: the account status and when it changed. */
  [ACCOUNT_SCHEMA]: AccountExtension;
  /** The Enterprise User extension, when the user has any of its attributes. */
  [ENTERPRISE_USER_SCHEMA]?: EnterpriseUser & Record<string, unknown>;
};

/**
 * A User as scimkit stores and returns it: the SCIM JSON representation, its type inferred
 * from the same schema definitions that validate requests and answer `/Schemas`. Attributes
 * the library does not model are kept as they came, hence the index signature; a host's
 * extension gets a typed view with `ScimUser & WithExtension<typeof schema>`.
 *
 * @see RFC 7643 §4.1
 */
export interface ScimUser extends ScimUserAttributes {
  /** Attributes no schema of the library models (a host extension's, under its URN). */
  [attribute: string]: unknown;
}
