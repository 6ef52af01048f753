/** Returns the median of a list of durations. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** Times each function in turn, round after round, so drift and load hit all of them alike. */
export async function compareInterleaved(
  fns: readonly ((i: number) => Promise<unknown>)[],
  rounds: number,
  budgetMs: number,
): Promise<number[][]> {
  for (let i = 0; i < 20; i++) for (const fn of fns) await fn(i);
  const times = fns.map((): number[] => []);
  const end = performance.now() + budgetMs;
  for (let i = 0; i < rounds && performance.now() < end; i++) {
    for (const [j, fn] of fns.entries()) {
      const t0 = performance.now();
      await fn(i);
      times[j]?.push(performance.now() - t0);
    }
  }
  return times;
}
