// Typo tolerance over HTTP (issue 14 point 4, docs/api.md, "Typo tolerance"): misspelled words find their documents
// by default, with Meilisearch's rules (no typos under 5 letters, never on phrase words or
// numbers); `typos=0` turns it off and `typos=1` caps it, on GET and POST alike; exact words
// rank above typo matches; `explain` names the typo; a search that finds nothing suggests
// queries that would.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { assertFieldError } from '../helpers/problem-assertions.ts';

describe('search with typos', () => {
  let server: TestServer;
  const get = async (params: Record<string, string>) => {
    const response = await server.request('GET', `/v1/collections/docs/search?${new URLSearchParams(params)}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const ids = async (q: string, extra: Record<string, string> = {}): Promise<string[]> =>
    (await get({ q, limit: '100', ...extra })).hits.map((hit: { id: string }) => hit.id);

  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/collections', { name: 'docs' });
    const documents = [
      { id: 'gnuplot', title: 'Gnuplot manual', text: 'Plotting a histogram with gnuplot: set logscale y, then plot with boxes.' },
      { id: 'mail', title: 'Mail guide', text: 'How to receive mail and forward it. Messages you receive are kept for a year.' },
      { id: 'misspelt', title: 'Recieve recieve', text: 'recieve recieve recieve' },
      { id: 'report', title: 'Annual report', text: 'The report of 2024 and the figure 12345.' },
      { id: 'cats', title: 'Cats', text: 'A cat watches the fox from the fence.' },
    ];
    assert.equal((await server.request('POST', '/v1/collections/docs/documents?refresh=wait_for', documents)).status, 200);
  });
  after(() => server.close());

  test('on by default: histgram finds histogram, gnuplto logscael finds gnuplot', async () => {
    assert.deepEqual(await ids('histgram'), ['gnuplot']);
    assert.deepEqual(await ids('gnuplto logscael'), ['gnuplot']);
  });

  test('recieve finds receive, and the document with the exact word ranks first', async () => {
    // "misspelt" has the typed word exactly (five times); "mail" has "receive", one typo away.
    assert.deepEqual(await ids('recieve'), ['misspelt', 'mail']);
    // The typo match is what the hit highlights.
    const mail = (await get({ q: 'recieve' })).hits.find((hit: { id: string }) => hit.id === 'mail');
    assert.match(mail.highlight, /How to <mark>receive<\/mark> mail/);
    // Typed correctly, the exact word wins over the richer misspelt document.
    const body = await get({ q: 'receive' });
    assert.deepEqual(body.hits.map((hit: { id: string }) => hit.id), ['mail', 'misspelt']);
    assert.ok(body.hits[0].score > body.hits[1].score);
  });

  test('words under 5 letters get no typos', async () => {
    assert.deepEqual(await ids('mial'), []);
    assert.deepEqual(await ids('cta'), []);
    assert.deepEqual(await ids('fence'), ['cats']);
  });

  test('typos=0 turns it off, typos=1 caps it; POST takes numbers', async () => {
    assert.deepEqual(await ids('histgram', { typos: '0' }), []);
    assert.deepEqual(await ids('histgram', { typos: 'auto' }), ['gnuplot']);
    // Two typos in a 9-letter word: found by auto, not with at most one.
    assert.deepEqual(await ids('hystogrum'), ['gnuplot']);
    assert.deepEqual(await ids('hystogrum', { typos: '1' }), []);
    const post = async (typos: unknown) => server.request('POST', '/v1/collections/docs/search', { q: 'histgram', typos });
    assert.deepEqual((await post(0)).body.hits, []);
    assert.deepEqual((await post(2)).body.hits.map((hit: { id: string }) => hit.id), ['gnuplot']);
    assert.deepEqual((await post('auto')).body.hits.map((hit: { id: string }) => hit.id), ['gnuplot']);
  });

  test('a bad typos value is a validation error', async () => {
    assertFieldError(await server.request('GET', '/v1/collections/docs/search?q=x&typos=3'), '/querystring/typos');
    assertFieldError(await server.request('GET', '/v1/collections/docs/search?q=x&typos=yes'), '/querystring/typos');
    assertFieldError(await server.request('POST', '/v1/collections/docs/search', { q: 'x', typos: '1' }), '/body/typos');
  });

  test('phrase words and numbers are never typo-tolerant', async () => {
    assert.deepEqual(await ids('"receive mail"'), ['mail']);
    assert.deepEqual(await ids('"recieve mail"'), []);
    assert.deepEqual(await ids('"histgram"'), []);
    assert.deepEqual(await ids('12345'), ['report']);
    assert.deepEqual(await ids('12346'), []);
    assert.deepEqual(await ids('histgr*'), []);
  });

  test('explain shows the typo expansion', async () => {
    const body = await get({ q: 'histgram', explain: 'true' });
    const explanation = JSON.stringify(body.hits[0].explain);
    assert.match(explanation, /weight\(histogram\)/);
    assert.match(explanation, /boost: 1 typo from 'histgram'/);
  });

  test('a search with no hits suggests queries that would find something', async () => {
    const body = await get({ q: 'gnuplto logscael', typos: '0' });
    assert.equal(body.total, 0);
    assert.ok(body.suggestions.length >= 1 && body.suggestions.length <= 3);
    assert.deepEqual(body.suggestions[0], { text: 'gnuplot logscale' });
    // Known words and the query's syntax are kept as typed.
    assert.deepEqual((await get({ q: '+mail "histgram"', typos: '0', match: 'all' })).suggestions[0], { text: '+mail "histogram"' });
    // Words too far for a search still get suggestions: "mial" (4 letters) → "mail".
    const mial = await get({ q: 'mial' });
    assert.deepEqual(mial.hits, []);
    assert.deepEqual(mial.suggestions, [{ text: 'mail' }]);
    assert.deepEqual(Object.keys(mial), ['hits', 'facets', 'total', 'total_relation', 'timed_out', 'suggestions', 'offset', 'limit', 'has_more', 'took_ms']);
    // Nothing to correct: an empty list; hits: no suggestions member.
    assert.deepEqual((await get({ q: 'zzzzzzzz' })).suggestions, []);
    assert.equal('suggestions' in (await get({ q: 'histgram' })), false);
  });
});
