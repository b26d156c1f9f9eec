// The Folio part of the GCIDE benchmark, over HTTP against a real server process: create a
// collection, import the corpus as NDJSON batches and time it until `POST …/refresh` answers
// (fully searchable; folio-import.ts), measure the index on disk and the server's peak RSS,
// time sequential searches on one keep-alive connection (full hits, then `fields=id`), then
// load it with autocannon (N connections cycling through the queries: full hits, then `fields=id`). The server is stopped before returning; its data directory is kept
// for the in-process engine peer.

import { FIELDS_ID_UNSUPPORTED, supportsFieldsId, withFieldsId } from './fields-id.ts';
import { AUTH_HEADERS, BENCH_MASTER_KEY } from './folio-api.ts';
import { importCollection, nowMicros } from './folio-import.ts';
import type { PhaseWindow } from './folio-import.ts';
import { runLoad } from './http-load.ts';
import type { LoadResult } from './http-load.ts';
import type { IndexFiles } from './index-files.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { measureAlternating, measureSequential } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import type { ImportResult } from './ndjson-import.ts';
import { peakRssBytes } from './proc-memory.ts';
import { startServerProcess } from './server-process.ts';

export const COLLECTION = 'gcide';

export interface FolioRunOptions {
  dataDir: string;
  /** Corpus lines, already `{id, title, text, metadata}` JSON: sent as they are. */
  docLines: string[];
  batchSize: number;
  queries: string[];
  passes: number;
  /** autocannon: connections and seconds; seconds 0 skips the load test. */
  connections: number;
  seconds: number;
  /** Extra `folio serve` flags and Node flags (e.g. --cpu-prof). */
  serverArgs: string[];
  nodeArgs: string[];
  /**
   * After the sequential search, measure the same queries with `typos=0` and `typos=auto`
   * against the same server, passes alternating (issue 14: the cost of typo tolerance).
   */
  typoCost?: boolean;
}

/** Sequential search with typo tolerance off and on (the default), same server, same run. */
export interface TypoCost {
  off: LatencySummary;
  auto: LatencySummary;
}

export interface FolioRunResult {
  docs: number;
  batches: number;
  /** Retries, the longest request. */
  imported: ImportResult;
  importMs: number;
  /** From the end of the import until background merges stopped changing the segment count. */
  settleMs: number;
  /** `size_bytes` of GET /v1/collections/gcide once merges settled, and the files then. */
  sizeBytes: number;
  files: IndexFiles;
  /** The server's RSS once started, with an empty collection. */
  rssBeforeImport: number | null;
  peakRssAfterImport: number | null;
  peakRss: number | null;
  latency: LatencySummary;
  /** The same searches with `fields=id` (hits carry only id and score), or why not measured. */
  idsOnly: LatencySummary | string;
  typoCost: TypoCost | null;
  load: LoadResult | null;
  /** The same load with `fields=id&typos=0` (issue 32's comparison with Sphinx), when measured. */
  idsLoad: LoadResult | null;
  phases: { import: PhaseWindow; search: PhaseWindow; load: PhaseWindow | null };
}

export function searchPath(query: string): string {
  return `/v1/collections/${COLLECTION}/search?q=${encodeURIComponent(query)}&limit=10`;
}

export async function runFolio(options: FolioRunOptions): Promise<FolioRunResult> {
  const server = await startServerProcess(options.dataDir, BENCH_MASTER_KEY, options.serverArgs, options.nodeArgs);
  const auth = { ...AUTH_HEADERS };
  try {
    const batches: string[] = [];
    for (let i = 0; i < options.docLines.length; i += options.batchSize) {
      batches.push(options.docLines.slice(i, i + options.batchSize).join('\n'));
    }
    const loaded = await importCollection({
      server, dataDir: options.dataDir, collection: COLLECTION, batches, expectedDocs: options.docLines.length, probe: false,
    });
    batches.length = 0;

    const paths = options.queries.map(searchPath);
    const client = new KeepAliveClient(server.url, auth);
    let latency: LatencySummary;
    let idsOnly: LatencySummary | string = FIELDS_ID_UNSUPPORTED;
    let typoCost: TypoCost | null = null;
    const searchFrom = nowMicros();
    try {
      latency = await measureSequential(paths, options.passes, (path) => client.get(path));
      if (paths.length > 0 && (await supportsFieldsId(client, paths[0]))) {
        idsOnly = await measureSequential(paths.map(withFieldsId), options.passes, (path) => client.get(path));
      }
      if (options.typoCost) {
        const get = (path: string): Promise<number> => client.get(path);
        const [off, auto] = await measureAlternating(
          [
            { queries: paths.map((path) => `${path}&typos=0`), run: get },
            { queries: paths.map((path) => `${path}&typos=auto`), run: get },
          ],
          options.passes,
        );
        typoCost = { off, auto };
      }
    } finally {
      client.close();
    }
    const searchTo = nowMicros();

    const loadFrom = nowMicros();
    const load =
      options.seconds > 0
        ? await runLoad({ url: server.url, paths, connections: options.connections, seconds: options.seconds, headers: auth })
        : null;
    const loadTo = nowMicros();
    const idsLoad =
      options.seconds > 0 && typeof idsOnly !== 'string'
        ? await runLoad({ url: server.url, paths: paths.map(withFieldsId), connections: options.connections, seconds: options.seconds, headers: auth })
        : null;
    return {
      docs: loaded.documents,
      batches: loaded.imported.batches,
      imported: loaded.imported,
      importMs: loaded.importMs,
      settleMs: loaded.settleMs,
      sizeBytes: loaded.sizeBytes,
      files: loaded.files,
      rssBeforeImport: loaded.rssBeforeImport,
      peakRssAfterImport: loaded.peakRssSettled,
      peakRss: peakRssBytes(server.child.pid!),
      latency,
      idsOnly,
      typoCost,
      load,
      idsLoad,
      phases: {
        import: loaded.window,
        search: { fromMicros: searchFrom, toMicros: searchTo },
        load: load === null ? null : { fromMicros: loadFrom, toMicros: loadTo },
      },
    };
  } finally {
    await server.stop();
  }
}
