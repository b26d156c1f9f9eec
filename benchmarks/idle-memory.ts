// Idle memory of a Folio server (issue 15 point 5: an empty server at most 100 MiB RSS). Starts
// the compiled server as a real process on an empty data directory and samples its resident
// set size (/proc/<pid>/status) and thread count once a second: right after it listens, and
// once V8's memory reducer has run (it shrinks the heap a few seconds after startup's burst of
// allocation). Then creates a collection (the search threads start), writes one document,
// searches it, and samples again after the same wait, so the report shows what each step
// costs. Linux only (/proc).
//
// `npm run bench:idle` (builds first); --seconds S (20) of idle sampling per phase; --smoke
// (3 s, for CI: checks the benchmark runs, asserts nothing about the figures).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_MASTER_KEY, folioCaller } from './folio-api.ts';
import { currentRssBytes } from './proc-memory.ts';
import { startServerProcess } from './server-process.ts';

const IDLE_GOAL_BYTES = 100 * 1024 * 1024;

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '20' }, smoke: { type: 'boolean', default: false } },
});
const seconds = args.smoke ? 3 : Number(args.seconds);
if (!(Number.isInteger(seconds) && seconds >= 1)) throw new Error('--seconds must be a positive integer');

interface Sample {
  rss: number;
  threads: number;
}

function sample(pid: number): Sample {
  const rss = currentRssBytes(pid);
  if (rss === null) throw new Error('no /proc/<pid>/status: this benchmark needs Linux');
  const threads = /^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { rss, threads: threads ? Number(threads[1]) : 0 };
}

/** Samples once a second for `seconds`; the first sample and the last. */
async function idleFor(pid: number, seconds: number): Promise<{ first: Sample; last: Sample }> {
  const first = sample(pid);
  let last = first;
  for (let i = 0; i < seconds; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    last = sample(pid);
  }
  return { first, last };
}

const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

const dataDir = mkdtempSync(join(tmpdir(), 'folio-idle-'));
const server = await startServerProcess(dataDir, BENCH_MASTER_KEY, ['--log-level', 'warn']);
const rows: string[] = [];
try {
  const pid = server.child.pid!;
  const call = folioCaller(server.url);
  const empty = await idleFor(pid, seconds);
  rows.push(`| empty server, just listening | ${mib(empty.first.rss)} | ${empty.first.threads} |`);
  rows.push(`| empty server, after ${seconds} s idle | ${mib(empty.last.rss)} | ${empty.last.threads} |`);

  await call('POST', '/v1/collections', JSON.stringify({ name: 'idle', language: 'english' }));
  await call('POST', '/v1/collections/idle/documents?refresh=true', JSON.stringify([{ id: 'a', text: 'an idle server' }]));
  await call('GET', '/v1/collections/idle/search?q=idle');
  const used = await idleFor(pid, seconds);
  rows.push(`| one collection, one document written and searched | ${mib(used.first.rss)} | ${used.first.threads} |`);
  rows.push(`| the same, after ${seconds} s idle | ${mib(used.last.rss)} | ${used.last.threads} |`);

  const verdict = empty.last.rss <= IDLE_GOAL_BYTES ? 'met' : 'missed';
  console.log(`Idle memory of \`folio serve\` (Node ${process.version}, ${new Date().toISOString().slice(0, 10)}):\n`);
  console.log('| state | RSS (MiB) | OS threads |\n| --- | --- | --- |');
  for (const row of rows) console.log(row);
  console.log(`\nGoal (issue 15): an empty server's idle RSS ≤ ${mib(IDLE_GOAL_BYTES)} MiB — ${verdict} (${mib(empty.last.rss)} MiB).`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
