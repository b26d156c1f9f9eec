// A short seeded run of the HTTP fuzzer (test/fuzz/http-fuzzer.ts) on every `npm test`, against
// a real `folio serve` child process: no 5xx, every error a problem with its status, the
// server alive afterwards and its peak memory bounded. `npm run fuzz` runs longer ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { peakRssBytes } from '../../benchmarks/proc-memory.ts';
import { startServerProcess } from '../../benchmarks/server-process.ts';
import { TEST_MASTER_KEY } from '../helpers/test-server.ts';
import { runHttpFuzz } from './http-fuzzer.ts';

const SEED = 18;
const REQUESTS = 1_500;
/** The server's peak resident memory may not pass this (it idles near 300 MB). */
const PEAK_RSS_LIMIT = 1536 * 1024 * 1024;

test(`${REQUESTS} fuzzed requests over every route: no 5xx, problems on every error, the server alive, memory bounded`, async (t) => {
  const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'folio-fuzz-'));
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const server = await startServerProcess(dataDir, TEST_MASTER_KEY, ['--log-level', 'warn', '--rate-limit', 'off']);
  try {
    const call = (method: string, url: string, body: unknown) =>
      fetch(server.url + url, { method, headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await call('POST', '/v1/collections', { name: 'fuzz' });
    await call('POST', '/v1/collections/fuzz/documents?refresh=wait_for', [{ id: 'seed', title: 'Seed', text: 'a document the fuzzer can reach', metadata: { year: 2020 } }]);
    const report = await runHttpFuzz({ url: server.url, masterKey: TEST_MASTER_KEY, collection: 'fuzz', documentId: 'seed', seed: SEED, count: REQUESTS, seconds: 300 });
    assert.deepEqual(report.failures.slice(0, 20), [], `${report.failures.length} of ${report.requests} failed`);
    assert.ok(report.requests >= REQUESTS * 0.9, `${report.requests} requests sent`);
    assert.equal((await fetch(`${server.url}/v1/health`)).status, 200, 'the server still answers');
    const peak = peakRssBytes(server.child.pid!);
    if (peak !== null) assert.ok(peak < PEAK_RSS_LIMIT, `peak RSS ${Math.round(peak / 2 ** 20)} MB`);
    t.diagnostic(`${report.requests} requests in ${report.elapsedMs} ms; statuses ${JSON.stringify(report.byStatus)}; peak RSS ${peak === null ? '?' : Math.round(peak / 2 ** 20)} MB`);
  } finally {
    await server.stop();
  }
  assert.equal(server.child.exitCode, 0, `the server stopped cleanly:\n${server.output().slice(-2000)}`);
});
