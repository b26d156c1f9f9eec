// Phrase- and clause-true pages over real HTTP (issue 14, point 2): a hit's page, page label,
// matched pages and highlight come from where the query is satisfied. The fixture
// fixtures/files/phrases.pdf (made by fixtures/make-pdf-fixtures.py) has the phrase
// "set logscale" on pages G-2 and G-6 and its words scattered on G-1 and G-3 (G-3 has the most
// of them), "log scaling" on G-4 and its words apart on G-5. JSON documents keep their whole-text
// snippets, with phrases marked only where their words stand together.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../fixtures/files/${name}`, import.meta.url)));

interface Hit {
  id: string;
  page: number | null;
  page_label: string | null;
  snippet: string;
  highlight: string;
  matched_pages: number[];
}

const marks = (highlight: string): string[] => [...highlight.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => m[1]);

describe('search: phrase- and clause-true pages', () => {
  let server: TestServer;

  async function hitFor(id: string, params: Record<string, string>): Promise<Hit> {
    const response = await server.request('GET', `/v1/collections/manuals/search?${new URLSearchParams(params)}`);
    assert.equal(response.status, 200, response.text);
    const hit = response.body.hits.find((h: Hit) => h.id === id);
    assert.ok(hit !== undefined, `${id} is a hit for ${JSON.stringify(params)}: ${response.text}`);
    return hit;
  }

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'manuals' })).status, 201);
    const form = new FormData();
    form.append('id', 'phrases');
    form.append('file', new Blob([fixture('phrases.pdf')]), 'phrases.pdf');
    const upload = await fetch(`${server.url}/v1/collections/manuals/files?refresh=wait_for`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      body: form,
    });
    assert.equal(upload.status, 201, await upload.text());
    const docs = [
      { id: 'fox', text: 'The quick fox jumps; a quick brown fox sleeps.' },
      { id: 'other', text: 'Unrelated notes on plotting, with no phrase at all.' },
    ];
    assert.equal((await server.request('POST', '/v1/collections/manuals/documents?refresh=wait_for', docs)).status, 200);
  });
  after(() => server.close());

  test('a phrase names the page where its words stand together, not the page with most of its words', async () => {
    const hit = await hitFor('phrases', { q: '"set logscale"' });
    assert.equal(hit.page, 2, 'G-2 holds the phrase; G-3 only has its words apart');
    assert.equal(hit.page_label, 'G-2');
    assert.deepEqual(hit.matched_pages, [2, 6]);
    assert.match(hit.highlight, /type <mark>set<\/mark> <mark>logscale<\/mark> y/);
    assert.match(hit.highlight, /First set the range/, 'a lone word of the phrase is not marked');
    assert.deepEqual(marks(hit.highlight), ['set', 'logscale']);
    assert.equal(hit.highlight.replace(/<\/?mark>/g, ''), hit.snippet);
  });

  test('a phrase whose words lie apart on other pages matches only its own page', async () => {
    const hit = await hitFor('phrases', { q: '"log scaling"' });
    assert.equal(hit.page, 4);
    assert.equal(hit.page_label, 'G-4');
    assert.deepEqual(hit.matched_pages, [4], 'G-5 has "log" and "scaling" apart');
    assert.deepEqual(marks(hit.highlight), ['Log', 'scaling']);
  });

  test('a required word picks the page it is on; optional words add matched pages', async () => {
    const hit = await hitFor('phrases', { q: '+record logscale' });
    assert.equal(hit.page, 5, 'the page of the required word, though G-3 has logscale three times');
    assert.deepEqual(hit.matched_pages, [1, 2, 3, 5, 6]);
    assert.deepEqual(marks(hit.highlight), ['record']);
  });

  test('match=all: every page with one of the words is matched, the best page has them all', async () => {
    const hit = await hitFor('phrases', { q: 'set logscale linear', match: 'all' });
    assert.equal(hit.page, 6, 'only G-6 has set, logscale and linear');
    assert.deepEqual(hit.matched_pages, [1, 2, 3, 6]);
    assert.deepEqual(marks(hit.highlight), ['linear', 'logscale', 'set', 'logscale']);
  });

  test('an excluded word never makes a page matched', async () => {
    const hit = await hitFor('phrases', { q: 'logscale -title:record' });
    assert.deepEqual(hit.matched_pages, [1, 2, 3, 6], 'G-5 has "record" in its text');
    assert.equal(hit.page, 3, 'the page with most of the word');
    assert.ok(!marks(hit.highlight).includes('record'));
  });

  test('a JSON document keeps its whole-text snippet, a phrase marked only where it stands', async () => {
    const hit = await hitFor('fox', { q: '"brown fox"' });
    assert.equal(hit.page, null);
    assert.equal(hit.page_label, null);
    assert.deepEqual(hit.matched_pages, []);
    assert.equal(hit.highlight, 'The quick fox jumps; a quick <mark>brown</mark> <mark>fox</mark> sleeps.');
    const words = await hitFor('fox', { q: 'brown fox' });
    assert.equal(words.highlight, 'The quick <mark>fox</mark> jumps; a quick <mark>brown</mark> <mark>fox</mark> sleeps.');
  });
});
