import type * as v from 'valibot';
import { scimErrors, type ScimError } from '../errors/index.js';
import { previewJson } from '../json/preview-json.js';

/**
 * Names the attribute an issue is about, as a client would write it: `name.givenName`,
 * `emails[1].value`, or an extension attribute with its schema URN
 * (`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value`), after `base`
 * (the path of the value the issue's path is relative to).
 *
 * @see RFC 7644 §3.10 (attribute notation)
 */
export function issuePath(issue: v.BaseIssue<unknown>, base = ''): string {
  let path = base;
  for (const item of issue.path ?? []) {
    const key: unknown = item.key;
    if (typeof key === 'number') path += `[${key}]`;
    // Attribute names never hold a colon (RFC 7643 §2.1), so a key with one is a schema URN.
    else if (path === '' || path.endsWith(':'))
      path += String(key).includes(':') ? `${String(key)}:` : String(key);
    else path += `.${String(key)}`;
  }
  return path.endsWith(':') ? path.slice(0, -1) : path;
}

/**
 * Turns the first valibot issue into a 400 `invalidValue` ScimError whose detail names the
 * attribute and what was expected: `"emails[1].primary" must be a boolean; got "yes".`
 */
export function issueToScimError(issues: readonly v.BaseIssue<unknown>[], base = ''): ScimError {
  const issue = issues[0];
  if (!issue) return scimErrors.invalidValue('The value is invalid.');
  const path = issuePath(issue, base) || 'value';
  // Whole-value checks (required, one primary) describe the attribute; type checks show the input.
  const got = issue.type === 'raw_check' ? '' : `; got ${previewJson(issue.input)}`;
  return scimErrors.invalidValue(`"${path}" ${issue.message}${got}.`);
}
