/**
 * Lists the members of a string-literal union at run time, checked by the compiler both ways:
 * a member left out or one not in the union fails to compile, so a document's `enum` cannot
 * drift from the type it describes.
 *
 * @example
 * ```ts
 * const orders = everyMember<SortOrder>()(['ascending', 'descending']);
 * ```
 */
export function everyMember<T extends string>() {
  return <const L extends readonly T[]>(
    list: L & ([T] extends [L[number]] ? unknown : { missing: Exclude<T, L[number]> }),
  ): readonly T[] => list;
}
