import { boundedUtf8Length } from '../../json/utf8-length.js';
import type { ResponseAllowance } from './response-allowance.js';

/**
 * The most a list answer's own members take beside its resources (`schemas`, the counts, an
 * RFC 9865 cursor or two), counted as held whatever their real size.
 */
export const LIST_OVERHEAD = 1024;

/**
 * Keeps the leading `texts` of a list answer that fit in `allowance` (each counted in UTF-8
 * bytes, with a separator, plus `overhead`) and returns how many. When not even the first fits
 * and `first` says these are the answer's first resources, throws the allowance's refusal: a
 * page never answers with nothing to show for resources that are there.
 */
export function keepParts(
  allowance: ResponseAllowance,
  texts: readonly string[],
  overhead = LIST_OVERHEAD,
  first = true,
): number {
  const room = allowance.capacity;
  const sizes = texts.map((text) => boundedUtf8Length(text, room) + 1);
  const count = allowance.keep(sizes, overhead);
  if (first && count === 0 && texts.length > 0) throw allowance.refusal(sizes[0] as number);
  return count;
}
