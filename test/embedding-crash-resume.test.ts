// Embedding resumes after kill -9 (issue 16, point 4): a real server process embeds a first
// batch (its vector files are committed), acknowledges a second batch that is keyword-searchable
// at once, and is sent SIGKILL while that batch is still being embedded. Restarted on the same
// data directory it keeps the first batch's vector files as they were (nothing embedded twice),
// embeds the rest, and then finds the second batch by meaning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../benchmarks/server-process.ts';
import type { ServerProcess } from '../benchmarks/server-process.ts';
import { processClient } from './helpers/process-client.ts';
import { pollUntil } from './helpers/poll.ts';

const MASTER_KEY = 'folio_' + 'E'.repeat(40);
const TOPICS = ['the river flooded the valley after days of rain', 'the orchestra tuned violins before the concert', 'engineers tested the bridge for heavy trucks'];

const client = (server: ServerProcess) => processClient(server, MASTER_KEY);

const vectorFiles = (dir: string): string[] => readdirSync(join(dir, 'collections', 'docs')).filter((name) => name.includes('.vec-')).sort();

test('embedding resumes after SIGKILL without embedding committed segments again', { timeout: 180_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-embed-crash-'));
  let server = await startServerProcess(dataDir, MASTER_KEY);
  try {
    let call = client(server);
    assert.equal((await call('POST', '/v1/collections', { name: 'docs', embedders: { use: { source: 'builtin' } } })).status, 201);
    const first = Array.from({ length: 20 }, (_, i) => ({ id: `first-${i}`, text: `${TOPICS[i % 3]} (note ${i})` }));
    assert.equal((await call('POST', '/v1/collections/docs/documents?refresh=wait_for', first)).status, 200);
    await pollUntil('the first batch embedded', 60_000, async () => (await call('GET', '/v1/collections/docs')).json.embedding.use.embedded === first.length);
    const committed = vectorFiles(dataDir);
    assert.ok(committed.length >= 1);

    // A second batch large enough to be mid-embedding when the server is killed.
    const long = (sentence: string, i: number) => Array.from({ length: 6 }, (_, n) => `${sentence} (part ${n} of note ${i}).`).join(' ');
    const second = Array.from({ length: 400 }, (_, i) => ({ id: `second-${i}`, text: long(i === 7 ? 'a lighthouse keeper watched ships in the storm' : TOPICS[i % 3], i) }));
    assert.equal((await call('POST', '/v1/collections/docs/documents?refresh=wait_for', second)).status, 200);
    const keyword = await call('GET', '/v1/collections/docs/search?q=lighthouse');
    assert.equal(keyword.json.hits[0].id, 'second-7', 'keyword-searchable before it is embedded');
    const progress = (await call('GET', '/v1/collections/docs')).json.embedding.use;
    assert.ok(progress.pending > 0, `still embedding at the kill: ${JSON.stringify(progress)}`);
    await server.kill();

    server = await startServerProcess(dataDir, MASTER_KEY);
    call = client(server);
    const total = first.length + second.length;
    // The first batch's vector files are still there, untouched (named by the generation that wrote them).
    for (const file of committed) assert.ok(vectorFiles(dataDir).includes(file), `${file} kept`);
    await pollUntil('everything embedded after the restart', 150_000, async () => (await call('GET', '/v1/collections/docs')).json.embedding.use.embedded === total);
    const found = await call('GET', `/v1/collections/docs/search?${new URLSearchParams({ q: 'a lighthouse keeper watching ships during a storm', mode: 'semantic', limit: '1' })}`);
    assert.equal(found.status, 200);
    assert.equal(found.json.hits[0].id, 'second-7');
    assert.equal(found.json.semantic_coverage, 1);
    // No half-written or orphaned vector file is left beside the committed ones.
    assert.ok(!readdirSync(join(dataDir, 'collections', 'docs')).some((name) => name.startsWith('.tmp')), 'no temporary files');
  } finally {
    await server.kill().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
});
