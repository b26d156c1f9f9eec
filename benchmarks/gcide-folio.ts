// The Folio part of the GCIDE benchmark, over HTTP against a real server process: create a
// collection, import the corpus as NDJSON batches and time it until `POST …/refresh` answers
// (fully searchable), measure the index on disk and the server's peak RSS, time sequential
// searches on one keep-alive connection (full hits, then `fields=id`), then load it with autocannon (N connections cycling
// through the queries). The server is stopped before returning; its data directory is kept
// for the in-process engine peer.

import { join } from 'node:path';
import { FIELDS_ID_UNSUPPORTED, supportsFieldsId, withFieldsId } from './fields-id.ts';
import { AUTH_HEADERS, BENCH_MASTER_KEY, folioCaller } from './folio-api.ts';
import { runLoad } from './http-load.ts';
import type { LoadResult } from './http-load.ts';
import { indexFiles } from './index-files.ts';
import type { IndexFiles } from './index-files.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { measureAlternating, measureSequential } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { waitForMergesToSettle } from './merge-settle.ts';
import { importNdjson } from './ndjson-import.ts';
import type { ImportResult } from './ndjson-import.ts';
import { currentRssBytes, peakRssBytes } from './proc-memory.ts';
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

/** When a phase ran, in µs of the monotonic clock that CPU profiles use too. */
export interface PhaseWindow {
  fromMicros: number;
  toMicros: number;
}

function nowMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export interface FolioRunResult {
  docs: number;
  batches: number;
  /** Retries, the longest request. */
  imported: ImportResult;
  importMs: number;
  /** From the end of the import until background merges stopped changing the segment count. */
  settleMs: number;
  /** `size_bytes` of GET /v1/collections/gcide right after the refresh, and the files then. */
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
  phases: { import: PhaseWindow; search: PhaseWindow; load: PhaseWindow | null };
}

export function searchPath(query: string): string {
  return `/v1/collections/${COLLECTION}/search?q=${encodeURIComponent(query)}&limit=10`;
}

export async function runFolio(options: FolioRunOptions): Promise<FolioRunResult> {
  const server = await startServerProcess(options.dataDir, BENCH_MASTER_KEY, options.serverArgs, options.nodeArgs);
  const auth = { ...AUTH_HEADERS };
  const call = folioCaller(server.url);
  try {
    await call('POST', '/v1/collections', JSON.stringify({ name: COLLECTION, language: 'english' }));
    const batches: string[] = [];
    for (let i = 0; i < options.docLines.length; i += options.batchSize) {
      batches.push(options.docLines.slice(i, i + options.batchSize).join('\n'));
    }
    const rssBeforeImport = currentRssBytes(server.child.pid!);
    const importFrom = nowMicros();
    const started = performance.now();
    const imported = await importNdjson({ url: server.url, headers: auth, collection: COLLECTION, batches });
    await call('POST', `/v1/collections/${COLLECTION}/refresh`, '');
    const importMs = performance.now() - started;
    const importTo = nowMicros();
    batches.length = 0;

    const settleMs = await waitForMergesToSettle(() => call('GET', `/v1/collections/${COLLECTION}`));
    const info = await call('GET', `/v1/collections/${COLLECTION}`);
    if (info.documents !== options.docLines.length) throw new Error(`expected ${options.docLines.length} documents, the server has ${info.documents}`);
    const files = indexFiles(join(options.dataDir, 'collections', COLLECTION));
    const peakRssAfterImport = peakRssBytes(server.child.pid!);

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
    return {
      docs: info.documents,
      batches: imported.batches,
      imported,
      importMs,
      settleMs,
      sizeBytes: info.size_bytes,
      files,
      rssBeforeImport,
      peakRssAfterImport,
      peakRss: peakRssBytes(server.child.pid!),
      latency,
      idsOnly,
      typoCost,
      load,
      phases: {
        import: { fromMicros: importFrom, toMicros: importTo },
        search: { fromMicros: searchFrom, toMicros: searchTo },
        load: load === null ? null : { fromMicros: loadFrom, toMicros: loadTo },
      },
    };
  } finally {
    await server.stop();
  }
}
