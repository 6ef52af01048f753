import { scimErrors } from '../../errors/index.js';
import type { Handler, ResourceHandler } from '../handlers/context.js';
import { deleteResource } from '../handlers/delete-resource.js';
import { getResource } from '../handlers/get-resource.js';
import { patchResource } from '../handlers/patch-resource.js';
import { replaceResource } from '../handlers/replace-resource.js';
import type { ScimResponse } from '../types.js';

// `/Me` is an alias: the User's own handlers answer it, with the id the host's hook gives.
function alias(handler: ResourceHandler): Handler {
  return async (context) => {
    const { config, tenant, request, baseUrl } = context;
    const hook = config.me;
    if (hook === undefined) {
      throw scimErrors.notImplemented(
        `${request.method.toUpperCase()} ${request.path} is not implemented by this server.`,
      );
    }
    const id = await hook(tenant, request);
    if (id === null) throw scimErrors.notFound('The caller is not a user of this tenant.');
    if (typeof id !== 'string' || id === '')
      throw new TypeError('The `me` hook must return a user id or null.');
    const endpoint = config.endpoints[0];
    if (endpoint === undefined) throw new TypeError('No User resource type is served.');
    const url = `${baseUrl}${endpoint.type.endpoint}`;
    const response = await handler({ ...context, id, endpoint, url });
    return located(response, `${url}/${encodeURIComponent(id)}`);
  };
}

// The RFC asks for the permanent location of the aliased resource on a success.
function located(response: ScimResponse, location: string): ScimResponse {
  if (response.status >= 300 || response.status === 204) return response;
  return { ...response, headers: { ...response.headers, location } };
}

/**
 * `/Me` (RFC 7644 §3.11): GET, PUT, PATCH and DELETE act on the user the host's `me` hook maps
 * the caller to, through the User's handlers; `Location` names `/Users/{id}`. The hook's `null`
 * answers 404; without a hook, 501.
 *
 * POST /Me answers 501: a caller of this service is a provisioning client holding an API key,
 * so there is no subject whose own resource a POST could create (RFC 7644 §3.11 leaves the
 * type created to the server, and §7.6 warns about self-registration).
 *
 * @see RFC 7644 §3.11
 */
export const meHandlers: Readonly<Record<string, Handler>> = {
  GET: alias(getResource),
  PUT: alias(replaceResource),
  PATCH: alias(patchResource),
  DELETE: alias(deleteResource),
  POST: async ({ request }) => {
    throw scimErrors.notImplemented(
      `POST ${request.path} is not supported: /Me names an existing user; create users with POST /Users.`,
    );
  },
};
