import { scimErrors, type ScimError } from '../errors/index.js';
import { previewJson } from '../json/preview-json.js';
import type { ValueRefusal } from './read-value.js';

/**
 * Turns a refused value of a body into a 400 `invalidValue` ScimError whose detail names the
 * attribute and what was expected: `"emails[1].primary" must be a boolean; got "yes".`
 */
export function refusalToScimError(refusal: ValueRefusal): ScimError {
  const path = attributeNotation(refusal.path) || 'value';
  // Whole-value refusals (required, one primary) describe the attribute, not the input there.
  const got = refusal.whole ? '' : `; got ${previewJson(refusal.input)}`;
  return scimErrors.invalidValue(`"${path}" ${refusal.message}${got}.`);
}

/**
 * Names a place in a body as a client would write it: `name.givenName`, `emails[1].value`, or
 * an extension attribute after its schema URN
 * (`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value`).
 *
 * @see RFC 7644 §3.10 (attribute notation)
 */
export function attributeNotation(path: readonly (string | number)[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    // Attribute names never hold a colon (RFC 7643 §2.1), so a key with one is a schema URN.
    else if (out === '' || out.endsWith(':')) out += key.includes(':') ? `${key}:` : key;
    else out += `.${key}`;
  }
  return out.endsWith(':') ? out.slice(0, -1) : out;
}
