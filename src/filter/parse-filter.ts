// PLACEHOLDER: replaced by the full RFC 7644 §3.4.2.2 parser (issue 4). Accepts only
// `attrPath op "string"` comparisons so the foundation can serve `userName eq "..."`.
import { scimErrors } from '../errors/index.js';
import type { AttributePath, CompareOperator, Filter } from './ast.js';

const SIMPLE = /^\s*([A-Za-z][\w$-]*(?:\.[A-Za-z][\w$-]*)?)\s+(eq|ne|co|sw|ew|gt|lt|ge|le)\s+("(?:[^"\\]|\\.)*")\s*$/i;

/**
 * Parses a filter expression into a {@link Filter}.
 *
 * @throws ScimError 400 `invalidFilter` when the text is not a filter.
 * @see RFC 7644 §3.4.2.2
 */
export function parseFilter(text: string): Filter {
  const match = SIMPLE.exec(text);
  if (!match) throw scimErrors.invalidFilter(`The filter "${text}" could not be parsed.`);
  const [attribute = '', subAttribute] = (match[1] ?? '').split('.');
  const path: AttributePath = subAttribute ? { attribute, subAttribute } : { attribute };
  let value: string;
  try {
    value = JSON.parse(match[3] ?? '""') as string;
  } catch {
    throw scimErrors.invalidFilter(`The filter "${text}" has a malformed string.`);
  }
  return { kind: 'compare', path, op: (match[2] ?? 'eq').toLowerCase() as CompareOperator, value };
}
