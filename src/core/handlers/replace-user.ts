import { scimErrors } from '../../errors/index.js';
import { checkImmutable } from '../../schema/check-immutable.js';
import { validateUserInput } from '../../schema/validate-user.js';
import { getHeader } from '../http/headers.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { Handler } from './context.js';
import { deliverPassword } from './password.js';
import { readProjection, userResponse } from './user-response.js';

/**
 * PUT /Users/{id}: replaces the updatable profile. readWrite attributes left out are cleared
 * (roles included), except `active`, which an omitted value leaves as it is; readOnly ones are
 * ignored; an `id` that differs from the path, or a change to a set immutable attribute, is
 * 400 `mutability`.
 *
 * @see RFC 7644 §3.5.1
 */
export const replaceUser: Handler = async (context) => {
  const { request, tenant, id, users, config } = context;
  const project = readProjection(context);
  const body = readJsonBody(request, config.maxBodyBytes);
  const input = validateUserInput(body, config.resourceType.input);
  if (input.id !== undefined && input.id !== id) {
    throw scimErrors.mutability(
      `"id" is readOnly: the body says "${JSON.stringify(input.id)}" but the path says "${id}".`,
    );
  }
  const ifMatch = getHeader(request.headers, 'if-match');
  // Checked against the version being replaced, so a concurrent write cannot slip past it.
  const user = await users.update(tenant.id, id, ifMatch, (current) => ({
    ...checkImmutable(current, input.attributes, config.resourceType),
    active: input.attributes.active ?? current.active,
  }));
  await deliverPassword(context, user.id, input.password);
  return userResponse(200, user, context, project);
};
