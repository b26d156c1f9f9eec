// The HTTP ceiling of the throughput benchmarks: the same sequential single-connection loop
// and the same autocannon run as against Folio, sent to an empty Fastify route in its own
// process (empty-fastify-server.ts), with the same paths and headers. Whatever Folio does
// beyond this is search, validation, logging and serialisation.

import { runLoad } from './http-load.ts';
import type { LoadResult } from './http-load.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { measureSequential } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { startListeningProcess } from './server-process.ts';

export interface CeilingOptions {
  paths: string[];
  headers: Record<string, string>;
  passes: number;
  connections: number;
  /** 0 skips the autocannon run. */
  seconds: number;
}

export interface CeilingResult {
  latency: LatencySummary;
  load: LoadResult | null;
}

export async function measureHttpCeiling(options: CeilingOptions): Promise<CeilingResult> {
  const server = await startListeningProcess(['--import', 'tsx', 'benchmarks/empty-fastify-server.ts']);
  try {
    const client = new KeepAliveClient(server.url, options.headers);
    let latency: LatencySummary;
    try {
      latency = await measureSequential(options.paths, options.passes, (path) => client.get(path));
    } finally {
      client.close();
    }
    const load =
      options.seconds > 0
        ? await runLoad({ url: server.url, paths: options.paths, connections: options.connections, seconds: options.seconds, headers: options.headers })
        : null;
    return { latency, load };
  } finally {
    await server.stop();
  }
}
