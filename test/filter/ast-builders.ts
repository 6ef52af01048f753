import type {
  AttributePath,
  CompareOperator,
  Filter,
  FilterValue,
} from '../../src/filter/index.js';

/** Builds an attribute path from `urn:...:name.sub` the way a reader writes it. */
export function path(text: string): AttributePath {
  const colon = text.lastIndexOf(':');
  const schema = colon < 0 ? undefined : text.slice(0, colon);
  const [attribute = '', subAttribute] = text.slice(colon + 1).split('.');
  return {
    ...(schema === undefined ? {} : { schema }),
    attribute,
    ...(subAttribute === undefined ? {} : { subAttribute }),
  };
}

export const cmp = (p: string, op: CompareOperator, value: FilterValue): Filter => ({
  kind: 'compare',
  path: path(p),
  op,
  value,
});
export const pr = (p: string): Filter => ({ kind: 'present', path: path(p) });
export const and = (left: Filter, right: Filter): Filter => ({ kind: 'and', left, right });
export const or = (left: Filter, right: Filter): Filter => ({ kind: 'or', left, right });
export const not = (filter: Filter): Filter => ({ kind: 'not', filter });
export const vp = (p: string, filter: Filter): Filter => ({
  kind: 'valuePath',
  path: path(p),
  filter,
});
