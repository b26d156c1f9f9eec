// The Folio part of the GCIDE benchmark, over HTTP against a real server process: create a
// collection, import the corpus as NDJSON batches and time it until `POST …/refresh` answers
// (fully searchable), measure the index on disk and the server's peak RSS, time sequential
// searches on one keep-alive connection, then load it with autocannon (N connections cycling
// through the queries). The server is stopped before returning; its data directory is kept
// for the in-process engine peer.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from './http-load.ts';
import type { LoadResult } from './http-load.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { measureAlternating, measureSequential } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { currentRssBytes, peakRssBytes } from './proc-memory.ts';
import { startServerProcess } from './server-process.ts';

export const COLLECTION = 'gcide';
const MASTER_KEY = 'folio_' + 'b'.repeat(40);
/** The header every request to the benchmark's server carries (the empty route gets it too). */
export const AUTH_HEADERS: Readonly<Record<string, string>> = Object.freeze({ authorization: `Bearer ${MASTER_KEY}` });

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

export interface IndexFiles {
  segments: number;
  deletes: number;
  wal: number;
  other: number;
  total: number;
  segmentCount: number;
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
  typoCost: TypoCost | null;
  load: LoadResult | null;
  phases: { import: PhaseWindow; search: PhaseWindow; load: PhaseWindow | null };
}

/** Bytes under a collection directory, by kind of file. */
export function indexFiles(collectionDir: string): IndexFiles {
  const files: IndexFiles = { segments: 0, deletes: 0, wal: 0, other: 0, total: 0, segmentCount: 0 };
  const walk = (dir: string, inWal: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path, inWal || entry.name === 'wal');
        continue;
      }
      const size = statSync(path).size;
      files.total += size;
      if (inWal) files.wal += size;
      else if (entry.name.endsWith('.fseg')) {
        files.segments += size;
        files.segmentCount++;
      } else if (/\.del-\d+$/.test(entry.name)) files.deletes += size;
      else files.other += size;
    }
  };
  walk(collectionDir, false);
  return files;
}

export function searchPath(query: string): string {
  return `/v1/collections/${COLLECTION}/search?q=${encodeURIComponent(query)}&limit=10`;
}

const SETTLE_POLL_MS = 250;
/** The segment count must hold this long to count as settled. */
const SETTLE_QUIET_MS = 2_000;
const SETTLE_LIMIT_MS = 120_000;

/**
 * Waits until merges started by the import are done (the segment count stops changing), so the
 * search phases measure the index as it stays, not merges competing for the cores. Returns the
 * time until the last change.
 */
async function waitForMergesToSettle(info: () => Promise<{ segments: number }>): Promise<number> {
  const started = performance.now();
  let lastChange = started;
  let segments = (await info()).segments;
  while (performance.now() - lastChange < SETTLE_QUIET_MS && performance.now() - started < SETTLE_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const now = (await info()).segments;
    if (now !== segments) {
      segments = now;
      lastChange = performance.now();
    }
  }
  return lastChange - started;
}

export async function runFolio(options: FolioRunOptions): Promise<FolioRunResult> {
  const server = await startServerProcess(options.dataDir, MASTER_KEY, options.serverArgs, options.nodeArgs);
  const auth = { ...AUTH_HEADERS };
  const call = async (method: string, path: string, body?: string, contentType = 'application/json'): Promise<any> => {
    const response = await fetch(server.url + path, { method, headers: { ...auth, 'content-type': contentType }, body });
    const json = await response.json().catch(() => null);
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    await call('POST', '/v1/collections', JSON.stringify({ name: COLLECTION, language: 'english' }));
    const batches: string[] = [];
    for (let i = 0; i < options.docLines.length; i += options.batchSize) {
      batches.push(options.docLines.slice(i, i + options.batchSize).join('\n'));
    }
    const rssBeforeImport = currentRssBytes(server.child.pid!);
    const importFrom = nowMicros();
    const started = performance.now();
    for (const batch of batches) await call('POST', `/v1/collections/${COLLECTION}/documents`, batch, 'application/x-ndjson');
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
    let typoCost: TypoCost | null = null;
    const searchFrom = nowMicros();
    try {
      latency = await measureSequential(paths, options.passes, (path) => client.get(path));
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
      batches: Math.ceil(options.docLines.length / options.batchSize),
      importMs,
      settleMs,
      sizeBytes: info.size_bytes,
      files,
      rssBeforeImport,
      peakRssAfterImport,
      peakRss: peakRssBytes(server.child.pid!),
      latency,
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
