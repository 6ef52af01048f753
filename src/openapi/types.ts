import type { ResourceTypeDescription } from '../core/resource-types.js';

/** A JSON Schema 2020-12 object, as an OpenAPI 3.1 document holds it. */
export type JsonSchema = { [keyword: string]: unknown };

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
  readonly openapi: '3.1.0';
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description: string;
  };
  readonly servers?: readonly { readonly url: string }[];
  readonly security: readonly Record<string, readonly string[]>[];
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  /** Path → method (`get`, `post`, ...) → operation (and path-level `parameters`). */
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: {
    readonly schemas: Record<string, JsonSchema>;
    readonly parameters: Record<string, JsonSchema>;
    readonly responses: Record<string, JsonSchema>;
    readonly headers: Record<string, JsonSchema>;
    readonly securitySchemes: Record<string, JsonSchema>;
  };
}
