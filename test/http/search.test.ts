// Search over HTTP (docs/api.md, "Search"): the response carries every field, paging and has_more agree,
// highlights are HTML-escaped, the query syntax works (match all/any, phrases, -exclusion,
// title:word), explain attaches score explanations, and collections never leak into each other.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const PAGED_DOCUMENTS = 25;

describe('search', () => {
  let server: TestServer;
  const search = async (collection: string, params: Record<string, string | number | boolean>) => {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
    const response = await server.request('GET', `/v1/collections/${collection}/search?${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const ids = async (collection: string, q: string, extra: Record<string, string> = {}) =>
    (await search(collection, { q, limit: 100, ...extra })).hits.map((hit: { id: string }) => hit.id).sort();

  before(async () => {
    server = await startTestServer();
    for (const name of ['library', 'paged', 'other']) await server.request('POST', '/v1/collections', { name });
    const library = [
      { id: 'fox', title: 'The quick brown fox', text: 'A quick brown fox jumps over the lazy dog.', metadata: { kind: 'story', year: 2021 } },
      { id: 'dog', title: 'Lazy dogs', text: 'The dog is lazy and brown. Nothing quick about it.', metadata: { kind: 'story' } },
      { id: 'cat', title: 'Cats', text: 'A cat watches the fox from the fence.', metadata: { kind: 'essay', tags: ['pets'] } },
      { id: 'xss', title: 'Unsafe markup', text: 'Before <script>alert("owned")</script> the payload word & more <b>bold</b> text.' },
      { id: 'swap', title: 'Word order', text: 'brown is the fox, and quick was it.' },
    ];
    assert.equal((await server.request('POST', '/v1/collections/library/documents?refresh=wait_for', library)).status, 200);
    const paged = Array.from({ length: PAGED_DOCUMENTS }, (_, i) => ({ id: `p${String(i).padStart(2, '0')}`, text: `pagination sample ${i}` }));
    assert.equal((await server.request('POST', '/v1/collections/paged/documents?refresh=wait_for', paged)).status, 200);
    const other = [{ id: 'fox', title: 'Other fox', text: 'fox in another collection' }, { id: 'elsewhere', text: 'fox fox fox' }];
    assert.equal((await server.request('POST', '/v1/collections/other/documents?refresh=wait_for', other)).status, 200);
  });
  after(() => server.close());

  test('the response has every field of docs/api.md, "Search"', async () => {
    const body = await search('library', { q: 'fox' });
    assert.deepEqual(Object.keys(body), ['hits', 'facets', 'total', 'total_relation', 'timed_out', 'offset', 'limit', 'has_more', 'took_ms'], 'in the wire order');
    assert.deepEqual(body.facets, {});
    assert.equal(body.offset, 0);
    assert.equal(body.limit, 10);
    assert.equal(typeof body.took_ms, 'number');
    assert.ok(body.total >= 3);
    const hit = body.hits.find((h: { id: string }) => h.id === 'fox');
    assert.deepEqual(Object.keys(hit), [
      'id', 'title', 'score', 'format', 'page', 'page_label', 'snippet', 'highlight', 'metadata', 'matched_pages',
    ], 'in the wire order');
    assert.equal(hit.title, 'The quick brown fox');
    assert.equal(hit.format, 'text');
    assert.equal(hit.page, null);
    assert.equal(hit.page_label, null);
    assert.deepEqual(hit.matched_pages, []);
    assert.ok(hit.score > 0);
    assert.deepEqual(hit.metadata, { kind: 'story', year: 2021 });
    assert.match(hit.snippet, /fox/);
    assert.match(hit.highlight, /<mark>fox<\/mark>/i);
    for (let i = 1; i < body.hits.length; i++) assert.ok(body.hits[i - 1].score >= body.hits[i].score, 'hits are ranked');
  });

  test('highlight escapes the document HTML; snippet stays plain text', async () => {
    const { hits } = await search('library', { q: 'payload' });
    assert.equal(hits.length, 1);
    const [hit] = hits;
    assert.match(hit.highlight, /<mark>payload<\/mark>/);
    assert.ok(!hit.highlight.includes('<script>'), hit.highlight);
    assert.ok(!hit.highlight.includes('<b>'), hit.highlight);
    assert.match(hit.highlight, /&lt;script&gt;/);
    assert.match(hit.highlight, /&amp;/);
    assert.ok(hit.snippet.includes('<script>'), 'the snippet is the raw text');
    const custom = await search('library', { q: 'payload', highlight_tag: 'em' });
    assert.match(custom.hits[0].highlight, /<em>payload<\/em>/);
  });

  test('paging: offset and limit walk every match once; has_more = offset + hits < total', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < PAGED_DOCUMENTS; offset += 10) {
      const page = await search('paged', { q: 'pagination', offset, limit: 10 });
      assert.equal(page.total, PAGED_DOCUMENTS);
      assert.equal(page.offset, offset);
      assert.equal(page.limit, 10);
      assert.equal(page.hits.length, Math.min(10, PAGED_DOCUMENTS - offset));
      assert.equal(page.has_more, offset + page.hits.length < PAGED_DOCUMENTS);
      seen.push(...page.hits.map((hit: { id: string }) => hit.id));
    }
    assert.equal(new Set(seen).size, PAGED_DOCUMENTS);
    const beyond = await search('paged', { q: 'pagination', offset: 100 });
    assert.deepEqual(beyond.hits, []);
    assert.equal(beyond.has_more, false);
    assert.equal(beyond.total, PAGED_DOCUMENTS);
  });

  test('an empty q matches every document', async () => {
    const body = await search('paged', { q: '', limit: 5 });
    assert.equal(body.total, PAGED_DOCUMENTS);
    assert.equal(body.hits.length, 5);
    assert.equal(body.has_more, true);
    assert.equal((await search('paged', {})).total, PAGED_DOCUMENTS);
  });

  test('match=any (default) vs match=all', async () => {
    const any = await ids('library', 'cat lazy');
    assert.deepEqual(any, ['cat', 'dog', 'fox']);
    assert.deepEqual(await ids('library', 'cat lazy', { match: 'any' }), any);
    assert.deepEqual(await ids('library', 'fox lazy', { match: 'all' }), ['fox']);
    assert.deepEqual(await ids('library', 'cat lazy', { match: 'all' }), []);
  });

  test('"exact phrase" matches the words in order only', async () => {
    assert.deepEqual(await ids('library', '"quick brown fox"'), ['fox']);
    assert.deepEqual(await ids('library', 'quick brown fox', { match: 'all' }), ['fox', 'swap']);
  });

  test('-excluded removes matches; +required requires', async () => {
    assert.deepEqual(await ids('library', 'fox -cat'), ['fox', 'swap']);
    assert.deepEqual(await ids('library', 'brown +lazy'), ['dog', 'fox']);
  });

  test('title:word searches the title only', async () => {
    assert.deepEqual(await ids('library', 'title:fox'), ['fox']);
    assert.deepEqual(await ids('library', 'title:cats'), ['cat']);
  });

  test('explain=true attaches a score explanation to each hit', async () => {
    const plain = await search('library', { q: 'fox' });
    assert.ok(plain.hits.every((hit: object) => !('explain' in hit)));
    const explained = await search('library', { q: 'fox', explain: true });
    assert.ok(explained.hits.length > 0);
    for (const hit of explained.hits) {
      assert.equal(typeof hit.explain.value, 'number');
      assert.equal(typeof hit.explain.description, 'string');
      assert.ok(Array.isArray(hit.explain.details));
      assert.ok(Math.abs(hit.explain.value - hit.score) <= 1e-3 * Math.max(1, hit.score), 'explanation value is the score');
    }
  });

  test('POST search takes the same parameters as JSON', async () => {
    const get = await search('library', { q: 'fox lazy', match: 'all', limit: 5 });
    const post = await server.request('POST', '/v1/collections/library/search', { q: 'fox lazy', match: 'all', limit: 5 });
    assert.equal(post.status, 200, post.text);
    assert.deepEqual(post.body.hits, get.hits);
    assert.equal(post.body.total, get.total);
    const paged = await server.request('POST', '/v1/collections/paged/search', { q: 'pagination', offset: 20, limit: 10 });
    assert.equal(paged.body.hits.length, 5);
    assert.equal(paged.body.has_more, false);
    const empty = await server.request('POST', '/v1/collections/paged/search', {});
    assert.equal(empty.body.total, PAGED_DOCUMENTS);
  });

  test('odd query syntax is answered, never with a 5xx', async () => {
    for (const q of ['"unterminated', 'title:', '-', '+', '*', '((', '"" ""', 'foo:bar', '\u0000', 'ü', 'x'.repeat(1000)]) {
      const response = await server.request('GET', `/v1/collections/library/search?q=${encodeURIComponent(q)}`);
      assert.ok(response.status === 200 || response.body.code === 'invalid_query', `${JSON.stringify(q)}: ${response.text}`);
    }
  });

  test("a collection's documents never appear in another's results", async () => {
    const library = await search('library', { q: 'fox', limit: 100 });
    assert.ok(!library.hits.some((hit: { id: string; title: string }) => hit.id === 'elsewhere' || hit.title === 'Other fox'));
    const other = await search('other', { q: 'fox', limit: 100 });
    assert.deepEqual(other.hits.map((hit: { id: string }) => hit.id).sort(), ['elsewhere', 'fox']);
    assert.equal(other.total, 2);
    assert.equal((await search('other', { q: 'lazy' })).total, 0);
    assert.equal((await search('library', { q: 'another' })).total, 0);
  });
});
