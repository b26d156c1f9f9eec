// Formatting for benchmark output: Markdown tables, the units they use (ms, MiB, counts), and
// the rows the throughput benchmarks share (import and index, sequential latency, load).

import type { LoadResult } from './http-load.ts';
import type { LatencySummary } from './latency.ts';
import type { PeerResult } from './peer-process.ts';

/** A Markdown table; cells are strings, the header row first. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const MIB = 1024 * 1024;

export function mib(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined || Number.isNaN(bytes) ? '—' : (bytes / MIB).toFixed(1);
}

export function ms(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits);
}

export function seconds(milliseconds: number | null | undefined): string {
  return milliseconds === null || milliseconds === undefined ? '—' : (milliseconds / 1000).toFixed(2);
}

/** 12345.6 → "12,346". */
export function count(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : Math.round(value).toLocaleString('en-US');
}

export const IMPORT_HEADER = ['engine', 'docs', 'build s', 'index MiB', 'peak RSS MiB', 'notes'];

/** A peer's row under IMPORT_HEADER. */
export function peerImportCells(peer: PeerResult, note: string): string[] {
  return [peer.engine, count(peer.docs), seconds(peer.buildMs), mib(peer.indexBytes), mib(peer.peakRssBytes), note];
}

export const LATENCY_HEADER = ['engine', 'p50 ms', 'p99 ms', 'mean ms', 'QPS', 'notes'];

/** A row under LATENCY_HEADER. */
export function latencyCells(name: string, latency: LatencySummary, note = ''): string[] {
  return [name, ms(latency.p50Ms, 3), ms(latency.p99Ms, 3), ms(latency.meanMs, 3), count(latency.qps), note];
}

export const LOAD_HEADER = ['target', 'requests/s', 'p50 ms', 'p99 ms', 'max ms', 'requests', 'errors / timeouts / non-2xx'];

/** A row under LOAD_HEADER. */
export function loadCells(name: string, load: LoadResult): string[] {
  return [
    name,
    count(load.requestsPerSecond),
    String(load.p50Ms),
    String(load.p99Ms),
    String(load.maxMs),
    `${count(load.totalRequests)} in ${load.durationSeconds.toFixed(1)} s`,
    `${load.errors} / ${load.timeouts} / ${load.non2xx}`,
  ];
}
