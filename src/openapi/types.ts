import type { ResourceTypeDescription } from '../core/resource-types.js';

/** A JSON Schema 2020-12 object, as an OpenAPI 3.1 document holds it. */
export type JsonSchema = {
  /** A JSON Schema keyword and its value. */
  [keyword: string]: unknown;
};

/** What {@link openApiDocument} describes: the resource types a SCIM service serves, and where. */
export interface OpenApiInput {
  /**
   * The resource types the service serves, each with its schemas (the core schema first). Each
   * gets its collection, item and `.search` paths.
   */
  readonly resourceTypes: readonly ResourceTypeDescription[];
  /** The mount point of the SCIM service, such as `/api/v1/scim/v2`. Default `''`. */
  readonly basePath?: string;
  /**
   * The public `scheme://host[:port]` of the service. Without it the server URL is the base
   * path alone, which clients read relative to where they found the document.
   */
  readonly serverUrl?: string;
  /** The document's title. Default `SCIM 2.0 service`. */
  readonly title?: string;
  /** The version of the described API. Default `2.0`. */
  readonly version?: string;
  /** The page size when `count` is not given, as configured in `createScim`. */
  readonly defaultPageSize?: number;
  /** The largest page size, as configured in `createScim`. */
  readonly maxPageSize?: number;
  /** Whether `/Me` is served (`createScim` has a `me` hook): it is described, not listed as 501. */
  readonly me?: boolean;
}

/**
 * An OpenAPI 3.1 document: plain JSON data, ready for `JSON.stringify`.
 *
 * @see https://spec.openapis.org/oas/v3.1.0
 */
export interface OpenApiDocument {
  /** The OpenAPI version the document follows. */
  readonly openapi: '3.1.0';
  /** The title, version and description of the described API. */
  readonly info: {
    /** The API's title. */
    readonly title: string;
    /** The version of the described API. */
    readonly version: string;
    /** What the API is, in a few sentences. */
    readonly description: string;
  };
  /** Where the API is served; absent when it is relative to the document. */
  readonly servers?: readonly {
    /** The base URL of the SCIM service. */
    readonly url: string;
  }[];
  /** The authentication every operation needs: a bearer token. */
  readonly security: readonly Record<string, readonly string[]>[];
  /** The groups the operations are listed under, one per resource type and one for discovery. */
  readonly tags: readonly {
    /** The tag's name. */
    readonly name: string;
    /** What the operations under the tag do. */
    readonly description: string;
  }[];
  /** Path → method (`get`, `post`, ...) → operation (and path-level `parameters`). */
  readonly paths: Record<string, Record<string, unknown>>;
  /** The shared schemas, parameters and responses the paths refer to. */
  readonly components: {
    /** The message and resource schemas, by name. */
    readonly schemas: Record<string, JsonSchema>;
    /** The shared query and path parameters, by name. */
    readonly parameters: Record<string, JsonSchema>;
    /** The shared responses (the SCIM errors among them), by name. */
    readonly responses: Record<string, JsonSchema>;
    /** The shared response headers (`ETag`, `Location`), by name. */
    readonly headers: Record<string, JsonSchema>;
    /** The bearer-token scheme every operation uses. */
    readonly securitySchemes: Record<string, JsonSchema>;
  };
}
