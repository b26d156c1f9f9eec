// The Folio part of `npm run bench:scale`, for one corpus size, against a real server process
// with its search cache off: import the corpus over HTTP as NDJSON batches streamed from the
// file (429/503 answers waited out and retried) while a probe sends one cheap search every
// 200 ms; time it until `POST …/refresh` answers; wait for merges; measure the index on disk
// and the server's peak RSS (VmHWM) at the end of the import and over the whole run. Then
// time sequential searches on one keep-alive connection — `fields=id`, full hits, and full
// hits with a filter and 3 facets, passes alternating — and load it with autocannon. The
// server is stopped before returning; its data directory is kept for the engine peer.

import { FIELDS_ID_UNSUPPORTED, supportsFieldsId, withFieldsId } from './fields-id.ts';
import { AUTH_HEADERS, BENCH_MASTER_KEY } from './folio-api.ts';
import { importCollection } from './folio-import.ts';
import { runLoad } from './http-load.ts';
import type { LoadResult } from './http-load.ts';
import type { IndexFiles } from './index-files.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { measureAlternating } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { ndjsonBatches } from './ndjson-import.ts';
import type { ImportResult } from './ndjson-import.ts';
import { peakRssBytes } from './proc-memory.ts';
import { startServerProcess } from './server-process.ts';
import type { ProbeResult } from './stall-probe.ts';

export const SCALE_COLLECTION = 'synthetic';
/** The filtered search: in stock and from 2015 on, counting three facets. */
export const SCALE_FILTER = '{"in_stock":true,"year":{"gte":2015}}';
export const SCALE_FACETS = 'category,year,tags';
/** Merges after a 1M import can take minutes; the search phases wait at most this long. */
const SETTLE_LIMIT_MS = 600_000;

export interface ScaleFolioOptions {
  dataDir: string;
  corpusFile: string;
  /** Documents the corpus has (checked against the collection after the import). */
  docs: number;
  batchSize: number;
  queries: string[];
  passes: number;
  connections: number;
  /** autocannon seconds; 0 skips the load test. */
  seconds: number;
  serverArgs: string[];
}

export interface ScaleFolioResult {
  docs: number;
  importMs: number;
  imported: ImportResult;
  probe: ProbeResult;
  settleMs: number;
  files: IndexFiles;
  rssBeforeImport: number | null;
  /** VmHWM when the refresh answered, and at the end of the run. */
  peakRssImport: number | null;
  /** RssAnon when the refresh answered, and its peak sampled during the import. */
  anonRssImport: number | null;
  peakAnonRssImport: number | null;
  peakRss: number | null;
  /** `fields=id`, or why it was not measured. */
  ids: LatencySummary | string;
  full: LatencySummary;
  filtered: LatencySummary;
  load: LoadResult | null;
  /** The same load with `fields=id&typos=0` (issue 32), when measured. */
  idsLoad: LoadResult | null;
}

export function scaleSearchPath(query: string): string {
  return `/v1/collections/${SCALE_COLLECTION}/search?q=${encodeURIComponent(query)}&limit=10`;
}

function filteredPath(path: string): string {
  return `${path}&filter=${encodeURIComponent(SCALE_FILTER)}&facets=${SCALE_FACETS}`;
}

export async function runScaleFolio(options: ScaleFolioOptions): Promise<ScaleFolioResult> {
  const server = await startServerProcess(options.dataDir, BENCH_MASTER_KEY, ['--search-cache-mb', '0', ...options.serverArgs]);
  const auth = { ...AUTH_HEADERS };
  try {
    const loaded = await importCollection({
      server,
      dataDir: options.dataDir,
      collection: SCALE_COLLECTION,
      batches: ndjsonBatches(options.corpusFile, options.batchSize),
      expectedDocs: options.docs,
      probe: true,
      settleLimitMs: SETTLE_LIMIT_MS,
    });

    const paths = options.queries.map(scaleSearchPath);
    const client = new KeepAliveClient(server.url, auth);
    const get = (path: string): Promise<number> => client.get(path);
    let ids: LatencySummary | string = FIELDS_ID_UNSUPPORTED;
    let full: LatencySummary;
    let filtered: LatencySummary;
    try {
      const withIds = paths.length > 0 && (await supportsFieldsId(client, paths[0]));
      const variants = [
        { queries: paths, run: get },
        { queries: paths.map(filteredPath), run: get },
        ...(withIds ? [{ queries: paths.map(withFieldsId), run: get }] : []),
      ];
      const summaries = await measureAlternating(variants, options.passes);
      [full, filtered] = summaries;
      if (withIds) ids = summaries[2];
    } finally {
      client.close();
    }
    const load =
      options.seconds > 0
        ? await runLoad({ url: server.url, paths, connections: options.connections, seconds: options.seconds, headers: auth })
        : null;
    const idsLoad =
      options.seconds > 0 && typeof ids !== 'string'
        ? await runLoad({ url: server.url, paths: paths.map(withFieldsId), connections: options.connections, seconds: options.seconds, headers: auth })
        : null;
    return {
      docs: loaded.documents,
      importMs: loaded.importMs,
      imported: loaded.imported,
      probe: loaded.probe!,
      settleMs: loaded.settleMs,
      files: loaded.files,
      rssBeforeImport: loaded.rssBeforeImport,
      peakRssImport: loaded.peakRssAtRefresh,
      anonRssImport: loaded.anonRssAtRefresh,
      peakAnonRssImport: loaded.peakAnonRssImport,
      peakRss: peakRssBytes(server.child.pid!),
      ids,
      full,
      filtered,
      load,
      idsLoad,
    };
  } finally {
    await server.stop();
  }
}
