// Sphinx's programs as child processes of the Sphinx peer (benchmarks/peer-sphinx.ts):
// `indexer --all`, timed, with its peak RSS (VmHWM, read from /proc while it runs: the process
// is gone once it has exited), and `searchd --nodetach`, started, waited for until it answers
// SphinxQL, and stopped (SIGTERM, then SIGKILL after a timeout). Every child still running when
// this process exits or is interrupted is killed, so none is ever left behind.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { peakRssBytes } from './proc-memory.ts';
import { closeSphinxQL, openSphinxQL, runSql } from './sphinxql.ts';

const RSS_POLL_MS = 5;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

const running = new Set<ChildProcess>();

function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

// Exiting: whatever still runs is killed. Interrupted: it is stopped as stopSearchd does, then
// this process exits as the signal would have ended it.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
const SIGNAL_CODES = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
let signalled = false;
for (const signal of Object.keys(SIGNAL_CODES) as (keyof typeof SIGNAL_CODES)[]) {
  process.once(signal, () => {
    signalled = true;
    process.exitCode = 128 + SIGNAL_CODES[signal];
    void Promise.all([...running].map((child) => stopChild(child))).finally(() => process.exit(128 + SIGNAL_CODES[signal]));
  });
}

/** Whether this process has been interrupted (it is stopping its children and exiting). */
export function interrupted(): boolean {
  return signalled;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export interface IndexerRun {
  /** Wall time of the whole run, the tsvpipe command included. */
  buildMs: number;
  /** Documents the indexer reports having indexed. */
  docs: number;
  /** The indexer's VmHWM as last read before it exited. */
  peakRssBytes: number | null;
}

/** Runs `indexer --config <configFile> --all`; rejects, with its output, unless it succeeds. */
export function runIndexer(indexer: string, configFile: string): Promise<IndexerRun> {
  const started = performance.now();
  const child = spawn(indexer, ['--config', configFile, '--all'], { stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let peak: number | null = null;
  const poll = (): void => {
    const rss = child.pid === undefined ? null : peakRssBytes(child.pid);
    if (rss !== null) peak = Math.max(peak ?? 0, rss);
  };
  const poller = setInterval(poll, RSS_POLL_MS);
  poll();
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      clearInterval(poller);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearInterval(poller);
      const buildMs = performance.now() - started;
      const docs = /^total (\d+) docs/m.exec(output);
      if (code !== 0 || docs === null || /^(ERROR|FATAL):/m.test(output)) {
        reject(new Error(`indexer failed (code ${code}, signal ${signal}):\n${output}`));
        return;
      }
      resolve({ buildMs, docs: Number(docs[1]), peakRssBytes: peak });
    });
  });
}

export interface Searchd {
  child: ChildProcess;
  pid: number;
  port: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts `searchd --config <configFile> --nodetach` (its console output goes to `outputFile`)
 * and resolves once it answers `sql` on `port`; rejects, having stopped it, if it does not.
 * Connections are retried until READY_TIMEOUT_MS (searchd accepts them only once its indexes
 * are loaded); an error answer to `sql` is not.
 */
export async function startSearchd(searchd: string, configFile: string, port: number, outputFile: string, sql: string): Promise<Searchd> {
  const out = openSync(outputFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(searchd, ['--config', configFile, '--nodetach'], { stdio: ['ignore', out, out] });
  } finally {
    closeSync(out);
  }
  track(child);
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const failure = (why: string): Error => new Error(`searchd ${why}:\n${readFileSync(outputFile, 'utf8')}`);
  try {
    await spawned;
    const deadline = performance.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (exited(child)) throw failure(`exited (code ${child.exitCode}, signal ${child.signalCode}) before answering`);
      let connection;
      try {
        connection = await openSphinxQL(port);
      } catch (error) {
        if (performance.now() > deadline) throw failure(`did not answer on port ${port} within ${READY_TIMEOUT_MS / 1000} s (${(error as Error).message})`);
        await sleep(50);
        continue;
      }
      try {
        await runSql(connection, sql);
      } catch (error) {
        throw failure(`answered ${JSON.stringify(sql)} with an error (${(error as Error).message})`);
      } finally {
        closeSphinxQL(connection);
      }
      return { child, pid: child.pid!, port };
    }
  } catch (error) {
    await stopSearchd(child);
    throw error;
  }
}

/** SIGTERM, then SIGKILL if it has not exited after STOP_TIMEOUT_MS; resolves once it has. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  child.kill('SIGTERM');
  if (await waitForExit(child, STOP_TIMEOUT_MS)) return;
  child.kill('SIGKILL');
  await waitForExit(child, STOP_TIMEOUT_MS);
}

export function stopSearchd(child: ChildProcess): Promise<void> {
  return stopChild(child);
}
