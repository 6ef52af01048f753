/**
 * The schema and message URNs scimkit reads and writes, in one place: every module that names
 * one imports it from here.
 */

/** The schema URN of the RFC 7643 core User (§4.1). */
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
/** The schema URN of the RFC 7643 §4.3 Enterprise User extension. */
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
/** The schema URN of scimkit's account extension (account `status`). */
export const ACCOUNT_SCHEMA = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';
/** The schema URN of the RFC 7643 core Group (§4.2). */
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
/** The schema URN of the ServiceProviderConfig resource (RFC 7643 §5). */
export const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
/** The schema URN of a ResourceType resource (RFC 7643 §6). */
export const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
/** The schema URN of a Schema resource (RFC 7643 §7). */
export const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';
/** The schema URN of the `Thing` resource type the resource store conformance cases store. */
export const CONFORMANCE_THING_SCHEMA = 'urn:scimkit:params:scim:schemas:test:2.0:Thing';

/** The message URN of a list response (RFC 7644 §3.4.2). */
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** The message URN of a SearchRequest body (RFC 7644 §3.4.3). */
export const SEARCH_REQUEST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
/** The message URN of a PATCH body (RFC 7644 §3.5.2). */
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
/** The message URN of a bulk request (RFC 7644 §3.7). */
export const BULK_REQUEST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
/** The message URN of a bulk response (RFC 7644 §3.7). */
export const BULK_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:BulkResponse';
/** The message URN of a SCIM error body (RFC 7644 §3.12). */
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
