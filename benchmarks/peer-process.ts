// Runs one in-process engine of the GCIDE benchmark (a "peer": SQLite FTS5, MiniSearch, or
// Folio's own engine without HTTP) in a child process of its own, so its peak RSS is its own
// and nothing of the parent's heap is in it. The child gets its input as one JSON argument
// and prints its result as one JSON line starting with RESULT_PREFIX.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
}

export interface PeerResult {
  engine: string;
  docs: number;
  buildMs: number | null;
  indexBytes: number | null;
  /** What indexBytes measures, e.g. "file on disk" or "heap growth". */
  indexBytesNote: string;
  peakRssBytes: number | null;
  latency: LatencySummary;
  /** Queries that failed (counted, not timed). */
  failedQueries: number;
}

/** Parses the child's JSON argument (Infinity travels as null). */
export function peerInputFromArgv(): PeerInput {
  const raw = JSON.parse(process.argv[2] ?? '{}') as { docs: number | null; queries: number | null; passes: number; dir: string };
  return { docs: raw.docs ?? Infinity, queries: raw.queries ?? Infinity, passes: raw.passes, dir: raw.dir };
}

export function reportPeerResult(result: PeerResult): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** Runs `benchmarks/<script>` under tsx with `input`; resolves with its result. */
export function runPeer(script: string, input: PeerInput, nodeArgs: string[] = []): Promise<PeerResult> {
  const argument = JSON.stringify({ ...input, docs: Number.isFinite(input.docs) ? input.docs : null, queries: Number.isFinite(input.queries) ? input.queries : null });
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', `benchmarks/${script}`, argument], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (code !== 0 || line === undefined) {
        reject(new Error(`${script} exited with code ${code}:\n${stderr}${stdout}`));
        return;
      }
      resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as PeerResult);
    });
  });
}
