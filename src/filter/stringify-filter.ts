import type { AttributePath, Filter, FilterValue } from './ast.js';

/**
 * Writes a {@link Filter} back as filter text, with the parentheses its shape needs and no
 * more, so that `parseFilter(stringifyFilter(ast))` deep-equals `ast`. Operators come out in
 * lower case; names keep their letter case.
 *
 * @see RFC 7644 §3.4.2.2
 * @example
 * ```ts
 * stringifyFilter({ kind: 'present', path: { attribute: 'title' } }); // 'title pr'
 * ```
 */
export function stringifyFilter(filter: Filter): string {
  switch (filter.kind) {
    case 'compare':
      return `${stringifyAttributePath(filter.path)} ${filter.op} ${stringifyValue(filter.value)}`;
    case 'present':
      return `${stringifyAttributePath(filter.path)} pr`;
    case 'not':
      return `not (${stringifyFilter(filter.filter)})`;
    case 'valuePath':
      return `${stringifyAttributePath(filter.path)}[${stringifyFilter(filter.filter)}]`;
    case 'and':
      // `and` binds tighter than `or`, and both group to the left: parenthesise what would
      // otherwise regroup on reading.
      return `${group(filter.left, filter.left.kind === 'or')} and ${group(
        filter.right,
        filter.right.kind === 'or' || filter.right.kind === 'and',
      )}`;
    case 'or':
      return `${stringifyFilter(filter.left)} or ${group(filter.right, filter.right.kind === 'or')}`;
  }
}

/**
 * Writes an attribute path: `[schema:]attribute[.subAttribute]`; for a store that names a
 * path it cannot filter or sort on (an error detail, an `UnsupportedFilterError` reason).
 */
export function stringifyAttributePath(path: AttributePath): string {
  const name =
    path.subAttribute === undefined ? path.attribute : `${path.attribute}.${path.subAttribute}`;
  return path.schema === undefined ? name : `${path.schema}:${name}`;
}

function stringifyValue(value: FilterValue): string {
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  return JSON.stringify(value);
}

function group(filter: Filter, parenthesise: boolean): string {
  const text = stringifyFilter(filter);
  return parenthesise ? `(${text})` : text;
}
