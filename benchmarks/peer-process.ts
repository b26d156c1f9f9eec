// Runs one in-process engine of the throughput benchmarks (a "peer": SQLite FTS5, MiniSearch,
// Xapian, or Folio's own engine without HTTP) in a child process of its own, so its peak RSS
// is its own and nothing of the parent's heap is in it. The protocol, which any program can
// speak (benchmarks/peers/xapian_peer.py does, in Python): the child gets its input as one
// JSON argument (PeerInput; Infinity travels as null) and prints its result (PeerResult) as
// one JSON line starting with RESULT_PREFIX, then exits 0.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './http-load.ts';
import type { LatencySummary } from './latency.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const RESULT_PREFIX = 'PEER-RESULT ';

export interface PeerInput {
  /** Entries to index (Infinity: all), queries to run, timed passes over them. */
  docs: number;
  queries: number;
  passes: number;
  /** A scratch directory the peer may write its index to. */
  dir: string;
  /** The corpus (JSONL of `{id, title, text, metadata}`) and its queries (JSONL of `{text}`). */
  corpusFile: string;
  queriesFile: string;
  /** The engine peer: the collection to open under `dir` (default `gcide`). */
  collection?: string;
  /**
   * Where to keep the built index for later runs (peer-cache.ts): when it holds a build
   * record, the peer opens that index instead of building and reports the recorded build.
   */
  indexDir?: string | null;
  /**
   * A peer that is a server (Sphinx's searchd): also load it with this many connections for
   * this many seconds, each cycling through the queries; 0 seconds skips it.
   */
  connections?: number;
  seconds?: number;
}

export interface PeerResult {
  engine: string;
  /** A server queried over its own wire (Sphinx's searchd), rather than an engine in process. */
  server?: boolean;
  docs: number;
  buildMs: number | null;
  indexBytes: number | null;
  /** What indexBytes measures, e.g. "file on disk" or "heap growth". */
  indexBytesNote: string;
  /**
   * VmHWM of the peer process. For a cached index, the larger of the build run's (recorded
   * with the index) and this run's.
   */
  peakRssBytes: number | null;
  latency: LatencySummary;
  /** A peer that returns full hits by default (Folio's engine): the same with ids only. */
  idsLatency?: LatencySummary;
  /** A server peer under `connections` concurrent connections (PeerInput), when measured. */
  load?: LoadResult;
  /** Queries that failed (counted, not timed). */
  failedQueries: number;
  /** Set when the index came from the peer cache: when it was built (ISO 8601). */
  builtAt?: string | null;
}

/** How tables name a peer: what it is, and whether it answered in process or over a wire. */
export function peerLabel(peer: PeerResult): string {
  return `${peer.engine} ${peer.server === true ? '(a server, over its own wire)' : '(in process)'}`;
}

/** Parses the child's JSON argument (Infinity travels as null). */
export function peerInputFromArgv(): PeerInput {
  const raw = JSON.parse(process.argv[2] ?? '{}') as Omit<PeerInput, 'docs' | 'queries'> & { docs: number | null; queries: number | null };
  return { ...raw, docs: raw.docs ?? Infinity, queries: raw.queries ?? Infinity };
}

export function reportPeerResult(result: PeerResult): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** The JSON argument a peer gets. */
function peerArgument(input: PeerInput): string {
  return JSON.stringify({ ...input, docs: Number.isFinite(input.docs) ? input.docs : null, queries: Number.isFinite(input.queries) ? input.queries : null });
}

/**
 * Runs `command args… <input as JSON>` from the project root; resolves with the result line
 * it prints. `label` names it in errors.
 */
export function runPeerCommand(label: string, command: string, args: string[], input: PeerInput): Promise<PeerResult> {
  const child = spawn(command, [...args, peerArgument(input)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (code !== 0 || line === undefined) {
        reject(new Error(`${label} exited with code ${code}:\n${stderr}${stdout}`));
        return;
      }
      resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as PeerResult);
    });
  });
}

/** Runs `benchmarks/<script>` under tsx with `input`; resolves with its result. */
export function runPeer(script: string, input: PeerInput, nodeArgs: string[] = []): Promise<PeerResult> {
  return runPeerCommand(script, process.execPath, [...nodeArgs, '--import', 'tsx', `benchmarks/${script}`], input);
}
