// Sequential latency measurement shared by the throughput benchmarks: run every query once to
// warm up, then time each call over a number of passes, one at a time, and summarise the
// samples as p50, p99 (nearest rank) and queries per second (calls over total wall time).

export interface LatencySummary {
  /** Timed calls. */
  count: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** Calls per second over the timed passes' wall time. */
  qps: number;
}

/** Nearest-rank percentile (`p` in 0–100) of ascending `sorted`. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarise(samplesMs: number[], wallMs: number): LatencySummary {
  const sorted = Float64Array.from(samplesMs).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: sum / sorted.length,
    qps: sorted.length / (wallMs / 1000),
  };
}

/**
 * Calls `run` for each query, sequentially: one untimed warm-up pass, then `passes` timed
 * passes. `run` may return a promise (HTTP) or a value (in-process engines).
 */
export async function measureSequential<Q>(
  queries: readonly Q[],
  passes: number,
  run: (query: Q) => unknown,
): Promise<LatencySummary> {
  const call = async (query: Q): Promise<void> => {
    const result = run(query);
    if (result instanceof Promise) await result;
  };
  for (const query of queries) await call(query);
  const samples: number[] = [];
  const started = performance.now();
  for (let pass = 0; pass < passes; pass++) {
    for (const query of queries) {
      const t0 = performance.now();
      await call(query);
      samples.push(performance.now() - t0);
    }
  }
  return summarise(samples, performance.now() - started);
}

/**
 * Compares variants of the same workload (e.g. one search parameter set two ways) in one run:
 * one untimed warm-up pass of each, then `passes` rounds in which every variant runs one timed
 * pass, the order rotated each round so that none always runs first or after the same one.
 * QPS is a variant's calls over the wall time of its own passes.
 */
export async function measureAlternating<Q>(
  variants: readonly { queries: readonly Q[]; run: (query: Q) => unknown }[],
  passes: number,
): Promise<LatencySummary[]> {
  const call = async (run: (query: Q) => unknown, query: Q): Promise<void> => {
    const result = run(query);
    if (result instanceof Promise) await result;
  };
  for (const { queries, run } of variants) for (const query of queries) await call(run, query);
  const samples: number[][] = variants.map(() => []);
  const wallMs = variants.map(() => 0);
  for (let pass = 0; pass < passes; pass++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (k + pass) % variants.length;
      const { queries, run } = variants[index];
      const started = performance.now();
      for (const query of queries) {
        const t0 = performance.now();
        await call(run, query);
        samples[index].push(performance.now() - t0);
      }
      wallMs[index] += performance.now() - started;
    }
  }
  return variants.map((_, i) => summarise(samples[i], wallMs[i]));
}
