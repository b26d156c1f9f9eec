// Issue 32's goals, as ratios to the search server and the engine measured in the same run:
// Folio over HTTP against Sphinx's searchd over its own wire (ids only, exact words: 1 and N
// connections, QPS and p99), Folio's full hits against searchd's ids-only QPS, Folio's engine in
// process against Lucene's, the import against a peer's build, and the server's peak RSS. Used
// by the GCIDE and the scaling benchmarks (`npm run bench:gcide`, `npm run bench:scale`).

import { atMost, ratioGoal } from './goals.ts';
import type { Goal } from './goals.ts';
import type { LoadResult } from './http-load.ts';
import type { LatencySummary } from './latency.ts';
import { MIB, count, mib, ms, seconds } from './markdown-table.ts';
import type { PeerResult } from './peer-process.ts';

export interface ServingFigures {
  connections: number;
  /** Folio over HTTP: `fields=id&typos=0` on one connection and under load; full hits likewise. */
  ids: LatencySummary | null;
  idsLoad: LoadResult | null;
  full: LatencySummary;
  fullLoad: LoadResult | null;
  /** Folio's engine in process (its `fields=id&typos=0` figures when it has them). */
  engine: PeerResult | null;
  sphinx: PeerResult | null;
  lucene: PeerResult | null;
  /** The import until searchable, against `importReference`'s build times `importFactor`. */
  importMs: number;
  importReference: { name: string; buildMs: number | null; factor: number };
  peakRss: number | null;
  /** A limit on the server's peak RSS, when the benchmark has one (GCIDE: 450 MiB). */
  peakRssLimitMib?: number;
  /** A limit on the load's p99 besides Sphinx's (the synthetic 1M: 100 ms). */
  idsLoadP99LimitMs?: number;
}

const qps = (value: number): string => `${count(value)} QPS`;
const NO_SPHINX = 'no Sphinx peer in this run';

export function servingGoals(f: ServingFigures): Goal[] {
  const sphinx = f.sphinx;
  const engineIds = f.engine === null ? null : (f.engine.idsLatency ?? f.engine.latency);
  const goals: Goal[] = [
    ratioGoal({
      what: 'one connection over HTTP, `fields=id&typos=0`: QPS', value: f.ids?.qps ?? null, reference: sphinx?.latency.qps ?? null,
      referenceName: "Sphinx searchd's QPS", factor: 1.0, better: 'higher', format: qps, missing: f.ids === null ? 'fields=id not measured' : NO_SPHINX,
    }),
    ratioGoal({
      what: 'one connection over HTTP, `fields=id&typos=0`: p99', value: f.ids?.p99Ms ?? null, reference: sphinx?.latency.p99Ms ?? null,
      referenceName: "Sphinx searchd's p99", factor: 1.0, better: 'lower', format: (v) => `${ms(v)} ms`, missing: f.ids === null ? 'fields=id not measured' : NO_SPHINX,
    }),
    ratioGoal({
      what: `${f.connections} connections over HTTP, \`fields=id&typos=0\`: requests/s`, value: f.idsLoad?.requestsPerSecond ?? null, reference: sphinx?.load?.requestsPerSecond ?? null,
      referenceName: "Sphinx searchd's", factor: 1.0, better: 'higher', format: (v) => `${count(v)}/s`, missing: f.idsLoad === null ? 'no load run' : NO_SPHINX,
    }),
    ratioGoal({
      what: `${f.connections} connections over HTTP, \`fields=id&typos=0\`: p99`, value: f.idsLoad?.p99Ms ?? null, reference: sphinx?.load?.p99Ms ?? null,
      referenceName: "Sphinx searchd's p99", factor: 1.0, better: 'lower', format: (v) => `${ms(v)} ms`, missing: f.idsLoad === null ? 'no load run' : NO_SPHINX,
    }),
  ];
  if (f.idsLoadP99LimitMs !== undefined) {
    goals.push(f.idsLoad === null
      ? { what: `${f.connections} connections, \`fields=id&typos=0\`: p99`, target: `≤ ${f.idsLoadP99LimitMs} ms`, measured: '—', verdict: 'not measured (no load run)' }
      : { what: `${f.connections} connections, \`fields=id&typos=0\`: p99`, target: `≤ ${f.idsLoadP99LimitMs} ms`, measured: `${ms(f.idsLoad.p99Ms)} ms`, verdict: atMost(f.idsLoad.p99Ms, f.idsLoadP99LimitMs, 'ms', 0) });
  }
  goals.push(
    ratioGoal({
      what: 'one connection over HTTP, full hits (default typo tolerance): QPS', value: f.full.qps, reference: sphinx?.latency.qps ?? null,
      referenceName: "Sphinx searchd's ids-only QPS", factor: 0.5, better: 'higher', format: qps, missing: NO_SPHINX,
    }),
    f.fullLoad === null
      ? { what: `${f.connections} connections, full hits: p99`, target: '≤ 100 ms', measured: '—', verdict: 'not measured (no load run)' }
      : { what: `${f.connections} connections, full hits: p99`, target: '≤ 100 ms', measured: `${ms(f.fullLoad.p99Ms)} ms`, verdict: atMost(f.fullLoad.p99Ms, 100, 'ms', 0) },
    ratioGoal({
      what: 'engine in process, `fields=id&typos=0`: QPS', value: engineIds?.qps ?? null, reference: f.lucene?.latency.qps ?? null,
      referenceName: "Lucene's QPS (in process)", factor: 1.0, better: 'higher', format: qps, missing: f.engine === null ? 'no engine peer in this run' : 'no Lucene peer in this run',
    }),
    ratioGoal({
      what: 'import over HTTP until searchable', value: f.importMs, reference: f.importReference.buildMs,
      referenceName: `${f.importReference.name}'s build`, factor: f.importReference.factor, better: 'lower', format: (v) => `${seconds(v)} s`,
      missing: `no ${f.importReference.name} peer in this run`,
    }),
  );
  if (f.peakRssLimitMib !== undefined) {
    goals.push({
      what: 'server peak RSS over the run', target: `≤ ${f.peakRssLimitMib} MiB`, measured: `${mib(f.peakRss)} MiB`,
      verdict: f.peakRss === null ? 'not measured' : atMost(f.peakRss / MIB, f.peakRssLimitMib, 'MiB', 0),
    });
  }
  return goals;
}
