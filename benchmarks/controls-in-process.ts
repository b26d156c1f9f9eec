// The engine's own cost of a search control (part of `npm run bench:controls`): the collection the
// server built, opened in process as the server does, and each query searched with and without the
// control in turn — rotating which goes first, so both sides meet the same caches and the same
// moment of a noisy machine — ids only, default typo tolerance (the route's own request builder).
// Gives µs a query (median of the passes after the first) and the ratio of the medians.

import { join } from 'node:path';
import { Analyzer, DEFAULT_TYPO_TOLERANCE, searchSegments } from '../engine/index.ts';
import { toSearchRequest } from '../server/http/routes/search/search-request.ts';
import type { SearchParams } from '../server/http/routes/search/search-request.ts';
import { SegmentSet } from '../server/indexing/segment-set.ts';
import { readManifest } from '../storage/index.ts';

export interface InProcessVariant {
  name: string;
  /** The search's query-string parameters besides `q` and `limit`. */
  params: Partial<SearchParams>;
}

export interface InProcessResult {
  name: string;
  /** Median µs a query over the measured passes. */
  micros: number;
  /** The first variant's median ÷ this one's (1 for the first). */
  ratio: number;
}

/** Each variant's cost on the queries, the first variant the base. */
export function measureInProcess(dataDir: string, collection: string, queries: readonly string[], variants: readonly InProcessVariant[], passes: number): InProcessResult[] {
  const dir = join(dataDir, 'collections', collection);
  const manifest = readManifest(dir);
  if (manifest === null) throw new Error(`no manifest in ${dir}`);
  const snapshot = SegmentSet.load(dir, manifest);
  const analyzer = Analyzer.for('english');
  try {
    const runs = variants.map(({ params }) => (q: string) =>
      searchSegments(snapshot.views, analyzer, { ...toSearchRequest({ q, limit: 10, fields: 'id', ...params } as SearchParams, 'querystring'), typoTolerance: DEFAULT_TYPO_TOLERANCE }));
    const perPass: number[][] = variants.map(() => []);
    // One warm-up pass, then the measured ones.
    for (let pass = 0; pass <= passes; pass++) {
      const nanos = variants.map(() => 0);
      for (let i = 0; i < queries.length; i++) {
        for (let turn = 0; turn < variants.length; turn++) {
          const v = (turn + i) % variants.length;
          const started = process.hrtime.bigint();
          runs[v](queries[i]);
          nanos[v] += Number(process.hrtime.bigint() - started);
        }
      }
      if (pass > 0) nanos.forEach((total, v) => perPass[v].push(total / 1_000 / queries.length));
    }
    const medians = perPass.map((list) => [...list].sort((a, b) => a - b)[list.length >> 1]);
    return variants.map(({ name }, v) => ({ name, micros: medians[v], ratio: medians[0] / medians[v] }));
  } finally {
    snapshot.closeAll();
  }
}
