// Safety under concurrency, over real HTTP with real worker threads: searches see one consistent
// snapshot while writes, refreshes and merges commit around them; deleting a collection while
// searches run gives 404s, never a crash; a search worker that dies mid-search costs that one
// request a 500 `internal` and the pool replaces the thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from './helpers/test-server.ts';
import type { TestResponse, TestServer } from './helpers/test-server.ts';

const GROUP_SIZE = 40;

async function withServer(t: { after: (fn: () => unknown) => void }, options = {}): Promise<TestServer> {
  const server = await startTestServer({ refreshIntervalMs: 20, ...options });
  t.after(() => server.close());
  return server;
}

/** One write that moves every document of the group to `version` (one WAL record). */
function groupAt(version: number): object[] {
  return Array.from({ length: GROUP_SIZE }, (_, i) => ({
    id: `member-${i}`,
    title: `member ${i}`,
    text: `group member text version ${version} ${i % 2 === 0 ? 'even' : 'odd'}`,
    metadata: { version },
  }));
}

test('every search sees one whole write, never half of one, while refreshes and merges commit', { timeout: 120_000 }, async (t) => {
  const server = await withServer(t);
  assert.equal((await server.request('POST', '/v1/collections', { name: 'c' })).status, 201);
  assert.equal((await server.request('POST', '/v1/collections/c/documents?refresh=wait_for', groupAt(0))).status, 200);

  let writing = true;
  const writer = (async () => {
    for (let version = 1; version <= 60; version++) {
      const response = await server.request('POST', '/v1/collections/c/documents', groupAt(version));
      assert.equal(response.status, 200);
      // Vary the pace so refreshes cover one write or several.
      if (version % 3 === 0) await server.request('POST', '/v1/collections/c/refresh');
    }
    writing = false;
  })();

  const seenVersions = new Set<string>();
  let searches = 0;
  const searcher = async (): Promise<void> => {
    while (writing) {
      const response = await server.request('POST', '/v1/collections/c/search', { q: 'group member', facets: ['version'], limit: 5 });
      searches++;
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.total, GROUP_SIZE, 'every member, exactly once');
      const versions = Object.entries(response.body.facets.version as Record<string, number>);
      assert.equal(versions.length, 1, `one version at a time, saw ${JSON.stringify(versions)}`);
      assert.equal(versions[0][1], GROUP_SIZE);
      seenVersions.add(versions[0][0]);
    }
  };
  await Promise.all([writer, searcher(), searcher(), searcher()]);
  assert.ok(searches > 20, `searches ran meanwhile (${searches})`);
  assert.ok(seenVersions.size > 3, `searches saw the group move on (${[...seenVersions].join(', ')})`);

  await server.request('POST', '/v1/collections/c/refresh');
  const final = await server.request('GET', '/v1/collections/c/search?q=member&facets=version');
  assert.deepEqual(final.body.facets.version, { '60': GROUP_SIZE });
  const info = await server.request('GET', '/v1/collections/c');
  assert.ok(info.body.segments <= 8, `merges bound the segment count (${info.body.segments})`);
});

test('deleting a collection while searches run answers 404, and a new collection of that name starts empty', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t);
  await server.request('POST', '/v1/collections', { name: 'doomed' });
  const docs = Array.from({ length: 2_000 }, (_, i) => ({ id: `d${i}`, text: `doomed words number ${i} and some more text` }));
  assert.equal((await server.request('POST', '/v1/collections/doomed/documents?refresh=wait_for', docs)).status, 200);

  const statuses = new Map<number, number>();
  let running = true;
  const searcher = async (): Promise<void> => {
    while (running) {
      const response: TestResponse = await server.request('GET', '/v1/collections/doomed/search?q=doomed+words');
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 404) {
        assert.equal(response.body.code, 'collection_not_found');
        return;
      }
      assert.equal(response.status, 200, response.text);
    }
  };
  const searchers = Array.from({ length: 6 }, searcher);
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.equal((await server.request('DELETE', '/v1/collections/doomed')).status, 204);
  await Promise.all(searchers);
  running = false;
  assert.ok((statuses.get(200) ?? 0) > 0, 'searches ran before the delete');
  assert.equal(statuses.get(404), searchers.length, 'each searcher ended on a 404');
  assert.deepEqual([...statuses.keys()].sort(), [200, 404]);

  // The name is free again, and the old segments do not leak into the new collection.
  assert.equal((await server.request('POST', '/v1/collections', { name: 'doomed' })).status, 201);
  await server.request('POST', '/v1/collections/doomed/documents?refresh=wait_for', [{ id: 'fresh', text: 'a fresh start' }]);
  const after = await server.request('GET', '/v1/collections/doomed/search?q=doomed+words+fresh');
  assert.equal(after.status, 200);
  assert.deepEqual(after.body.hits.map((hit: { id: string }) => hit.id), ['fresh']);
  assert.equal((await server.request('GET', '/v1/health')).status, 200);
});

test('a search worker that dies mid-search gives that request a 500 internal; the pool replaces it', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t, { searchThreads: 1 });
  const pool = server.app.workers.search;
  await server.request('POST', '/v1/collections', { name: 'c' });
  // Enough documents that a wide search takes a while, so the worker can be killed mid-way.
  const words = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
  for (let batch = 0; batch < 4; batch++) {
    const docs = Array.from({ length: 5_000 }, (_, i) => ({
      id: `d${batch}-${i}`,
      text: Array.from({ length: 30 }, (_, j) => words[(i * 7 + j * 13 + batch) % words.length]).join(' '),
      metadata: { n: i },
    }));
    assert.equal((await server.request('POST', '/v1/collections/c/documents', docs)).status, 200);
  }
  await server.request('POST', '/v1/collections/c/refresh');
  const wide = `/v1/collections/c/search?q=${encodeURIComponent(words.slice(0, 60).map((w) => `${w.slice(0, 2)}*`).join(' '))}&offset=9000&limit=100&facets=n`;
  assert.equal((await server.request('GET', wide)).status, 200, 'the wide search works');

  // A different page, so the answer cannot come from the search cache.
  const pending = server.request('GET', wide.replace('offset=9000', 'offset=9100'));
  while (pool.inFlight === 0) await new Promise((resolve) => setImmediate(resolve));
  const [thread] = pool.threads;
  await thread.terminate();
  const crashed = await pending;
  assert.equal(crashed.status, 500, crashed.text);
  assert.equal(crashed.body.code, 'internal');
  assert.doesNotMatch(crashed.text, /stack|at \w+ \(/, 'no internals leak');

  // The server stays up and the pool has a fresh thread for the next search.
  const next = await server.request('GET', '/v1/collections/c/search?q=w1&limit=1');
  assert.equal(next.status, 200);
  assert.ok(next.body.total > 0);
  assert.equal(pool.threads.length, 1);
  assert.notEqual(pool.threads[0], thread);
});

test('an index worker that dies mid-refresh loses nothing: the refresh fails, the next one commits', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t, { refreshIntervalMs: 60_000 });
  const pool = server.app.workers.index;
  await server.request('POST', '/v1/collections', { name: 'c' });
  const docs = Array.from({ length: 10_000 }, (_, i) => ({ id: `d${i}`, text: `refresh crash survivor ${i} with some words to index` }));
  assert.equal((await server.request('POST', '/v1/collections/c/documents', docs)).status, 200);

  const refresh = server.request('POST', '/v1/collections/c/refresh');
  while (pool.inFlight === 0) await new Promise((resolve) => setImmediate(resolve));
  await Promise.all(pool.threads.map((thread) => thread.terminate()));
  const failed = await refresh;
  assert.equal(failed.status, 500, failed.text);
  assert.equal(failed.body.code, 'internal');

  // The writes are still acknowledged and pending; the next refresh (on a new thread) commits them.
  assert.equal((await server.request('GET', '/v1/collections/c/documents/d42')).status, 200);
  assert.equal((await server.request('POST', '/v1/collections/c/refresh')).status, 200);
  const found = await server.request('GET', '/v1/collections/c/search?q=survivor&limit=1');
  assert.equal(found.body.total, 10_000);
  const listing = await server.request('GET', '/v1/collections/c');
  assert.equal(listing.body.documents, 10_000);
});
