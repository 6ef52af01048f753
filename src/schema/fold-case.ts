import { CASE_FOLDING_RUNS } from './case-folding-table.js';

// A named cache (module state with a reason): the folding table, built on first use rather
// than at import, since most processes only ever fold ASCII and the library has no import-time
// side effects. Immutable once built.
const foldingCache: { table?: ReadonlyMap<number, number> } = {};

function foldingTable(): ReadonlyMap<number, number> {
  if (foldingCache.table) return foldingCache.table;
  const table = new Map<number, number>();
  for (let i = 0; i < CASE_FOLDING_RUNS.length; i += 4) {
    const [start, count, step, delta] = CASE_FOLDING_RUNS.slice(i, i + 4) as [
      number,
      number,
      number,
      number,
    ];
    for (let k = 0; k < count; k++) table.set(start + k * step, start + k * step + delta);
  }
  foldingCache.table = table;
  return table;
}

/**
 * Returns what one code point folds to under Unicode simple case folding (itself when
 * folding leaves it alone), without normalisation.
 *
 * @internal
 */
export function foldCodePoint(codePoint: number): number {
  return foldingTable().get(codePoint) ?? codePoint;
}

/**
 * Folds a string for caseless comparison: NFC normalisation, then Unicode simple case folding
 * (CaseFolding.txt statuses C and S). `É` and `e` + U+0301 + any case, `Σ`/`σ`/`ς` and `ẞ`/`ß`
 * fold alike; `ß` and `ss` stay apart (simple, not full, folding). This is scimkit's one
 * meaning of "regardless of case" for every string attribute that is not `caseExact`; the
 * result is for comparing, never for showing.
 *
 * @example
 * ```ts
 * foldCase('ÉMILE@x') === foldCase('émile@x'); // true
 * ```
 */
export function foldCase(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  // ASCII is NFC already, and its only folds are A–Z, which toLowerCase does exactly.
  if (ascii) return text.toLowerCase();
  const table = foldingTable();
  let folded = '';
  for (const char of text.normalize('NFC')) {
    const to = table.get(char.codePointAt(0) as number);
    folded += to === undefined ? char : String.fromCodePoint(to);
  }
  return folded;
}
