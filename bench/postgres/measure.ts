/** Returns the median of a list of durations. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** Times `fn` up to `rounds` times or `budgetMs`, after a short warm-up; durations in ms. */
export async function timeEach(
  fn: () => Promise<unknown>,
  rounds: number,
  budgetMs: number,
): Promise<number[]> {
  for (let i = 0; i < 20; i++) await fn();
  const out: number[] = [];
  const end = performance.now() + budgetMs;
  for (let i = 0; i < rounds && performance.now() < end; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** Times `a` and `b` alternately, so that drift and load on the machine hit both alike. */
export async function compareInterleaved(
  a: (i: number) => Promise<unknown>,
  b: (i: number) => Promise<unknown>,
  rounds: number,
  budgetMs: number,
): Promise<{ a: number[]; b: number[] }> {
  for (let i = 0; i < 20; i++) {
    await a(i);
    await b(i);
  }
  const ta: number[] = [];
  const tb: number[] = [];
  const end = performance.now() + budgetMs;
  for (let i = 0; i < rounds && performance.now() < end; i++) {
    let t0 = performance.now();
    await a(i);
    ta.push(performance.now() - t0);
    t0 = performance.now();
    await b(i);
    tb.push(performance.now() - t0);
  }
  return { a: ta, b: tb };
}
