// A re-index killed in the middle (issue 30 point 1): a real server process holds a collection of
// several segments; `searchable_fields` gains a metadata field, and the server is sent SIGKILL
// once some segments are indexed again and others are not. After a restart the re-index resumes
// by itself and completes; no document is lost, writes acknowledged during it are there, the
// field is searched only once every segment has it, and no part file is left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../benchmarks/server-process.ts';
import type { ServerProcess } from '../benchmarks/server-process.ts';
import { processClient } from './helpers/process-client.ts';

const MASTER_KEY = 'folio_' + 'R'.repeat(40);
const SEGMENTS = 6;
const PER_SEGMENT = 6_000;
const AUTHORS = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Donald Knuth', 'Barbara Liskov'];

const client = (server: ServerProcess) => processClient(server, MASTER_KEY);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a re-index killed with SIGKILL resumes after the restart and loses nothing', { timeout: 300_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-reindex-crash-'));
  let server = await startServerProcess(dataDir, MASTER_KEY);
  try {
    let call = client(server);
    assert.equal((await call('POST', '/v1/collections', { name: 'library' })).status, 201);
    // Several segments: one refresh per batch (the merge policy keeps up to 8 small ones).
    for (let s = 0; s < SEGMENTS; s++) {
      const batch = Array.from({ length: PER_SEGMENT }, (_, i) => {
        const n = s * PER_SEGMENT + i;
        return { id: `book-${n}`, title: `Volume ${n}`, text: `chapter words number ${n} about computing history`, metadata: { author: AUTHORS[n % AUTHORS.length], n } };
      });
      const written = await call('POST', '/v1/collections/library/documents?refresh=wait_for', batch);
      assert.equal(written.status, 200);
    }
    const total = SEGMENTS * PER_SEGMENT;
    const before = await call('GET', '/v1/collections/library');
    assert.ok(before.json.segments >= 2, `several segments (${before.json.segments})`);

    const patched = await call('PATCH', '/v1/collections/library', {
      searchable_fields: [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }, { field: 'metadata.author', weight: 2 }],
    });
    assert.equal(patched.status, 200);
    // A write acknowledged during the re-index.
    assert.equal((await call('PUT', '/v1/collections/library/documents/during', { text: 'written while indexing', metadata: { author: 'Edsger Dijkstra' } })).status, 200);
    // Wait until some documents are indexed again but not all, then kill.
    let progress = patched.json.reindexing;
    const deadline = Date.now() + 120_000;
    while (progress !== null && progress.documents_done === 0 && Date.now() < deadline) {
      // Meanwhile the field is not searched: the segments not yet indexed again lack it.
      const meanwhile = await call('GET', '/v1/collections/library/search?q=lovelace&search_fields=metadata.author&fields=id');
      assert.equal(meanwhile.status, 200, JSON.stringify(meanwhile.json));
      assert.equal(meanwhile.json.total, 0, 'no field is searched half indexed');
      await sleep(20);
      progress = (await call('GET', '/v1/collections/library')).json.reindexing;
    }
    assert.ok(progress !== null, 'the re-index was still running when the server was killed');
    assert.ok(progress.documents_done > 0 && progress.documents_done < progress.documents_total, `in the middle: ${JSON.stringify(progress)}`);
    await server.kill();

    server = await startServerProcess(dataDir, MASTER_KEY);
    call = client(server);
    let record = (await call('GET', '/v1/collections/library')).json;
    const resumeDeadline = Date.now() + 180_000;
    while (record.reindexing !== null && Date.now() < resumeDeadline) {
      await sleep(100);
      record = (await call('GET', '/v1/collections/library')).json;
    }
    assert.equal(record.reindexing, null, 'the re-index resumed and completed after the restart');
    assert.equal(record.documents, total + 1, 'no document lost');
    assert.deepEqual(record.settings.searchable_fields.map((entry: { field: string }) => entry.field), ['title', 'text', 'metadata.author']);
    const count = async (query: string): Promise<number> => {
      const response = await call('GET', `/v1/collections/library/search?${query}&fields=id&limit=1&track_total=true`);
      assert.equal(response.status, 200);
      assert.equal(response.json.total_relation, 'eq');
      return response.json.total;
    };
    assert.equal(await count('q=lovelace&search_fields=metadata.author'), total / AUTHORS.length, 'every document found by its author');
    assert.equal(await count('q=author%3Aknuth'), total / AUTHORS.length);
    assert.equal(await count('q=dijkstra'), 1, 'the write acknowledged during the re-index');
    assert.equal(await count('q=computing'), total, 'the text is searched as before');
    const leftovers = readdirSync(join(dataDir, 'collections', 'library')).filter((name) => name.includes('.part'));
    assert.deepEqual(leftovers, [], 'no part file left behind');
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
