// Snapshots (issue 18, point 3) on real servers: while one client writes without pause (and
// refreshes and merges run), POST /v1/snapshots streams a tar; restored into a new data
// directory, a server started on it has every write acknowledged before the snapshot was
// asked for, the other collections, and the API keys. The same through `folio snapshot` and
// `folio restore` as a user runs them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { restoreDataDirectory } from '../../server/index.ts';
import { runCli } from '../helpers/spawn-cli.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

async function liveIds(server: TestServer, collection: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const page = await server.request('GET', `/v1/collections/${collection}/documents?limit=1000${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    assert.equal(page.status, 200, page.text);
    for (const document of page.body.documents) ids.add(document.id);
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return ids;
}

test('a snapshot taken under writes holds every write acknowledged before it, and restores', async (t) => {
  const work = fs.mkdtempSync(path.join(tmpdir(), 'folio-snapshot-'));
  t.after(() => fs.rmSync(work, { recursive: true, force: true }));
  const server = await startTestServer({ dataDir: path.join(work, 'live'), refreshIntervalMs: 50 });
  let stop = false;
  const acknowledged: string[] = [];
  /** Deletes asked for, and those acknowledged. */
  const deleting = new Set<string>();
  const deleted: string[] = [];
  let writer: Promise<void> = Promise.resolve();
  try {
    await server.request('POST', '/v1/collections', { name: 'busy' });
    await server.request('POST', '/v1/collections', { name: 'quiet' });
    await server.request('POST', '/v1/collections/quiet/documents?refresh=wait_for', [{ id: 'q1', text: 'quiet words' }]);
    const key = (await server.request('POST', '/v1/api-keys', { name: 'reader', scopes: ['search'] })).body;

    writer = (async () => {
      for (let i = 0; !stop; i++) {
        const id = `w${i}`;
        const answer = await server.request('POST', '/v1/collections/busy/documents', [{ id, text: `write number ${i}` }]);
        assert.equal(answer.status, 200, answer.text);
        acknowledged.push(id);
        if (i % 7 === 3) {
          deleting.add(`w${i - 1}`);
          assert.equal((await server.request('DELETE', `/v1/collections/busy/documents/w${i - 1}`)).status, 204);
          deleted.push(`w${i - 1}`);
        }
      }
    })();
    while (acknowledged.length < 150) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = new Set(acknowledged);
    const deletedBefore = new Set(deleted);
    assert.ok(deletedBefore.size > 0, 'some deletes were acknowledged before the snapshot');
    const answer = await fetch(`${server.url}/v1/snapshots`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/x-tar');
    assert.match(answer.headers.get('content-disposition') ?? '', /attachment; filename="folio-snapshot-\d{8}-\d{6}\.tar"/);
    const tarFile = path.join(work, 'snapshot.tar');
    fs.writeFileSync(tarFile, Buffer.from(await answer.arrayBuffer()));
    while (acknowledged.length < before.size + 30) await new Promise((resolve) => setTimeout(resolve, 20));
    stop = true;
    await writer;
    assert.deepEqual(fs.readdirSync(server.dataDir).filter((name) => name.startsWith('.snapshot-')), [], 'the staging folder is gone');

    // A search-scope key may not take a snapshot.
    assert.equal((await server.request('POST', '/v1/snapshots', undefined, { authorization: `Bearer ${key.key}` })).status, 403);

    const restoredDir = path.join(work, 'restored');
    const outcome = await restoreDataDirectory(fs.createReadStream(tarFile), restoredDir);
    assert.deepEqual(outcome.info.collections, ['busy', 'quiet']);
    assert.deepEqual(outcome.checks.flatMap((check) => check.problems), []);
    const restored = await startTestServer({ dataDir: restoredDir });
    try {
      const live = await liveIds(restored, 'busy');
      // A delete still in flight at the snapshot may be in it or not.
      const missing = [...before].filter((id) => !live.has(id) && !deleting.has(id));
      assert.deepEqual(missing, [], 'every write acknowledged before the snapshot is in it');
      for (const id of deletedBefore) assert.ok(!live.has(id), `${id}, deleted before the snapshot, stays deleted`);
      const quiet = await restored.request('GET', '/v1/collections/quiet/search?q=quiet', undefined, { authorization: `Bearer ${key.key}` });
      assert.equal(quiet.status, 200, 'the API key works on the restored server');
      assert.deepEqual(quiet.body.hits.map((hit: { id: string }) => hit.id), ['q1']);
    } finally {
      await restored.close();
    }

    // The same as a user does it: folio snapshot, then folio restore.
    const cliTar = path.join(work, 'cli.tar');
    const env = { FOLIO_URL: server.url, FOLIO_API_KEY: TEST_MASTER_KEY };
    const saved = await runCli(['snapshot', '--output', cliTar], env);
    assert.equal(saved.code, 0, saved.output);
    assert.match(saved.output, /Saved the snapshot to .*cli\.tar/);
    const cliDir = path.join(work, 'cli-restored');
    const unpacked = await runCli(['restore', cliTar, '--data', cliDir]);
    assert.equal(unpacked.code, 0, unpacked.output);
    assert.match(unpacked.output, /Restored 2 collections .* into .*cli-restored/);
    const again = await runCli(['restore', cliTar, '--data', cliDir]);
    assert.notEqual(again.code, 0, 'a non-empty directory is not overwritten');
    assert.match(again.output, /not empty/);
  } finally {
    stop = true;
    await writer.catch(() => {});
    await server.close();
  }
});
