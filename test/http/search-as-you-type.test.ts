// Search as you type over real HTTP (docs/api.md, "Search" `prefix`, issue 14 point 6): with `prefix=last`
// the word being typed is a prefix, on GET and POST; the default `none` leaves it a word; a
// bad value is a 400 naming the parameter. Prefixes run on the words as written, not only on
// stemmed terms: `runn*` finds "running" (indexed as "run").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertFieldError, assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

describe('search: prefix=last', () => {
  let server: TestServer;
  const ids = (response: { body: { hits: { id: string }[] } }): string[] => response.body.hits.map((hit) => hit.id).sort();

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'notes' })).status, 201);
    const docs = [
      { id: 'world', text: 'Hello world, from the docs.' },
      { id: 'wordy', text: 'A wordy hello.' },
      { id: 'other', text: 'Nothing to see.' },
      { id: 'shoes', text: 'Running shoes for the trail.' },
      { id: 'runs', text: 'She runs every day; a run a day.' },
      { id: 'rung', text: 'The top rung of the ladder.' },
      { id: 'dogs', title: 'Dogs', text: 'Two dogs.' },
      { id: 'dogma', text: 'A dogma and one dog.' },
    ];
    assert.equal((await server.request('POST', '/v1/collections/notes/documents?refresh=wait_for', docs)).status, 200);
  });
  after(() => server.close());

  test('the last word is a prefix on GET and POST; a trailing space ends the word', async () => {
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=hello%20wor&prefix=last&match=all')), ['wordy', 'world']);
    assert.deepEqual(ids(await server.request('POST', '/v1/collections/notes/search', { q: 'hello worl', prefix: 'last', match: 'all' })), ['world']);
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=hello%20wor%20&prefix=last&match=all')), []);
  });

  test('by default (none) the last word is a whole word', async () => {
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=wor')), []);
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=wor&prefix=none')), []);
  });

  test('a prefix finds words whose stem is shorter than the prefix: runn* finds running', async () => {
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=runn*')), ['shoes']);
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=runni&prefix=last')), ['shoes']);
    const hit = (await server.request('GET', '/v1/collections/notes/search?q=runn*')).body.hits[0];
    assert.match(hit.highlight, /<mark>Running<\/mark> shoes/);
  });

  test('a prefix finds only words that start with it, not other words of the same stem (issue 30)', async () => {
    // "runs" and "run" share the stem of "running"; "rung" starts with the stem, not with "runn".
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=runn*&track_total=true')), ['shoes']);
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=dogs*')), ['dogs']);
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=dog*')).sort(), ['dogma', 'dogs']);
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=run*')).sort(), ['rung', 'runs', 'shoes']);
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=trail%20-runn*')), [], 'an excluded prefix excludes its words only');
    assert.deepEqual(ids(await server.request('GET', '/v1/collections/notes/search?q=day%20-runn*')), ['runs']);
    const facets = await server.request('GET', '/v1/collections/notes/search?q=runn*&facets=x');
    assert.equal(facets.body.total, 1, 'the count agrees');
  });

  test('an unknown value is a 400 naming prefix', async () => {
    const response = await server.request('GET', '/v1/collections/notes/search?q=wor&prefix=first');
    assertProblem(response, 400, 'validation_failed');
    assertFieldError(response, '/querystring/prefix');
  });
});
