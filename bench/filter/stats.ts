// Statistics shared by the filter benchmarks.
import os from 'node:os';
import type { Bench } from 'tinybench';

/** The median (p50) throughput of one completed task of `bench`, in operations per second. */
export function medianOf(bench: Bench, name: string): number {
  const result = bench.getTask(name)?.result;
  if (result?.state !== 'completed') throw new Error(`${name} did not complete`);
  return result.throughput.p50;
}

/** The median of `values` (the upper one of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Formats operations per second with thousands separators. */
export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** One line naming the date, the machine, Node and the load, for the results file. */
export function machineLine(): string {
  const cpu = os.cpus();
  return `${new Date().toISOString().slice(0, 10)} · ${cpu.length} cores (${cpu[0]?.model ?? 'unknown'}) · Node ${process.version} · load ${os.loadavg()[0]?.toFixed(1)}`;
}
