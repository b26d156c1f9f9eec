// Tests for the collection registry: validation, create/list/get/delete, crash leftovers
// cleaned at start, collections independent of each other, damage reported with the file.
import { searchResult } from '../../test/helpers/search-result.ts';
import { upsertJson } from '../../test/helpers/json-documents.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FolioError } from '../errors/folio-error.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { openCollectionRegistry } from './collection-registry.ts';
import type { CollectionRegistryOptions } from './collection-registry.ts';

const MANUAL_REFRESH = { refreshIntervalMs: 60_000 };
type TestContext = { after: (fn: () => unknown) => void };

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-registry-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openRegistry(t: TestContext, dataDir: string, options: CollectionRegistryOptions = {}) {
  const registry = await openCollectionRegistry(dataDir, { ...MANUAL_REFRESH, ...options });
  t.after(() => registry.close());
  return registry;
}

function isFolioError(code: string): (error: unknown) => boolean {
  return (error: unknown) => error instanceof FolioError && error.code === code;
}

test('create, list, get and delete', async (t) => {
  const dataDir = tempDir(t);
  const registry = await openRegistry(t, dataDir);
  assert.deepEqual(registry.list(), []);
  const info = await registry.create('books', 'english');
  assert.equal(info.name, 'books');
  assert.equal(info.language, 'english');
  assert.equal(info.documents, 0);
  assert.equal(info.segments, 0);
  assert.ok(!Number.isNaN(Date.parse(info.createdAt)));
  await registry.create('articles', 'none');
  assert.deepEqual(registry.list().map((c) => c.name), ['articles', 'books']);
  assert.equal(registry.get('books').name, 'books');

  const dir = path.join(dataDir, 'collections', 'books');
  assert.ok(fs.existsSync(path.join(dir, 'collection.json')));
  assert.ok(fs.existsSync(path.join(dir, 'manifest.json')));
  await upsertJson(registry.get('books'), [{ id: 'x', text: 'to be removed' }], { waitForRefresh: false });
  await registry.get('books').refresh();

  await registry.delete('books');
  assert.ok(!fs.existsSync(dir), 'its files are removed');
  assert.deepEqual(fs.readdirSync(path.join(dataDir, 'collections')), ['articles']);
  assert.throws(() => registry.get('books'), isFolioError('collection_not_found'));
  await assert.rejects(registry.delete('books'), isFolioError('collection_not_found'));

  // The name is free again, and the new collection starts empty.
  const again = await registry.create('books', 'english');
  assert.equal(again.documents, 0);
});

test('names, languages and duplicates are validated', async (t) => {
  const registry = await openRegistry(t, tempDir(t));
  for (const bad of ['', 'Upper', '-leading', 'has space', 'a'.repeat(65), '../escape', '.hidden']) {
    await assert.rejects(registry.create(bad, 'english'), isFolioError('validation_failed'), bad);
  }
  await registry.create('a'.repeat(64), 'english');
  await assert.rejects(registry.create('ok', 'klingon'), (error: unknown) => {
    assert.ok(isFolioError('validation_failed')(error));
    assert.match((error as Error).message, /klingon.*english/);
    return true;
  });
  await registry.create('ok', 'english');
  await assert.rejects(registry.create('ok', 'english'), isFolioError('collection_exists'));
  assert.throws(() => registry.get('missing'), isFolioError('collection_not_found'));
});

test('collections are reloaded at start; crash leftovers are removed', async (t) => {
  const dataDir = tempDir(t);
  const first = await openCollectionRegistry(dataDir, MANUAL_REFRESH);
  await first.create('kept', 'german');
  await upsertJson(first.get('kept'), [{ id: 'k', text: 'bleibt erhalten' }], { waitForRefresh: false });
  await first.close();

  const root = path.join(dataDir, 'collections');
  // A create and a delete cut short by a crash, and a stray segment of a refresh that never committed.
  fs.mkdirSync(path.join(root, '.creating-half-abc123'));
  fs.writeFileSync(path.join(root, '.creating-half-abc123', 'collection.json'), '{}');
  fs.mkdirSync(path.join(root, '.deleting-gone-def456', 'wal'), { recursive: true });
  fs.writeFileSync(path.join(root, 'kept', 'seg-99.fseg'), 'stray');
  fs.writeFileSync(path.join(root, 'kept', 'seg-1.del-42'), 'stray');

  const second = await openRegistry(t, dataDir);
  assert.deepEqual(second.list().map((c) => [c.name, c.language, c.documents]), [['kept', 'german', 1]]);
  assert.deepEqual(fs.readdirSync(root), ['kept']);
  assert.ok(!fs.existsSync(path.join(root, 'kept', 'seg-99.fseg')));
  assert.ok(!fs.existsSync(path.join(root, 'kept', 'seg-1.del-42')));
  assert.equal(second.get('kept').getDocument('k').text, 'bleibt erhalten');
});

test('collections are independent', async (t) => {
  const registry = await openRegistry(t, tempDir(t));
  await registry.create('one', 'english');
  await registry.create('two', 'english');
  await upsertJson(registry.get('one'), [{ id: 'same', text: 'only in one' }], { waitForRefresh: false });
  await registry.get('one').refresh();
  const request = { q: 'only', match: 'any' as const, offset: 0, limit: 10, highlightTag: 'mark' };
  assert.equal((await searchResult(registry.get('one'), request)).total, 1);
  assert.equal((await searchResult(registry.get('two'), request)).total, 0);
  assert.throws(() => registry.get('two').getDocument('same'), isFolioError('document_not_found'));
});

test('a damaged manifest sets its collection aside, naming the file, while the others open', async (t) => {
  const dataDir = tempDir(t);
  const first = await openCollectionRegistry(dataDir, MANUAL_REFRESH);
  await first.create('fragile', 'english');
  await first.create('sound', 'english');
  await first.close();
  const manifest = path.join(dataDir, 'collections', 'fragile', 'manifest.json');
  fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').replace('"generation": 0', '"generation": 7'));
  const reported: string[] = [];
  const registry = await openRegistry(t, dataDir, { onDamage: (damaged) => reported.push(damaged.reason) });
  assert.deepEqual(registry.list().map((info) => info.name), ['sound']);
  assert.throws(() => registry.get('fragile'), (error: unknown) => isFolioError('collection_unavailable')(error) && /manifest\.json is damaged: checksum mismatch/.test((error as Error).message));
  assert.deepEqual(registry.unavailable().map((damaged) => [damaged.name, damaged.file]), [['fragile', 'manifest.json']]);
  assert.equal(reported.length, 1, 'the damage is reported once, loudly');
  // A damaged collection can be deleted, and its name used again.
  await registry.delete('fragile');
  assert.deepEqual(registry.unavailable(), []);
  await registry.create('fragile', 'english');
  assert.equal(registry.get('fragile').info().documents, 0);
});

test('a deleted collection refuses further use', async (t) => {
  const registry = await openRegistry(t, tempDir(t));
  await registry.create('temp', 'english');
  const collection = registry.get('temp');
  await registry.delete('temp');
  await assert.rejects(upsertJson(collection, [{ id: 'x' }], { waitForRefresh: false }), isFolioError('collection_not_found'));
  assert.throws(() => collection.getDocument('x'), isFolioError('collection_not_found'));
});

test('collections open when used and close when idle; at most maxOpen stay open; a held one stays', async (t) => {
  const dataDir = tempDir(t);
  const first = await openCollectionRegistry(dataDir, { refreshIntervalMs: 20 });
  for (const name of ['a', 'b', 'c', 'd', 'e']) {
    await first.create(name, 'english');
    await upsertJson(first.getCollection(name), [{ id: 'one', text: `words of ${name}` }], { waitForRefresh: true });
  }
  await first.close();

  // A new server opens nothing at start; a search opens its collection, which then closes when idle.
  const registry = await openRegistry(t, dataDir, { refreshIntervalMs: 20, collectionIdleMs: 100, maxOpenCollections: 2 });
  assert.deepEqual(registry.openNames(), []);
  assert.deepEqual(registry.list().map((info) => [info.name, info.documents]), [['a', 1], ['b', 1], ['c', 1], ['d', 1], ['e', 1]], 'listed from their files');
  assert.deepEqual(registry.openNames(), [], 'listing opens nothing');
  assert.equal((await searchResult(registry.get('a'), { q: 'words', match: 'any', offset: 0, limit: 10, highlightTag: 'mark' })).total, 1);
  assert.deepEqual(registry.openNames(), ['a']);
  // Past maxOpen, the least recently used idle ones close (a collection just opened is busy a moment: it checks for merges).
  for (const name of ['b', 'c', 'd']) {
    registry.get(name);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(registry.openNames(), ['c', 'd']);
  // A held collection is not closed for being idle; released, it is.
  const release = registry.hold('d');
  await pollUntil('c closed once idle', 10_000, async () => registry.openNames().length === 1);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(registry.openNames(), ['d'], 'the held one stays open');
  release();
  await pollUntil('d closed once released', 10_000, async () => registry.openNames().length === 0);
  // Opened again, it has its documents; a write keeps it open until searchable.
  const b = registry.getCollection('b');
  await upsertJson(b, [{ id: 'two', text: 'more words' }], { waitForRefresh: false });
  assert.equal(b.idle, false, 'a write waiting for its refresh');
  await b.refresh();
  assert.equal((await searchResult(registry.get('b'), { q: 'words', match: 'any', offset: 0, limit: 10, highlightTag: 'mark' })).total, 2);
  // Deleting a closed collection removes it.
  await registry.delete('e');
  assert.deepEqual(registry.names().sort(), ['a', 'b', 'c', 'd']);
  assert.equal(fs.existsSync(path.join(dataDir, 'collections', 'e')), false);
});
