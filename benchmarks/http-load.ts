// Concurrent HTTP load with autocannon, for the throughput benchmarks: N connections for S
// seconds, each connection cycling through a list of GET paths. Only loopback targets are
// accepted and the run is bounded in time, so a load test never leaves the machine and always
// stops by itself. Latency percentiles come from autocannon's histogram (whole milliseconds).

import autocannon from 'autocannon';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const MAX_SECONDS = 120;
const MAX_CONNECTIONS = 1_000;

export interface LoadOptions {
  url: string;
  paths: readonly string[];
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
}

export interface LoadResult {
  /**
   * Completed requests over the run's measured duration. (autocannon's own "Req/Sec Avg" is a
   * mean of per-second samples; asked for 10 s, autocannon 9 here runs about 11 s and takes
   * 11 samples, so the two agree.)
   */
  requestsPerSecond: number;
  totalRequests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Connection errors, timeouts and non-2xx answers; any of them makes the figures suspect. */
  errors: number;
  timeouts: number;
  non2xx: number;
  durationSeconds: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  if (!LOOPBACK.has(target.hostname)) throw new Error(`load tests only target loopback, not ${target.hostname}`);
  if (!(options.seconds > 0 && options.seconds <= MAX_SECONDS)) throw new Error(`seconds must be in (0, ${MAX_SECONDS}]`);
  if (!(options.connections >= 1 && options.connections <= MAX_CONNECTIONS)) throw new Error('connections out of range');
  if (options.paths.length === 0) throw new Error('no paths to request');
  const result = await autocannon({
    url: target.origin,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    headers: options.headers ?? {},
    requests: options.paths.map((path) => ({ method: 'GET' as const, path })),
  });
  return {
    requestsPerSecond: result.requests.total / result.duration,
    totalRequests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    durationSeconds: result.duration,
  };
}
