/** The median of a sample, in the sample's unit. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds one call of `task` takes. */
async function timed(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

export interface Comparison {
  /** Median milliseconds of the measured task and of its baseline. */
  measured: number;
  baseline: number;
  ratio: number;
}

/**
 * Runs both tasks `rounds` times, alternating, after a warm-up, and compares their medians: alternating puts the
 * machine's noise on both sides, so the ratio holds where absolute times do not.
 */
export async function compare(measured: () => Promise<unknown>, baseline: () => Promise<unknown>, { rounds = 200, warmUp = 30 } = {}): Promise<Comparison> {
  for (let i = 0; i < warmUp; i++) {
    await measured();
    await baseline();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await timed(measured));
    b.push(await timed(baseline));
  }
  const comparison = { measured: median(a), baseline: median(b) };
  return { ...comparison, ratio: comparison.measured / comparison.baseline };
}

export interface Throughput {
  /** Completed calls per second. */
  perSecond: number;
  /** Milliseconds of this process's CPU (user and system) per completed call. */
  cpuMsPerCall: number;
}

/** Completed calls of `task` per second with `clients` concurrent loops for `seconds`, and this process's CPU per call. */
export async function throughput(task: () => Promise<unknown>, { clients, seconds }: { clients: number; seconds: number }): Promise<Throughput> {
  const until = performance.now() + seconds * 1000;
  const cpu = process.cpuUsage();
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        await task();
        done++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  return { perSecond: done / seconds, cpuMsPerCall: cpuMs / done };
}

/** Slices of equal length as one run: calls per second on average, CPU per call over all their calls. */
export function combined(slices: Throughput[]): Throughput {
  const calls = slices.reduce((sum, slice) => sum + slice.perSecond, 0);
  return { perSecond: calls / slices.length, cpuMsPerCall: slices.reduce((sum, slice) => sum + slice.cpuMsPerCall * slice.perSecond, 0) / calls };
}

/** Runs `task(i)` for i below `count`, with `concurrency` at a time. */
export async function inParallel(count: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
