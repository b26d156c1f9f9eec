// Pages as the unit of evidence over real HTTP (issue 14, point 1): a long manual whose chapter
// answers the query outranks a short note that mentions the word once, and its hit names a page
// of that chapter. The fixture fixtures/files/manual.pdf (fixtures/make-pdf-fixtures.py) has
// 120 pages of filler words, "histogram" six times on each of pages 71–74 (headed "Histogram
// plots") and page 2 a table of contents listing "Histogram plots" twice. Scored as one
// document its length buries it (the note ranked first before page ranking); scored by its
// best page it wins, and the contents page, where the words stand together, is not that page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { seededRandom } from '../helpers/seeded-random.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

interface Hit {
  id: string;
  score: number;
  page: number | null;
  matched_pages: number[];
  highlight: string;
}

/** `count` filler words from a seeded vocabulary unlike the query's words. */
function filler(random: () => number, count: number): string {
  const syllables = ['ba', 'ko', 'mi', 'tu', 're', 'sa', 'lo', 'ne', 'di', 'pa'];
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(Array.from({ length: 3 }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  return words.join(' ');
}

describe('search: paged documents ranked by their best page', () => {
  let server: TestServer;

  async function search(params: Record<string, string>): Promise<Hit[]> {
    const response = await server.request('GET', `/v1/collections/library/search?${new URLSearchParams(params)}`);
    assert.equal(response.status, 200, response.text);
    return response.body.hits;
  }

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'library' })).status, 201);
    const form = new FormData();
    form.append('id', 'manual');
    form.append('file', new Blob([new Uint8Array(readFileSync(new URL('../../fixtures/files/manual.pdf', import.meta.url)))]), 'manual.pdf');
    const upload = await fetch(`${server.url}/v1/collections/library/files?refresh=wait_for`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      body: form,
    });
    assert.equal(upload.status, 201, await upload.text());
    const random = seededRandom(14);
    const docs = [
      // A README-like note of 400 words with one mention.
      { id: 'note', title: 'Release notes', text: `${filler(random, 200)} histogram ${filler(random, 200)}` },
      ...Array.from({ length: 50 }, (_, i) => ({ id: `short-${i}`, text: filler(random, 40) })),
    ];
    assert.equal((await server.request('POST', '/v1/collections/library/documents?refresh=wait_for', docs)).status, 200);
  });
  after(() => server.close());

  test('the manual whose chapter answers the query outranks a note that mentions the word once', async () => {
    const hits = await search({ q: 'histogram' });
    assert.deepEqual(hits.map((hit) => hit.id), ['manual', 'note']);
    assert.ok(hits[0].score > hits[1].score);
  });

  test('its hit names a page of the chapter, which is the best-scoring page, not the contents page', async () => {
    const [manual] = await search({ q: 'histogram' });
    assert.ok(manual.page !== null && manual.page >= 71 && manual.page <= 74, `page ${manual.page}`);
    assert.deepEqual(manual.matched_pages, [2, 71, 72, 73, 74]);
    assert.match(manual.highlight, /<mark>histogram<\/mark>/);
  });

  test('a table of contents listing the section does not win over the section', async () => {
    const [manual] = await search({ q: 'histogram plots' });
    assert.equal(manual.id, 'manual');
    assert.ok(manual.page !== null && manual.page >= 71 && manual.page <= 74, `page ${manual.page}, not the contents page 2`);
    assert.ok(manual.matched_pages.includes(2));
  });

  test('explain says a hit was ranked by its best page, with its document score beneath', async () => {
    const response = await server.request('GET', `/v1/collections/library/search?${new URLSearchParams({ q: 'histogram', explain: 'true' })}`);
    const [manual] = response.body.hits;
    assert.match(manual.explain.description, /^ranked by its best page/);
    assert.equal(manual.explain.value, manual.score);
    assert.match(manual.explain.details[0].description, /^document score/);
    assert.ok(manual.explain.details[0].value > 0);
  });

  test('pagination pages through the same page-ranked order', async () => {
    const all = await search({ q: 'histogram OR bakomi', limit: '20' });
    const second = await search({ q: 'histogram OR bakomi', limit: '3', offset: '1' });
    assert.deepEqual(second.map((hit) => hit.id), all.slice(1, 4).map((hit) => hit.id));
    assert.deepEqual(second.map((hit) => hit.score), all.slice(1, 4).map((hit) => hit.score));
  });
});
