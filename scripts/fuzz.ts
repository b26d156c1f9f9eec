// `npm run fuzz [-- --seed N --count N --seconds N]`: the seeded HTTP fuzzer
// (test/fuzz/http-fuzzer.ts) against a real `folio serve` on a fresh data directory. Prints
// the answers by status and every failure (a 5xx, an error that is not a problem), the
// server's peak memory, and exits 1 on any failure or if the server died.

import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { peakRssBytes } from '../benchmarks/proc-memory.ts';
import { startServerProcess } from '../benchmarks/server-process.ts';
import { runHttpFuzz } from '../test/fuzz/http-fuzzer.ts';

const MASTER_KEY = `folio_${'f'.repeat(40)}`;
const { values } = parseArgs({ options: { seed: { type: 'string', default: '1' }, count: { type: 'string', default: '20000' }, seconds: { type: 'string', default: '300' } } });

const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'folio-fuzz-'));
const server = await startServerProcess(dataDir, MASTER_KEY, ['--log-level', 'warn', '--rate-limit', 'off']);
let failed = false;
try {
  const call = (method: string, url: string, body: unknown) =>
    fetch(server.url + url, { method, headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await call('POST', '/v1/collections', { name: 'fuzz' });
  await call('POST', '/v1/collections/fuzz/documents?refresh=wait_for', [{ id: 'seed', title: 'Seed', text: 'a document the fuzzer can reach', metadata: { year: 2020 } }]);
  const report = await runHttpFuzz({ url: server.url, masterKey: MASTER_KEY, collection: 'fuzz', documentId: 'seed', seed: Number(values.seed), count: Number(values.count), seconds: Number(values.seconds) });
  const alive = (await fetch(`${server.url}/v1/health`).catch(() => null))?.status === 200;
  const peak = peakRssBytes(server.child.pid!);
  console.log(`seed ${values.seed}: ${report.requests} requests in ${(report.elapsedMs / 1000).toFixed(1)} s`);
  console.log(`answers by status (0: refused by closing the connection): ${JSON.stringify(report.byStatus)}`);
  console.log(`server peak RSS: ${peak === null ? 'unknown' : `${Math.round(peak / 2 ** 20)} MB`}; alive afterwards: ${alive}`);
  console.log(`failures: ${report.failures.length}`);
  for (const failure of report.failures.slice(0, 50)) console.log(`- ${failure.problem}\n  ${failure.request}`);
  failed = report.failures.length > 0 || !alive;
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
