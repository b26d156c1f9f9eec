// The TypeScript client (clients/typescript/) end to end against a real server: every method,
// uploads from a path, bytes and a stream, downloads of kept originals, search with filters,
// facets, sorting and paging, keys, sessions and webhooks; FolioError fields on 404, 400, 429
// and network failures; 429 retried after Retry-After. And the drift test: the types generated
// from the live /v1/openapi.json must equal the checked-in clients/typescript/api-types.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { FolioClient, FolioError, fileNameOf } from '../../clients/typescript/index.ts';
import type { DocumentInput, SearchHit } from '../../clients/typescript/index.ts';
import { retryAfterMs } from '../../clients/typescript/transport.ts';
import { API_TYPES_PATH, generateClientTypes } from '../../scripts/generate-client-types.ts';
import type { OpenApiDocument } from '../../scripts/generate-client-types.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const root = new URL('../../', import.meta.url);
const fixture = (name: string): string => fileURLToPath(new URL(`fixtures/files/${name}`, root));

/** Runs `call` and returns the FolioError it throws (failing when it throws anything else or nothing). */
async function folioError(call: () => Promise<unknown>): Promise<FolioError> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof FolioError, `expected a FolioError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to throw a FolioError');
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('TypeScript client', () => {
  let server: TestServer;
  let client: FolioClient;

  before(async () => {
    server = await startTestServer({ keepFiles: true });
    client = new FolioClient({ url: `${server.url}/`, apiKey: TEST_MASTER_KEY });
  });
  after(async () => server.close());

  test('the generated types match the live OpenAPI description (regenerate with npm run generate:client-types)', async () => {
    const live = (await client.openApi()) as unknown as OpenApiDocument;
    const checkedIn = readFileSync(new URL(API_TYPES_PATH, root), 'utf8');
    assert.equal(generateClientTypes(live), checkedIn);
  });

  test('health, openApi, formats and stats', async () => {
    const health = await new FolioClient({ url: server.url }).health();
    assert.equal(health.status, 'ok');
    const stats = await client.stats();
    assert.equal(stats.version, health.version);
    assert.ok(Array.isArray(stats.collections) && stats.uptime_s >= 0 && stats.searches.total >= 0);
    assert.match((await client.openApi()).openapi, /^3\.1/);
    const { formats } = await client.formats();
    assert.ok(formats.some((f) => f.extension === 'pdf'));
    assert.ok(formats.some((f) => f.extension === 'md'));
  });

  test('collections: create, list, get, delete', async () => {
    const created = await client.createCollection('books', { language: 'french' });
    assert.equal(created.name, 'books');
    assert.equal(created.language, 'french');
    assert.ok((await client.listCollections()).collections.some((c) => c.name === 'books'));
    assert.equal((await client.getCollection('books')).documents, 0);
    assert.equal(created.settings.typo_tolerance.enabled, true);
    const updated = await client.updateCollection('books', { typo_tolerance: { enabled: false, disable_on_fields: ['title'] } });
    assert.equal(updated.settings.typo_tolerance.enabled, false);
    assert.deepEqual(updated.settings.typo_tolerance.disable_on_fields, ['title']);
    assert.deepEqual((await client.getCollection('books')).settings, updated.settings);
    await client.deleteCollection('books');
    const gone = await folioError(() => client.getCollection('books'));
    assert.equal(gone.status, 404);
    assert.equal(gone.code, 'collection_not_found');
  });

  test('FolioError carries status, code, detail and field errors', async () => {
    const missing = await folioError(() => client.getDocument('nowhere', 'x'));
    assert.equal(missing.status, 404);
    assert.equal(missing.code, 'collection_not_found');
    assert.match(missing.detail, /nowhere/);
    assert.equal(missing.errors, undefined);
    assert.equal(missing.name, 'FolioError');

    const invalid = await folioError(() => client.createCollection('Not A Name'));
    assert.equal(invalid.status, 400);
    assert.equal(invalid.code, 'validation_failed');
    assert.ok(invalid.errors !== undefined && invalid.errors.some((e) => e.path === '/body/name'), JSON.stringify(invalid.errors));

    await client.createCollection('errs');
    const badFilter = await folioError(() => client.search('errs', '', { filter: { year: { $gte: 1 } } }));
    assert.equal(badFilter.status, 400);
    assert.equal(badFilter.code, 'invalid_filter');
  });

  test('network failures are FolioError status 0 network_error', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await folioError(() => new FolioClient({ url: `http://127.0.0.1:${port}` }).health());
    assert.equal(error.status, 0);
    assert.equal(error.code, 'network_error');
  });

  test('documents: upsert, upsertMany, get, list, patch, delete, deleteByFilter, refresh', async () => {
    await client.createCollection('docs');
    const summary = await client.upsert('docs', 'doc:1.v2', { title: 'Sourdough', text: 'Feed the starter', metadata: { tags: ['bread'] } });
    assert.equal(summary.id, 'doc:1.v2');
    assert.equal(summary.format, 'text');

    const batch = await client.upsertMany('docs', [
      { id: 'a', text: 'rye flour', metadata: { status: 'draft' } },
      { id: 'b', text: 'lemon cake', metadata: { status: 'draft' } },
      { id: 'c', text: 'tomato soup', metadata: { status: 'final' } },
    ], { refresh: true });
    assert.deepEqual(batch, { indexed: 3, ids: ['a', 'b', 'c'] });

    const stored = await client.getDocument('docs', 'doc:1.v2');
    assert.equal(stored.text, 'Feed the starter');
    assert.equal(stored.page_list, null);

    const patched = await client.patchDocument('docs', 'doc:1.v2', { metadata: { tags: null, rating: 5 } });
    assert.deepEqual(patched.metadata, { rating: 5 });
    assert.equal((await client.getDocument('docs', 'doc:1.v2')).text, 'Feed the starter');

    const firstPage = await client.listDocuments('docs', { limit: 2 });
    assert.deepEqual(firstPage.documents.map((d) => d.id), ['a', 'b']);
    assert.equal(firstPage.documents[0].text, undefined); // the summary by default
    const secondPage = await client.listDocuments('docs', { limit: 2, cursor: firstPage.next_cursor!, fields: ['text'] });
    assert.deepEqual(secondPage, { documents: [{ id: 'c', text: 'tomato soup' }, { id: 'doc:1.v2', text: 'Feed the starter' }], next_cursor: null });
    const drafts: string[] = [];
    for await (const d of client.allDocuments('docs', { filter: { status: 'draft' }, limit: 1, fields: ['id'] })) drafts.push(d.id);
    assert.deepEqual(drafts, ['a', 'b']);

    await client.deleteDocument('docs', 'c', { refresh: true });
    const deletedTwice = await folioError(() => client.deleteDocument('docs', 'c'));
    assert.equal(deletedTwice.code, 'document_not_found');

    assert.deepEqual(await client.deleteByFilter('docs', { status: 'draft' }, { refresh: true }), { deleted: 2 });
    assert.deepEqual(await client.refresh('docs'), { refreshed: true });
    assert.equal((await client.search('docs', '')).total, 1);
  });

  test('uploads from a path, bytes and a stream; downloads of the kept original', async () => {
    await client.createCollection('files');
    const pdf = await client.upload('files', fixture('sample.pdf'), { id: 'pdf-1', metadata: { kind: 'report' } });
    assert.equal(pdf.id, 'pdf-1');
    assert.equal(pdf.format, 'pdf');
    assert.ok(pdf.pages !== null && pdf.pages >= 1);
    assert.deepEqual(pdf.metadata, { kind: 'report', format: 'pdf', extension: 'pdf', size: pdf.bytes }, "the caller's metadata and the file's facts");

    const markdown = readFileSync(fixture('sample.md'));
    const fromBytes = await client.upload('files', markdown, { fileName: 'notes.md', title: 'From bytes', id: 'md-bytes' });
    assert.equal(fromBytes.format, 'md');
    assert.equal(fromBytes.title, 'From bytes');

    const fromStream = await client.upload('files', createReadStream(fixture('sample.md')), { refresh: true });
    assert.equal(fromStream.format, 'md');
    assert.match(fromStream.id, /^[0-9a-f]{64}$/, 'without an id, the SHA-256 of the bytes');

    const fromBlob = await client.upload('files', new Blob([markdown]), { fileName: 'blob.md', id: 'md-blob' });
    assert.equal(fromBlob.bytes, markdown.length);

    // OCR languages travel as the form part the server reads: English is there, Klingon is not.
    assert.equal((await client.upload('files', markdown, { fileName: 'eng.md', id: 'md-eng', ocrLanguages: ['eng'] })).id, 'md-eng');
    const klingon = await folioError(() => client.upload('files', markdown, { fileName: 'tlh.md', ocrLanguages: ['tlh', 'eng'] }));
    assert.equal(klingon.status, 400);
    assert.match(klingon.message, /folio ocr add tlh/);
    assert.ok((await client.formats()).ocr_languages.includes('eng'));

    const hits = await client.search('files', 'folioquokka');
    assert.ok(hits.hits.some((hit) => hit.id === fromStream.id));

    const downloaded = await client.downloadFile('files', 'md-bytes');
    assert.deepEqual(Buffer.from(downloaded.bytes), markdown);
    assert.equal(downloaded.fileName, 'notes.md');
    assert.match(downloaded.contentType, /^text\/markdown/);
    assert.deepEqual(Buffer.from((await client.downloadFile('files', 'pdf-1')).bytes), readFileSync(fixture('sample.pdf')));
    const pagePicture = await client.pageImage('files', 'pdf-1', 1, { width: 100, format: 'png' });
    assert.equal(pagePicture.contentType, 'image/png');
    assert.deepEqual([...pagePicture.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal((await folioError(() => client.pageImage('files', 'md-bytes', 1))).code, 'preview_unavailable');

    await client.upsert('files', 'json-doc', { text: 'no file' });
    const noFile = await folioError(() => client.downloadFile('files', 'json-doc'));
    assert.equal(noFile.status, 404);
    assert.equal(noFile.code, 'not_found');
  });

  test('search with filter, facets, sort and highlight; searchAll pages through every hit', async () => {
    await client.createCollection('recipes');
    const docs: DocumentInput[] = Array.from({ length: 25 }, (_, i) => ({
      id: `r${String(i).padStart(2, '0')}`,
      title: `Recipe ${i}`,
      text: i % 2 === 0 ? 'bread with flour and water' : 'soup with tomato and flour',
      metadata: { kind: i % 2 === 0 ? 'bread' : 'soup', minutes: i * 10 },
    }));
    await client.upsertMany('recipes', docs, { refresh: true });

    const page = await client.search('recipes', 'flour', {
      filter: { kind: 'bread', minutes: { gte: 40 } },
      facets: ['kind', 'minutes'],
      sort: ['minutes:desc'],
      limit: 3,
      highlight: 'em',
    });
    assert.equal(page.total, 11);
    assert.equal(page.has_more, true);
    assert.deepEqual(page.hits.map((hit) => hit.id), ['r24', 'r22', 'r20']);
    assert.deepEqual(page.facets.kind, { bread: 11 });
    assert.deepEqual(page.facet_stats?.minutes, { min: 40, max: 240 });
    assert.match(page.hits[0].highlight!, /<em>flour<\/em>/);

    const all: SearchHit[] = await collect(client.searchAll('recipes', '', { limit: 10, sort: '_id:asc' }));
    assert.deepEqual(all.map((hit) => hit.id), docs.map((doc) => doc.id));
    const rest = await collect(client.searchAll('recipes', 'soup', { limit: 5, offset: 10 }));
    assert.equal(rest.length, 2);

    // Several searches in one request, and one list merged across them.
    const { results } = await client.multiSearch([{ collection: 'recipes', q: 'soup', limit: 2 }, { collection: 'recipes', q: 'bread', fields: ['id'] }]);
    assert.deepEqual(results.map((result) => [result.collection, result.hits.length, result.total]), [['recipes', 2, 12], ['recipes', 10, 13]]);
    const merged = await client.federatedSearch([{ collection: 'recipes', q: 'soup' }, { collection: 'recipes', q: 'bread' }], { limit: 30 });
    assert.equal(merged.hits.length, 25);
    assert.deepEqual(new Set(merged.hits.map((hit) => hit.query)), new Set([0, 1]));
    // A facet's values as the user types.
    const kinds = await client.facetSearch('recipes', 'kind', 'bre');
    assert.deepEqual(kinds.values, [{ value: 'bread', count: 13 }]);
    assert.deepEqual((await client.facetSearch('recipes', 'kind', 'so', { query: 'tomato', limit: 1 })).values, [{ value: 'soup', count: 12 }]);

    // Typos: on by default, off with typos: 0, and a search without hits suggests.
    assert.equal((await client.search('recipes', 'tomatto')).total, 12);
    const strict = await client.search('recipes', 'tomatto', { typos: 0 });
    assert.equal(strict.total, 0);
    assert.deepEqual(strict.suggestions, [{ text: 'tomato' }]);

    // Synonyms: a collection setting applied at once, and off per search.
    const withSynonyms = await client.updateCollection('recipes', { synonyms: [{ input: ['loaf'], words: ['bread'] }] });
    assert.deepEqual(withSynonyms.settings.synonyms, [{ input: ['loaf'], words: ['bread'] }]);
    assert.equal((await client.search('recipes', 'loaf', { typos: 0 })).total, 13);
    assert.equal((await client.search('recipes', 'loaf', { typos: 0, synonyms: false })).total, 0);

    // Ranking by fields: the longest recipes first among equal matches.
    const boosted = await client.search('recipes', 'bread', { boost: [{ field: 'metadata.minutes', modifier: 'log1p' }], limit: 1 });
    assert.equal(boosted.hits[0].id, 'r24');

    // Grouping: one hit a kind, total counting kinds.
    const grouped = await client.search('recipes', 'flour', { distinct: 'kind', group_size: 2 });
    assert.equal(grouped.total, 2);
    assert.equal(grouped.hits.length, 4);

    // Searchable fields: the text alone, with a weight.
    assert.equal((await client.search('recipes', 'flour', { search_fields: ['text^2'], typos: 0 })).total, 25);
    // A metadata field made searchable: indexed in the background, then searched and highlighted.
    let record = await client.updateCollection('recipes', {
      searchable_fields: [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }, { field: 'metadata.kind', weight: 2 }],
    });
    for (let i = 0; record.reindexing !== null && i < 400; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      record = await client.getCollection('recipes');
    }
    assert.equal(record.reindexing, null);
    const byKind = await client.search('recipes', 'kind:bread', { limit: 1 });
    assert.equal(byKind.total, 13);
    assert.deepEqual(byKind.hits[0].metadata_highlights, { kind: '<mark>bread</mark>' });
  });

  test('search by meaning: an embedder on the collection, semantic and hybrid searches, a caller vector', async () => {
    const created = await client.createCollection('meaning', { embedders: { use: { source: 'builtin' } } });
    assert.equal(created.settings.embedders.use.source, 'builtin');
    await client.upsertMany('meaning', [{ id: 'cat', text: 'The cat sat on the mat.' }, { id: 'stocks', text: 'Stock markets fell sharply on Monday.' }], { refresh: true });
    const deadline = Date.now() + 60_000;
    while ((await client.getCollection('meaning')).embedding.use.embedded < 2) {
      assert.ok(Date.now() < deadline, 'documents embedded within a minute');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const semantic = await client.search('meaning', 'feline resting on a rug', { mode: 'semantic' });
    assert.equal(semantic.hits[0].id, 'cat');
    assert.equal(semantic.semantic_coverage, 1);
    const hybrid = await client.search('meaning', 'markets', { mode: 'hybrid', semantic_ratio: 0.5 });
    assert.equal(hybrid.hits[0].id, 'stocks');
    const own = await client.search('meaning', '', { mode: 'semantic', vector: [1, ...new Array(511).fill(0)], limit: 1 });
    assert.equal(own.hits.length, 1);
    await assert.rejects(client.search('meaning', '', { mode: 'semantic', vector: [1, 2] }), (error: FolioError) => error.code === 'invalid_vector');
  });

  test('API keys: create, use, list, delete', async () => {
    await client.createCollection('keyed');
    const created = await client.createKey({ name: 'ci', scopes: ['search'], collections: ['keyed'] });
    assert.match(created.key, /^folio_[0-9A-Za-z]{40}$/);
    assert.equal(created.prefix, created.key.slice(0, 10));
    const keyed = new FolioClient({ url: server.url, apiKey: created.key });
    assert.equal((await keyed.search('keyed', '')).total, 0);
    assert.equal((await folioError(() => keyed.createCollection('other'))).code, 'forbidden');

    const { keys } = await client.listKeys();
    assert.ok(keys.some((key) => key.id === created.id && key.name === 'ci'));
    assert.ok(!JSON.stringify(keys).includes(created.key));
    await client.deleteKey(created.id);
    assert.equal((await folioError(() => keyed.listCollections())).status, 401);
    assert.equal((await folioError(() => client.deleteKey(created.id))).code, 'key_not_found');
  });

  test('a key with a filter sees only its documents', async () => {
    await client.createCollection('tenants');
    await client.upsertMany('tenants', [
      { id: 'mine', text: 'shared words', metadata: { tenant: 'acme' } },
      { id: 'theirs', text: 'shared words', metadata: { tenant: 'globex' } },
    ], { refresh: true });
    const created = await client.createKey({ name: 'acme', filter: { tenant: 'acme' } });
    assert.deepEqual(created.filter, { tenant: 'acme' });
    assert.deepEqual(created.scopes, ['search']);
    const acme = new FolioClient({ url: server.url, apiKey: created.key });
    assert.deepEqual((await acme.search('tenants', 'shared')).hits.map((hit) => hit.id), ['mine']);
    assert.equal((await folioError(() => acme.getDocument('tenants', 'theirs'))).code, 'document_not_found');
  });

  test('sessions: open with the master key, use, log out', async () => {
    const session = await new FolioClient({ url: server.url }).createSession(TEST_MASTER_KEY);
    assert.match(session.token, /^folio_sess_/);
    const sessionClient = new FolioClient({ url: server.url, apiKey: session.token });
    assert.ok(Array.isArray((await sessionClient.listCollections()).collections));
    await sessionClient.deleteSession();
    const loggedOut = await folioError(() => sessionClient.listCollections());
    assert.equal(loggedOut.status, 401);
    assert.equal(loggedOut.code, 'unauthorized');
  });

  test('webhooks: create, list, get, deliveries, delete', async () => {
    const hook = await client.createWebhook({ url: 'https://example.com/hook', events: ['key.deleted'], description: 'client test' });
    assert.match(hook.secret, /^whsec_/);
    assert.equal(hook.description, 'client test');
    assert.ok((await client.listWebhooks()).webhooks.some((w) => w.id === hook.id));
    assert.equal((await client.getWebhook(hook.id)).url, 'https://example.com/hook');
    assert.deepEqual((await client.listDeliveries(hook.id)).deliveries, []);
    await client.deleteWebhook(hook.id);
    assert.equal((await folioError(() => client.getWebhook(hook.id))).code, 'webhook_not_found');
    const invalid = await folioError(() => client.createWebhook({ url: 'https://example.com/hook', events: ['nope.nope'] }));
    assert.equal(invalid.code, 'validation_failed');
  });

  test('a 429 is retried after Retry-After, within maxRetries and maxRetryWaitMs', async () => {
    const { key } = await client.createKey({ name: 'slow', rate_limit: { per_second: 1, burst: 1 } });
    const limited = (options: { maxRetries?: number; maxRetryWaitMs?: number } = {}): FolioClient =>
      new FolioClient({ url: server.url, apiKey: key, ...options });

    await limited().listCollections(); // empties the bucket
    const started = Date.now();
    assert.ok(Array.isArray((await limited().listCollections()).collections), 'succeeds after one retry');
    assert.ok(Date.now() - started >= 900, 'waited for Retry-After (1 s)');

    const noRetries = await folioError(() => limited({ maxRetries: 0 }).listCollections());
    assert.equal(noRetries.status, 429);
    assert.equal(noRetries.code, 'rate_limited');

    await new Promise((resolve) => setTimeout(resolve, 1100)); // the bucket refills
    await limited().listCollections();
    const quick = Date.now();
    const tooLong = await folioError(() => limited({ maxRetryWaitMs: 500 }).listCollections());
    assert.equal(tooLong.code, 'rate_limited');
    assert.ok(Date.now() - quick < 500, 'does not wait when Retry-After exceeds maxRetryWaitMs');
  });
});

test('Retry-After and Content-Disposition parsing', () => {
  assert.equal(retryAfterMs('2'), 2000);
  assert.equal(retryAfterMs(null), 1000);
  assert.equal(retryAfterMs('soon'), 1000);
  assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6000);
  assert.equal(fileNameOf(`attachment; filename="caf_.md"; filename*=UTF-8''caf%C3%A9.md`), 'café.md');
  assert.equal(fileNameOf('attachment; filename="plain.txt"'), 'plain.txt');
  assert.equal(fileNameOf(null), null);
});
