// Concurrent SphinxQL load for the Sphinx peer (benchmarks/peer-sphinx.ts), the counterpart of
// http-load.ts's autocannon run: N mysql2 connections for S seconds, each sending the next of
// a list of statements as soon as the previous one is answered, cycling through the list from
// its own starting offset. Every answered request's latency is recorded, so the percentiles
// are exact (nearest rank over the sorted samples), not read off a histogram. The client runs
// in the same Node process as the caller, as autocannon does for Folio's HTTP load.

import type { LoadResult } from './http-load.ts';
import { percentile } from './latency.ts';
import { closeSphinxQL, openSphinxQL, runSql } from './sphinxql.ts';
import type { SphinxQLConnection } from './sphinxql.ts';

const MAX_SECONDS = 120;
const MAX_CONNECTIONS = 1_000;

export interface SphinxQLLoadOptions {
  /** searchd's SphinxQL port on loopback. */
  port: number;
  statements: readonly string[];
  connections: number;
  seconds: number;
}

export async function runSphinxQLLoad(options: SphinxQLLoadOptions): Promise<LoadResult> {
  const { statements, connections, seconds } = options;
  if (!(seconds > 0 && seconds <= MAX_SECONDS)) throw new Error(`seconds must be in (0, ${MAX_SECONDS}]`);
  if (!(connections >= 1 && connections <= MAX_CONNECTIONS)) throw new Error('connections out of range');
  if (statements.length === 0) throw new Error('no statements to send');
  const opened: SphinxQLConnection[] = [];
  try {
    for (let i = 0; i < connections; i++) opened.push(await openSphinxQL(options.port));
    const samples: number[] = [];
    let errors = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const client = async (connection: SphinxQLConnection, offset: number): Promise<void> => {
      let next = offset;
      while (performance.now() < deadline) {
        const sql = statements[next];
        next = next + 1 === statements.length ? 0 : next + 1;
        const t0 = performance.now();
        try {
          await runSql(connection, sql);
          samples.push(performance.now() - t0);
        } catch (error) {
          errors++;
          // mysql2 marks an error that broke the connection fatal; every later query would
          // fail at once, over and over: this client stops.
          if ((error as { fatal?: boolean }).fatal === true) return;
        }
      }
    };
    await Promise.all(opened.map((connection, i) => client(connection, Math.floor((i * statements.length) / connections))));
    const durationSeconds = (performance.now() - started) / 1000;
    const sorted = Float64Array.from(samples).sort();
    return {
      requestsPerSecond: sorted.length / durationSeconds,
      totalRequests: sorted.length,
      // To 0.1 ms (autocannon's figures for Folio are whole milliseconds).
      p50Ms: roundTenth(percentile(sorted, 50)),
      p99Ms: roundTenth(percentile(sorted, 99)),
      maxMs: sorted.length > 0 ? roundTenth(sorted[sorted.length - 1]) : Number.NaN,
      errors,
      timeouts: 0,
      non2xx: 0,
      durationSeconds,
    };
  } finally {
    for (const connection of opened) closeSphinxQL(connection);
  }
}

function roundTenth(value: number): number {
  return Math.round(value * 10) / 10;
}
