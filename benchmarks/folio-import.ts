// The import phase of the Folio throughput benchmarks, against a server they started: create
// a collection, send the corpus as NDJSON batches (ndjson-import.ts), time it until `POST
// …/refresh` answers (fully searchable), wait for background merges to settle, check the
// document count, and measure the index on disk and the server's memory along the way.
// Optionally a stall probe (one cheap search every 200 ms) runs during the import.

import { join } from 'node:path';
import { AUTH_HEADERS, folioCaller } from './folio-api.ts';
import { indexFiles } from './index-files.ts';
import type { IndexFiles } from './index-files.ts';
import { waitForMergesToSettle } from './merge-settle.ts';
import { importNdjson } from './ndjson-import.ts';
import type { ImportResult } from './ndjson-import.ts';
import { anonymousRssBytes, currentRssBytes, peakRssBytes, sampleAnonymousRss } from './proc-memory.ts';
import type { ListeningProcess } from './server-process.ts';
import { startStallProbe } from './stall-probe.ts';
import type { ProbeResult } from './stall-probe.ts';

/** When a phase ran, in µs of the monotonic clock that CPU profiles use too. */
export interface PhaseWindow {
  fromMicros: number;
  toMicros: number;
}

export function nowMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

const PROBE_INTERVAL_MS = 200;

export interface CollectionImportOptions {
  server: ListeningProcess;
  /** The server's data directory (the collection's files are under it). */
  dataDir: string;
  collection: string;
  /** NDJSON bodies, one request each. */
  batches: Iterable<string> | AsyncIterable<string>;
  /** Documents the collection must hold afterwards. */
  expectedDocs: number;
  /** Run the stall probe during the import. */
  probe: boolean;
  /** The longest wait for merges to settle (default 2 min). */
  settleLimitMs?: number;
}

export interface CollectionImport {
  documents: number;
  /** `size_bytes` of GET /v1/collections/{c} once merges settled. */
  sizeBytes: number;
  imported: ImportResult;
  probe: ProbeResult | null;
  /** Until `POST …/refresh` answered. */
  importMs: number;
  window: PhaseWindow;
  /** From the end of the import until background merges stopped changing the segment count. */
  settleMs: number;
  files: IndexFiles;
  /** The server's RSS with the collection still empty; VmHWM when the refresh answered and once merges settled. */
  rssBeforeImport: number | null;
  peakRssAtRefresh: number | null;
  peakRssSettled: number | null;
  /** RssAnon when the refresh answered, and its largest sample (every 200 ms) during the import. */
  anonRssAtRefresh: number | null;
  peakAnonRssImport: number | null;
}

/** NDJSON lines as the bodies of batch writes of `size` documents each. */
export function ndjsonBatches(lines: readonly string[], size = 5_000): string[] {
  const batches: string[] = [];
  for (let i = 0; i < lines.length; i += size) batches.push(lines.slice(i, i + size).join('\n'));
  return batches;
}

export async function importCollection(options: CollectionImportOptions): Promise<CollectionImport> {
  const { server, collection } = options;
  const call = folioCaller(server.url);
  const pid = server.child.pid!;
  await call('POST', '/v1/collections', JSON.stringify({ name: collection, language: 'english' }));
  const rssBeforeImport = currentRssBytes(pid);
  const probe = options.probe
    ? startStallProbe(server.url, `/v1/collections/${collection}/search?q=x&limit=1`, { ...AUTH_HEADERS }, PROBE_INTERVAL_MS)
    : null;
  const anonSampler = sampleAnonymousRss(pid);
  const fromMicros = nowMicros();
  const started = performance.now();
  let imported: ImportResult;
  let probed: ProbeResult | null = null;
  try {
    imported = await importNdjson({ url: server.url, headers: { ...AUTH_HEADERS }, collection, batches: options.batches });
    await call('POST', `/v1/collections/${collection}/refresh`, '');
  } finally {
    if (probe !== null) probed = await probe.stop();
  }
  const importMs = performance.now() - started;
  const window = { fromMicros, toMicros: nowMicros() };
  const peakRssAtRefresh = peakRssBytes(pid);
  const anonRssAtRefresh = anonymousRssBytes(pid);
  const peakAnonRssImport = anonSampler.stop();

  const info = (): Promise<{ segments: number; documents: number; size_bytes: number }> => call('GET', `/v1/collections/${collection}`);
  const settleMs = await waitForMergesToSettle(info, options.settleLimitMs, pid);
  const settled = await info();
  if (settled.documents !== options.expectedDocs) throw new Error(`expected ${options.expectedDocs} documents, the server has ${settled.documents}`);
  return {
    documents: settled.documents,
    sizeBytes: settled.size_bytes,
    imported,
    probe: probed,
    importMs,
    window,
    settleMs,
    files: indexFiles(join(options.dataDir, 'collections', collection)),
    rssBeforeImport,
    peakRssAtRefresh,
    peakRssSettled: peakRssBytes(pid),
    anonRssAtRefresh,
    peakAnonRssImport,
  };
}
