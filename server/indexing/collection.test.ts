// Tests for a collection's lifecycle on real files with the real engine: realtime reads,
// refresh making writes searchable, one live version per id, WAL replay after a crash,
// deletes that persist, delete by filter on current versions, merges that keep counts and
// bound the segment count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseFilter } from '../../engine/index.ts';
import type { SearchRequest } from '../../engine/index.ts';
import { readManifest } from '../../storage/index.ts';
import { FolioError } from '../errors/folio-error.ts';
import { openCollectionRegistry } from './collection-registry.ts';
import type { CollectionRegistryOptions } from './collection-registry.ts';
import type { FolioCollection } from './collection.ts';
import { LocalCollection } from './local-collection.ts';
import { searchResult } from '../../test/helpers/search-result.ts';
import { upsertJson } from '../../test/helpers/json-documents.ts';
import { DEFAULT_MERGE_POLICY } from './merge-policy.ts';
import { EmbeddingPool, IndexPool, SearchPool } from '../pools/index.ts';
import { parseBatchBody } from '../ingest/index.ts';
import type { BatchBody } from '../ingest/index.ts';

const NO_WAIT = { waitForRefresh: false };
const WAIT = { waitForRefresh: true };
/** Long enough that no background refresh runs during a test unless it waits for one. */
const MANUAL_REFRESH = { refreshIntervalMs: 60_000 };

type TestContext = { after: (fn: () => unknown) => void };

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-collection-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openRegistry(t: TestContext, dataDir: string, options: CollectionRegistryOptions = MANUAL_REFRESH) {
  const registry = await openCollectionRegistry(dataDir, options);
  t.after(() => registry.close());
  return registry;
}

async function newCollection(t: TestContext, options: CollectionRegistryOptions = MANUAL_REFRESH) {
  const dataDir = tempDir(t);
  const registry = await openRegistry(t, dataDir, options);
  await registry.create('docs', 'english');
  return { dataDir, registry, collection: registry.getCollection('docs') };
}

function query(q: string, extra: Partial<SearchRequest> = {}): SearchRequest {
  return { q, match: 'any', offset: 0, limit: 100, highlightTag: 'mark', ...extra };
}

async function searchIds(collection: FolioCollection, q: string): Promise<string[]> {
  const result = await searchResult(collection, query(q));
  return result.hits.map((hit) => hit.id).sort();
}

function assertFolioError(code: string): (error: unknown) => boolean {
  return (error: unknown) => {
    assert.ok(error instanceof FolioError, `expected FolioError ${code}, got ${String(error)}`);
    assert.equal(error.code, code);
    return true;
  };
}

test('upsert, realtime get, patch and delete', async (t) => {
  const { collection } = await newCollection(t);
  const [written] = await upsertJson(
    collection,
    [{ id: 'a', title: 'Alpha', text: 'the first letter', metadata: { year: 2020, tags: ['x', 'y'], keep: true } }],
    NO_WAIT,
  );
  assert.equal(written.id, 'a');
  assert.equal(written.format, 'text');
  assert.equal(written.pages, null);
  assert.ok(written.bytes > 20);
  assert.ok(!Number.isNaN(Date.parse(written.indexedAt)));

  const stored = collection.getDocument('a');
  assert.equal(stored.text, 'the first letter');
  assert.equal(stored.title, 'Alpha');
  assert.equal(stored.pages, null);
  assert.equal(collection.info().documents, 1);

  const patched = await collection.patch('a', { title: 'Alef', metadata: { year: 2021, keep: null, lang: 'he' } }, NO_WAIT);
  assert.equal(patched.title, 'Alef');
  assert.deepEqual(patched.metadata, { year: 2021, tags: ['x', 'y'], lang: 'he' });
  assert.equal(collection.getDocument('a').text, 'the first letter', 'PATCH keeps the text');

  // Defaults: no title, empty text, empty metadata.
  await upsertJson(collection, [{ id: 'b' }], NO_WAIT);
  const b = collection.getDocument('b');
  assert.equal(b.title, null);
  assert.equal(b.text, '');
  assert.deepEqual(b.metadata, {});
  assert.equal(collection.info().documents, 2);

  await collection.deleteDocument('a', NO_WAIT);
  assert.throws(() => collection.getDocument('a'), assertFolioError('document_not_found'));
  await assert.rejects(collection.deleteDocument('a', NO_WAIT), assertFolioError('document_not_found'));
  await assert.rejects(collection.patch('a', { title: 'x' }, NO_WAIT), assertFolioError('document_not_found'));
  assert.equal(collection.info().documents, 1);
});

test('patch and delete reach documents already in segments', async (t) => {
  const { collection } = await newCollection(t);
  await upsertJson(collection, [{ id: 'p', title: 'Paper', text: 'committed words', metadata: { n: 1 } }], NO_WAIT);
  await collection.refresh();
  await collection.patch('p', { metadata: { n: 2 } }, NO_WAIT);
  assert.equal(collection.getDocument('p').metadata.n, 2);
  await collection.refresh();
  assert.deepEqual(await searchIds(collection, 'committed'), ['p']);
  assert.equal(collection.info().documents, 1);
  await collection.deleteDocument('p', NO_WAIT);
  assert.deepEqual(await searchIds(collection, 'committed'), ['p'], 'searchable until the next refresh');
  await collection.refresh();
  assert.deepEqual(await searchIds(collection, 'committed'), []);
  assert.equal(collection.info().documents, 0);
  assert.equal(collection.info().segments, 0, 'a fully deleted segment is dropped');
});

test('a batch is all or nothing', async (t) => {
  const { collection } = await newCollection(t);
  await assert.rejects(
    upsertJson(collection, 
      [
        { id: 'good', text: 'fine' },
        { id: 'bad id!', text: 'nope' },
        { id: 'also-bad', metadata: { n: Number.NaN } },
      ],
      NO_WAIT,
    ),
    (error: unknown) => {
      assertFolioError('validation_failed')(error);
      assert.deepEqual(
        (error as FolioError).errors?.map((e) => e.path),
        ['/body/1/id', '/body/2/metadata/n'],
      );
      return true;
    },
  );
  assert.throws(() => collection.getDocument('good'), assertFolioError('document_not_found'));
  assert.equal(collection.info().documents, 0);
});

test('writes become searchable on refresh, not before', async (t) => {
  const { collection } = await newCollection(t);
  await upsertJson(
    collection,
    [
      { id: '1', title: 'Rust book', text: 'ownership and borrowing' },
      { id: '2', title: 'Go tour', text: 'goroutines and channels' },
    ],
    NO_WAIT,
  );
  assert.deepEqual(await searchIds(collection, 'borrowing'), []);
  await collection.refresh();
  assert.deepEqual(await searchIds(collection, 'borrowing'), ['1']);
  assert.deepEqual(await searchIds(collection, 'channels'), ['2']);
  assert.equal(collection.info().segments, 1);
  await collection.refresh();
  assert.equal(collection.info().segments, 1, 'a refresh with nothing pending writes nothing');
});

test('refresh=wait_for and the background refresh make writes searchable', async (t) => {
  const { collection } = await newCollection(t, { refreshIntervalMs: 50 });
  await upsertJson(collection, [{ id: 'w', text: 'waited for' }], WAIT);
  assert.deepEqual(await searchIds(collection, 'waited'), ['w']);

  await upsertJson(collection, [{ id: 'bg', text: 'background refresh' }], NO_WAIT);
  const deadline = Date.now() + 1000;
  while ((await searchIds(collection, 'background')).length === 0) {
    assert.ok(Date.now() < deadline, 'searchable within a second');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});

test('refresh=true starts the refresh at once instead of waiting for the scheduled one', { timeout: 30_000 }, async (t) => {
  // An hour-long interval: a write that waited for the scheduled refresh would outlive the test's timeout.
  const { collection } = await newCollection(t, { refreshIntervalMs: 3_600_000 });
  await upsertJson(collection, [{ id: 'now', text: 'refreshed at once' }], { waitForRefresh: true, refreshNow: true });
  assert.deepEqual(await searchIds(collection, 'refreshed'), ['now']);
  await collection.deleteDocument('now', { waitForRefresh: true, refreshNow: true });
  assert.deepEqual(await searchIds(collection, 'refreshed'), []);
});

test('replacing a document leaves one live version across segments', async (t) => {
  const { collection } = await newCollection(t);
  await upsertJson(
    collection,
    [
      { id: 'r', title: 'Old', text: 'original wording shared' },
      { id: 'other', text: 'unrelated' },
    ],
    NO_WAIT,
  );
  await collection.refresh();
  await upsertJson(collection, [{ id: 'r', title: 'New', text: 'revised wording shared' }], NO_WAIT);
  assert.equal(collection.info().documents, 2, 'a replacement does not add');
  assert.equal(collection.getDocument('r').title, 'New');
  await collection.refresh();
  assert.equal(collection.info().segments, 2);
  assert.equal(collection.info().documents, 2);
  assert.deepEqual(await searchIds(collection, 'shared'), ['r']);
  assert.deepEqual(await searchIds(collection, 'original'), []);
  const result = await searchResult(collection, query('shared'));
  assert.equal(result.total, 1);
  assert.equal(result.hits[0].title, 'New');
});

test('acknowledged writes survive a crash (reopen without close) and replay', async (t) => {
  const dataDir = tempDir(t);
  const crashed = await openRegistry(t, dataDir);
  await crashed.create('docs', 'english');
  const before = crashed.getCollection('docs');
  await upsertJson(before, [{ id: 'c1', text: 'committed before the crash' }], NO_WAIT);
  await before.refresh();
  await upsertJson(before, 
    [
      { id: 'c2', text: 'only in the log' },
      { id: 'c3', text: 'deleted later' },
    ],
    NO_WAIT,
  );
  await before.deleteDocument('c1', NO_WAIT);
  await before.deleteDocument('c3', NO_WAIT);
  await before.patch('c2', { metadata: { patched: true } }, NO_WAIT);
  // No close, no refresh: a second registry opens the same directory as a restart would.

  const reopened = await openRegistry(t, dataDir);
  const after = reopened.getCollection('docs');
  assert.equal(after.info().documents, 1);
  assert.equal(after.getDocument('c2').metadata.patched, true);
  assert.throws(() => after.getDocument('c1'), assertFolioError('document_not_found'));
  assert.throws(() => after.getDocument('c3'), assertFolioError('document_not_found'));
  await after.refresh();
  assert.deepEqual(await searchIds(after, 'log'), ['c2']);
  assert.deepEqual(await searchIds(after, 'crash'), []);
});

/** A batch body as the ingest pool parses one (here on this thread). */
function ndjsonBody(docs: object[]): BatchBody {
  return parseBatchBody(Buffer.from(docs.map((doc) => JSON.stringify(doc)).join('\n')), 'ndjson');
}

test('a batch body stays bytes until refresh, reads back realtime, replays after a crash', async (t) => {
  const dataDir = tempDir(t);
  const crashed = await openRegistry(t, dataDir);
  await crashed.create('docs', 'english');
  const before = crashed.getCollection('docs');
  const body = ndjsonBody([
    { id: 'b1', text: 'from the body', metadata: { kind: 'x' } },
    { id: 'b2', title: 'Second', text: 'also from the body' },
    { id: 'b1', text: 'the later b1 wins', metadata: { kind: 'y' } },
  ]);
  assert.deepEqual(await before.upsertBody(body, NO_WAIT), ['b1', 'b2', 'b1']);
  assert.equal(before.info().documents, 2);
  assert.equal(before.getDocument('b1').text, 'the later b1 wins');
  assert.equal(before.getDocument('b2').title, 'Second');
  assert.equal(before.getDocument('b2').bytes, Buffer.byteLength(JSON.stringify({ id: 'b2', title: 'Second', text: 'also from the body', metadata: {} })));
  assert.deepEqual(await before.deleteByFilter(parseFilter({ kind: 'x' }), NO_WAIT), [], 'the replaced version of b1 matches no more');
  assert.equal(before.info().documents, 2);
  // No close, no refresh: a restart replays the body record.

  const reopened = await openRegistry(t, dataDir);
  const after = reopened.getCollection('docs');
  assert.equal(after.info().documents, 2);
  assert.equal(after.getDocument('b1').metadata.kind, 'y');
  await after.refresh();
  assert.deepEqual(await searchIds(after, 'body'), ['b2']);
  assert.deepEqual(await searchIds(after, 'wins'), ['b1']);
  assert.equal(after.getDocument('b2').text, 'also from the body');
});

test('deletes persist across a clean restart', async (t) => {
  const dataDir = tempDir(t);
  const first = await openCollectionRegistry(dataDir, MANUAL_REFRESH);
  await first.create('docs', 'french');
  const collection = first.getCollection('docs');
  await upsertJson(
    collection,
    ['un', 'deux', 'trois'].map((id) => ({ id, text: `document ${id} commun` })),
    NO_WAIT,
  );
  await collection.refresh();
  await collection.deleteDocument('deux', NO_WAIT);
  await collection.refresh();
  await first.close();

  const second = await openRegistry(t, dataDir);
  const reopened = second.getCollection('docs');
  assert.equal(reopened.language, 'french');
  assert.equal(reopened.info().documents, 2);
  assert.throws(() => reopened.getDocument('deux'), assertFolioError('document_not_found'));
  assert.deepEqual(await searchIds(reopened, 'commun'), ['trois', 'un']);
});

test('merges keep counts exact and bound the segment count', async (t) => {
  const { collection, dataDir } = await newCollection(t);
  const rounds = 30;
  let maxSegments = 0;
  for (let round = 0; round < rounds; round++) {
    await upsertJson(collection, 
      [
        { id: `doc-${round}`, text: `round ${round} of merging words` },
        { id: 'shared', text: `replaced in round ${round} words` },
      ],
      NO_WAIT,
    );
    await collection.refresh();
    await collection.mergesSettled();
    maxSegments = Math.max(maxSegments, collection.info().segments);
  }
  assert.ok(maxSegments <= 8, `at most 8 segments, saw ${maxSegments}`);
  assert.equal(collection.info().documents, rounds + 1);
  const result = await searchResult(collection, query('words'));
  assert.equal(result.total, rounds + 1);
  assert.equal(collection.getDocument('shared').text, `replaced in round ${rounds - 1} words`);

  // The directory holds exactly what the manifest lists (plus the config, manifest and WAL).
  const manifest = readManifest(path.join(dataDir, 'collections', 'docs'));
  assert.ok(manifest);
  const listed = new Set(['collection.json', 'manifest.json', 'wal']);
  for (const segment of manifest.segments) {
    listed.add(segment.name);
    if (segment.deletes !== null) listed.add(segment.deletes);
  }
  assert.deepEqual(fs.readdirSync(path.join(dataDir, 'collections', 'docs')).sort(), [...listed].sort());
  assert.equal(fs.readdirSync(path.join(dataDir, 'collections', 'docs', 'wal')).length, 1);
});

/**
 * A collection directory `docs` of its own, to open without a registry, and pools of its own
 * (closed after the test).
 */
async function ownCollectionDir(t: TestContext) {
  const dataDir = tempDir(t);
  const registry = await openRegistry(t, dataDir);
  await registry.create('docs', 'english');
  await registry.close();
  const workers = { search: new SearchPool({ threads: 1 }), index: new IndexPool({ threads: 2 }), embedding: new EmbeddingPool() };
  t.after(() => Promise.all([workers.search.close(), workers.index.close(), workers.embedding.close()]));
  return { dir: path.join(dataDir, 'collections', 'docs'), workers };
}

test('a collection opened with more segments than the policy allows merges them without a write', async (t) => {
  const { dir, workers } = await ownCollectionDir(t);
  // Twelve refreshes under a policy that never merges, as a server stopped mid-merge leaves them.
  const lax = LocalCollection.open(dir, workers, { ...MANUAL_REFRESH, mergePolicy: { ...DEFAULT_MERGE_POLICY, segmentsPerTier: 100, quietAfterMs: Infinity } });
  for (let round = 0; round < 12; round++) {
    await upsertJson(lax, [{ id: `doc-${round}`, text: `left over ${round}` }], NO_WAIT);
    await lax.refresh();
  }
  assert.equal(lax.info().segments, 12);
  await lax.close();

  const reopened = LocalCollection.open(dir, workers, MANUAL_REFRESH);
  await reopened.mergesSettled();
  assert.ok(reopened.info().segments <= 8, `${reopened.info().segments} segments`);
  assert.equal((await searchResult(reopened, query('left'))).total, 12);
  await reopened.close();
});

test('once writes stop, a collection left in many segments is merged down; a write in between puts it off', async (t) => {
  const { dir, workers } = await ownCollectionDir(t);
  // A policy that never merges while writes come, and merges down 300 ms after they stop.
  const mergePolicy = { ...DEFAULT_MERGE_POLICY, segmentsPerTier: 100, quietAfterMs: 300 };
  const collection = LocalCollection.open(dir, workers, { ...MANUAL_REFRESH, mergePolicy });
  for (let round = 0; round < 4; round++) {
    await upsertJson(collection, [{ id: `doc-${round}`, text: `bulk load ${round}` }], NO_WAIT);
    await collection.refresh();
  }
  // A write right after the refresh: writes have not stopped, so nothing is merged.
  await upsertJson(collection, [{ id: 'doc-late', text: 'bulk load late' }], NO_WAIT);
  await new Promise((resolve) => setTimeout(resolve, 900));
  assert.equal(collection.info().segments, 4);

  await collection.refresh();
  assert.equal(collection.info().segments, 5);
  const deadline = Date.now() + 20_000;
  while (collection.info().segments > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await collection.mergesSettled();
  assert.equal(collection.info().segments, 1);
  assert.equal((await searchResult(collection, query('bulk'))).total, 5);
  await collection.close();
});

test('a collection reopened after a load merges down once no write comes, as if the server had stayed up', async (t) => {
  const { dir, workers } = await ownCollectionDir(t);
  // A load stopped before its quiet merges ran (a server stopped right after it).
  const mergePolicy = { ...DEFAULT_MERGE_POLICY, segmentsPerTier: 100 };
  const loading = LocalCollection.open(dir, workers, { ...MANUAL_REFRESH, mergePolicy: { ...mergePolicy, quietAfterMs: Infinity } });
  for (let round = 0; round < 4; round++) {
    await upsertJson(loading, [{ id: `doc-${round}`, text: `bulk load ${round}` }], NO_WAIT);
    await loading.refresh();
  }
  await loading.close();

  const reopened = LocalCollection.open(dir, workers, { ...MANUAL_REFRESH, mergePolicy: { ...mergePolicy, quietAfterMs: 300 } });
  assert.equal(reopened.info().segments, 4);
  const deadline = Date.now() + 20_000;
  while (reopened.info().segments > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await reopened.mergesSettled();
  assert.equal(reopened.info().segments, 1);
  assert.equal((await searchResult(reopened, query('bulk'))).total, 4);
  await reopened.close();
});

test('a segment with many deletes is merged away', async (t) => {
  const { collection } = await newCollection(t);
  await upsertJson(collection, 
    Array.from({ length: 10 }, (_, i) => ({ id: `d${i}`, text: `delete heavy ${i}` })),
    NO_WAIT,
  );
  await collection.refresh();
  for (const i of [0, 1, 2, 3]) await collection.deleteDocument(`d${i}`, NO_WAIT);
  await collection.refresh();
  await collection.mergesSettled(); // merges run in the background after a refresh
  const [only] = collection.segmentNames();
  assert.equal(collection.info().segments, 1);
  assert.notEqual(only, 'seg-1.fseg', 'rewritten into a new segment');
  assert.equal(collection.info().documents, 6);
  assert.equal((await searchResult(collection, query('heavy'))).total, 6);
});

test('concurrent writes are all acknowledged and counted', async (t) => {
  const { collection } = await newCollection(t);
  const writes = Array.from({ length: 100 }, (_, i) =>
    upsertJson(collection, [{ id: `c${i % 60}`, text: `concurrent write ${i}` }], NO_WAIT),
  );
  await Promise.all(writes);
  assert.equal(collection.info().documents, 60);
  await collection.refresh();
  assert.equal((await searchResult(collection, query('concurrent'))).total, 60);
  assert.equal(collection.getDocument('c0').text, 'concurrent write 60', 'the last write wins');
});

test('a full buffer refuses a write with 503 overloaded and Retry-After, writing nothing of it', async (t) => {
  // A buffer of at most 1 KiB and no waiting: the second write finds it full before any
  // refresh could take it.
  const { collection } = await newCollection(t, { ...MANUAL_REFRESH, backpressure: { maxPendingBytes: 1024, waitMs: 0 } });
  await upsertJson(collection, [{ id: 'first', text: 'x'.repeat(2048) }], NO_WAIT);
  await assert.rejects(upsertJson(collection, [{ id: 'second', text: 'refused write' }], NO_WAIT), (error: unknown) => {
    assertFolioError('overloaded')(error);
    assert.equal((error as FolioError).retryAfterSeconds, 1);
    return true;
  });
  assert.throws(() => collection.getDocument('second'), assertFolioError('document_not_found'));
  assert.equal(collection.info().documents, 1);
  // The refused write asked for a refresh; once it has taken the buffer, the retry is accepted.
  await collection.refresh();
  await upsertJson(collection, [{ id: 'second', text: 'accepted write' }], NO_WAIT);
  await collection.refresh();
  assert.deepEqual(await searchIds(collection, 'accepted'), ['second']);
  assert.equal(collection.info().documents, 2);
});

test('a write into a full buffer waits for the refresh to take it, within the wait', async (t) => {
  const { collection } = await newCollection(t, { ...MANUAL_REFRESH, backpressure: { maxPendingBytes: 1024, waitMs: 30_000 } });
  await upsertJson(collection, [{ id: 'first', text: 'x'.repeat(2048) }], NO_WAIT);
  // No timer would refresh for a minute: the full buffer itself must start the refresh.
  await upsertJson(collection, [{ id: 'second', text: 'waited write' }], NO_WAIT);
  assert.equal(collection.info().documents, 2);
  await collection.refresh();
  assert.deepEqual(await searchIds(collection, 'waited'), ['second']);
});

test('info reports bytes on disk and segments', async (t) => {
  const { collection } = await newCollection(t);
  const empty = collection.info();
  assert.equal(empty.name, 'docs');
  assert.equal(empty.language, 'english');
  assert.equal(empty.documents, 0);
  assert.equal(empty.segments, 0);
  await upsertJson(collection, [{ id: 'x', text: 'some bytes '.repeat(100) }], NO_WAIT);
  const logged = collection.info().sizeBytes;
  assert.ok(logged > empty.sizeBytes + 1000, 'the WAL counts');
  await collection.refresh();
  assert.equal(collection.info().segments, 1);
  assert.ok(collection.info().sizeBytes > empty.sizeBytes);
});

test('a failed refresh keeps the writes pending and leaves no files behind', async (t) => {
  const { collection, dataDir } = await newCollection(t);
  const dir = path.join(dataDir, 'collections', 'docs');
  await upsertJson(collection, [{ id: 'f', text: 'survives a failed refresh' }], NO_WAIT);
  // Make the manifest impossible to replace: a directory stands where the temp file would be renamed.
  const manifestPath = path.join(dir, 'manifest.json');
  const saved = fs.readFileSync(manifestPath);
  fs.rmSync(manifestPath);
  fs.mkdirSync(path.join(manifestPath, 'blocker'), { recursive: true });
  await assert.rejects(collection.refresh());
  assert.equal(collection.getDocument('f').text, 'survives a failed refresh');
  assert.equal(collection.info().documents, 1);
  assert.deepEqual(
    fs.readdirSync(dir).filter((name) => name.startsWith('seg-') || name.startsWith('.tmp-')),
    [],
    'the uncommitted segment was removed',
  );
  fs.rmSync(manifestPath, { recursive: true });
  fs.writeFileSync(manifestPath, saved);
  await collection.refresh();
  assert.deepEqual(await searchIds(collection, 'failed'), ['f']);
});

test('while refreshes fail, the buffer a refresh has taken counts: writes cannot pile up past the bound', async (t) => {
  const { collection, dataDir } = await newCollection(t, { ...MANUAL_REFRESH, backpressure: { maxPendingBytes: 1024, waitMs: 0 } });
  const dir = path.join(dataDir, 'collections', 'docs');
  await upsertJson(collection, [{ id: 'big', text: 'x'.repeat(2048) }], NO_WAIT);
  const manifestPath = path.join(dir, 'manifest.json');
  const saved = fs.readFileSync(manifestPath);
  fs.rmSync(manifestPath);
  fs.mkdirSync(path.join(manifestPath, 'blocker'), { recursive: true });
  await assert.rejects(collection.refresh());
  // A retry has taken the buffer and is building it: the buffer itself is empty now, but what
  // the failing retry will put back still counts.
  const retry = collection.refresh();
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(upsertJson(collection, [{ id: 'late', text: 'one more' }], NO_WAIT), assertFolioError('overloaded'));
  await assert.rejects(retry);
  assert.throws(() => collection.getDocument('late'), assertFolioError('document_not_found'));
  fs.rmSync(manifestPath, { recursive: true });
  fs.writeFileSync(manifestPath, saved);
  await collection.refresh();
  await upsertJson(collection, [{ id: 'late', text: 'one more' }], NO_WAIT);
  assert.equal(collection.getDocument('late').text, 'one more');
});

test('a torn record at the end of the WAL is dropped; acknowledged ones replay', async (t) => {
  const dataDir = tempDir(t);
  const crashed = await openRegistry(t, dataDir);
  await crashed.create('docs', 'english');
  await upsertJson(crashed.getCollection('docs'), [{ id: 'acked', text: 'acknowledged' }], NO_WAIT);
  const walDir = path.join(dataDir, 'collections', 'docs', 'wal');
  const [walFile] = fs.readdirSync(walDir);
  fs.appendFileSync(path.join(walDir, walFile), new Uint8Array([200, 0, 0, 0, 1, 2, 3, 4, 5, 6]));

  const reopened = await openRegistry(t, dataDir);
  const collection = reopened.getCollection('docs');
  assert.equal(collection.info().documents, 1);
  assert.equal(collection.getDocument('acked').text, 'acknowledged');
  await upsertJson(collection, [{ id: 'next', text: 'after recovery' }], NO_WAIT);
  assert.equal(collection.info().documents, 2);
});

test('delete by filter judges current versions, is one durable write and replays', async (t) => {
  const dataDir = tempDir(t);
  const crashed = await openRegistry(t, dataDir);
  await crashed.create('docs', 'english');
  const before = crashed.getCollection('docs');
  const doc = (id: string, year: number) => ({ id, text: `doc ${id}`, metadata: { year } });
  await upsertJson(before, [doc('s1', 2020), doc('s2', 2020), doc('s3', 2021)], NO_WAIT);
  await before.refresh();
  await upsertJson(before, [doc('s4', 2020), doc('s5', 2021)], NO_WAIT);
  await before.refresh();
  // Pending versions decide over committed ones: s2 moves out of 2020, s3 into it; s5 is gone.
  await upsertJson(before, [doc('s2', 2019), doc('s3', 2020), doc('p1', 2020)], NO_WAIT);
  await before.deleteDocument('s5', NO_WAIT);
  // The WAL is private; its append counter shows the delete is one record.
  const walAppends = () => (before as unknown as { wal: { stats: { appends: number } } }).wal.stats.appends;
  const appendsBefore = walAppends();
  assert.deepEqual((await before.deleteByFilter(parseFilter({ year: 2020 }), NO_WAIT)).sort(), ['p1', 's1', 's3', 's4']);
  assert.equal(walAppends(), appendsBefore + 1);
  assert.equal(before.info().documents, 1);
  assert.deepEqual(await before.deleteByFilter(parseFilter({ year: 2020 }), NO_WAIT), []);
  assert.deepEqual(await before.deleteByFilter(parseFilter({ year: 2021 }), NO_WAIT), []);
  assert.equal(walAppends(), appendsBefore + 1, 'deleting nothing writes nothing');
  // No close: reopening replays the delete record.

  const reopened = await openRegistry(t, dataDir);
  const after = reopened.getCollection('docs');
  assert.equal(after.info().documents, 1);
  assert.equal(after.getDocument('s2').metadata.year, 2019);
  for (const id of ['s1', 's3', 's4', 's5', 'p1']) assert.throws(() => after.getDocument(id), assertFolioError('document_not_found'));
  await after.refresh();
  assert.deepEqual(await searchIds(after, 'doc'), ['s2']);
});
