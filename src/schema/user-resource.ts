import type { ACCOUNT_SCHEMA, AccountStatus, ENTERPRISE_USER_SCHEMA } from './user-schema.js';

/** One value of a multi-valued attribute such as `emails` or `roles`. */
export interface MultiValue {
  value?: string;
  display?: string;
  type?: string;
  primary?: boolean;
  [subAttribute: string]: unknown;
}

/** The `name` complex attribute. */
export interface UserName {
  formatted?: string;
  familyName?: string;
  givenName?: string;
  middleName?: string;
  honorificPrefix?: string;
  honorificSuffix?: string;
}

/** The account extension's values: the lifecycle scimkit keeps for each user. */
export interface AccountExtension {
  status: AccountStatus;
  invitedAt?: string;
  activatedAt?: string;
}

/** Resource metadata, as stored (`location` is added per request). */
export interface UserMeta {
  resourceType: 'User';
  created: string;
  lastModified: string;
  /** A weak ETag, such as `W/"3"`. */
  version: string;
  location?: string;
}

/**
 * A User as scimkit stores and returns it: the SCIM JSON representation. Attributes the
 * library does not model are kept as they came.
 *
 * @see RFC 7643 §4.1
 */
export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name?: UserName;
  displayName?: string;
  active: boolean;
  emails?: MultiValue[];
  roles?: MultiValue[];
  [ACCOUNT_SCHEMA]: AccountExtension;
  [ENTERPRISE_USER_SCHEMA]?: Record<string, unknown>;
  meta: UserMeta;
  [attribute: string]: unknown;
}
