// Search by meaning over real HTTP with the builtin model (issue 16): a collection with a
// `builtin` embedder embeds its documents in the background (the record shows the progress);
// a query that shares no word with its answer finds it ("feline resting on a rug" → the cat on
// the mat); a semantic hit in a PDF names the page its passage came from; hybrid fuses both
// rankings and explains how; a caller's vector is checked; keyword search is untouched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { textPdf } from '../../benchmarks/extraction-pdf-writer.ts';
import { pollUntil } from '../helpers/poll.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

interface Hit {
  id: string;
  score: number;
  page: number | null;
  page_label: string | null;
  snippet: string;
  matched_pages: number[];
  explain?: { description: string };
}

const DOCS = [
  { id: 'cat', title: 'At home', text: 'The cat sat on the mat and purred all afternoon.' },
  { id: 'stocks', title: 'Markets', text: 'Stock markets fell sharply on Monday as investors sold bank shares.' },
  { id: 'bread', title: 'Baking', text: 'Knead the bread dough with flour, water, yeast and salt, then bake it.' },
  { id: 'rain', title: 'Weather', text: 'Heavy rain and thunderstorms are expected across the region tomorrow.' },
];

const PDF_PAGES = [
  ['Quarterly revenue grew by eight percent while operating costs stayed flat.'],
  ['The puppy chased a tennis ball across the park and brought it back to his owner.'],
  ['Volcanoes erupt when molten rock rises through cracks in the crust.'],
];

describe('search by meaning (builtin model)', () => {
  let server: TestServer;

  async function search(params: Record<string, string>): Promise<{ hits: Hit[]; total: number; semantic_coverage?: number; warnings?: { code: string }[] }> {
    const response = await server.request('GET', `/v1/collections/meaning/search?${new URLSearchParams(params)}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  before(async () => {
    server = await startTestServer({ refreshIntervalMs: 50 });
    const created = await server.request('POST', '/v1/collections', { name: 'meaning', embedders: { use: { source: 'builtin' } } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.settings.embedders.use, {
      source: 'builtin',
      model: 'use-lite',
      url: null,
      api_key_set: false,
      dimensions: 512,
      document_template: '{{title}}\n{{text}}',
      default_semantic_ratio: 0.1,
    });
    assert.equal((await server.request('POST', '/v1/collections/meaning/documents', DOCS)).status, 200);
    const form = new FormData();
    form.append('id', 'report');
    form.append('file', new Blob([new Uint8Array(textPdf(PDF_PAGES))]), 'report.pdf');
    const upload = await fetch(`${server.url}/v1/collections/meaning/files`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}` }, body: form });
    assert.equal(upload.status, 201, await upload.text());
    // Writes are acknowledged at once; the embedding follows in the background.
    await pollUntil('every document embedded', 60_000, async () => {
      const record = await server.request('GET', '/v1/collections/meaning');
      const progress = record.body.embedding.use;
      return progress.embedded === DOCS.length + 1 && progress.pending === 0 && progress.failed === 0;
    });
  });
  after(() => server.close());

  test('a query that shares no word with its answer finds it', async () => {
    const result = await search({ q: 'feline resting on a rug', mode: 'semantic' });
    assert.equal(result.hits[0].id, 'cat', JSON.stringify(result.hits.map((hit) => hit.id)));
    assert.equal(result.semantic_coverage, 1);
    assert.equal(result.warnings, undefined);
    assert.equal(result.total, DOCS.length + 1);
    assert.match(result.hits[0].snippet, /cat sat on the mat/);
    assert.equal((await search({ q: 'wet stormy forecast', mode: 'semantic' })).hits[0].id, 'rain');
  });

  test('a semantic hit in a PDF names the page of its passage', async () => {
    const result = await search({ q: 'a dog playing fetch outdoors', mode: 'semantic', limit: '1' });
    assert.equal(result.hits[0].id, 'report');
    assert.equal(result.hits[0].page, 2);
    assert.deepEqual(result.hits[0].matched_pages, [2]);
    assert.match(result.hits[0].snippet, /puppy chased/);
    const lava = await search({ q: 'eruption of magma', mode: 'semantic', limit: '1' });
    assert.equal(lava.hits[0].page, 3);
  });

  test('similar_to finds documents like a document, itself left out', async () => {
    const result = await search({ similar_to: 'cat' });
    assert.equal(result.total, DOCS.length, 'every other embedded document');
    assert.ok(!result.hits.some((hit) => hit.id === 'cat'));
    const response = await server.request('GET', '/v1/collections/meaning/search?similar_to=absent');
    assert.equal(response.status, 404);
  });

  test('hybrid fuses keywords and meaning, and explains the fusion', async () => {
    // "kitten" is in no document: the keyword side finds nothing, meaning still finds the cat.
    const keywordOnly = await search({ q: 'kitten', typos: '0' });
    assert.equal(keywordOnly.total, 0);
    const hybrid = await search({ q: 'kitten', mode: 'hybrid', explain: 'true', typos: '0' });
    assert.equal(hybrid.hits[0].id, 'cat');
    assert.match(hybrid.hits[0].explain!.description, /hybrid, convex fusion/);
    // A keyword match stays first at the default ratio; ratio 0 is the keyword ranking.
    const bread = await search({ q: 'flour', mode: 'hybrid' });
    assert.equal(bread.hits[0].id, 'bread');
    const rrf = await search({ q: 'flour', mode: 'hybrid', fusion: 'rrf', semantic_ratio: '0.5' });
    assert.equal(rrf.hits[0].id, 'bread');
  });

  test("a caller's vector is used as it is, and checked", async () => {
    const vector = Array.from({ length: 512 }, (_, i) => (i === 0 ? 1 : 0));
    const ok = await server.request('POST', '/v1/collections/meaning/search', { mode: 'semantic', vector, limit: 3 });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.hits.length, 3);
    const wrong = await server.request('POST', '/v1/collections/meaning/search', { mode: 'semantic', vector: [1, 2, 3] });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 'invalid_vector');
    const unknown = await server.request('GET', '/v1/collections/meaning/search?q=cat&mode=semantic&embedder=other');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'validation_failed');
    const sorted = await server.request('GET', '/v1/collections/meaning/search?q=cat&mode=hybrid&sort=title');
    assert.equal(sorted.status, 400);
  });

  test('a collection without an embedder refuses semantic search with a clear 400', async () => {
    assert.equal((await server.request('POST', '/v1/collections', { name: 'plain' })).status, 201);
    const response = await server.request('GET', '/v1/collections/plain/search?q=cat&mode=semantic');
    assert.equal(response.status, 400);
    assert.match(response.body.detail ?? response.body.message ?? response.text, /embedder/);
  });

  test('embedder settings: checked, the API key never returned, removal drops the vectors', async () => {
    const bad = await server.request('PATCH', '/v1/collections/meaning', { embedders: { 'bad name': { source: 'builtin' } } });
    assert.equal(bad.status, 400);
    const noUrl = await server.request('PATCH', '/v1/collections/meaning', { embedders: { remote: { source: 'openai', model: 'm' } } });
    assert.equal(noUrl.status, 400);
    const remote = await server.request('PATCH', '/v1/collections/meaning', {
      embedders: { remote: { source: 'openai', model: 'm', url: 'http://127.0.0.1:9/v1', api_key: 'sk-secret-value' } },
    });
    assert.equal(remote.status, 200, remote.text);
    assert.equal(remote.body.settings.embedders.remote.api_key_set, true);
    assert.ok(!remote.text.includes('sk-secret-value'), 'the key is never returned');
    const removed = await server.request('PATCH', '/v1/collections/meaning', { embedders: { remote: null } });
    assert.equal(removed.status, 200);
    assert.deepEqual(Object.keys(removed.body.settings.embedders), ['use']);
    assert.equal(removed.body.embedding.use.embedded, DOCS.length + 1, 'the other embedder keeps its vectors');
  });
});
