// Every search is bounded (issue 18, point 1), over real HTTP: the phrase that stalled the
// server (498 words repeating `a`, over a document of 200,000 `a`) is answered exactly; a
// search past the search timeout answers `timed_out: true` with the hits it found, or 503
// `search_timeout` when it found none; one key's searches queue for their turn and all answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const PHRASE_OF_A = `"${new Array(498).fill('a').join(' ')}"`;

describe('search budgets', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ searchThreads: 2 });
    assert.equal((await server.request('POST', '/v1/collections', { name: 'bomb' })).status, 201);
    const documents = [
      { id: 'bomb', text: new Array(200_000).fill('a').join(' ') },
      { id: 'small', text: 'a quiet little note about apples' },
    ];
    assert.equal((await server.request('POST', '/v1/collections/bomb/documents?refresh=wait_for', documents)).status, 200);
  });
  after(() => server.close());

  test('a phrase repeating one word 498 times finds the document that repeats it, in time', async () => {
    const response = await server.request('GET', `/v1/collections/bomb/search?q=${encodeURIComponent(PHRASE_OF_A)}&fields=id`);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.hits.map((hit: { id: string }) => hit.id), ['bomb']);
    assert.equal(response.body.timed_out, false);
    // With the hit's snippet and pages, the phrase is found again in the document: still exact.
    const full = await server.request('POST', '/v1/collections/bomb/search', { q: PHRASE_OF_A });
    assert.equal(full.status, 200);
    assert.match(full.body.hits[0].highlight, /<mark>a<\/mark>/);
  });

  test("one key's concurrent searches wait for their turn and every one answers", async () => {
    const created = await server.request('POST', '/v1/api-keys', { name: 'searcher', scopes: ['search'] });
    assert.equal(created.status, 201, created.text);
    const as = { authorization: `Bearer ${created.body.key}` };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => server.request('GET', `/v1/collections/bomb/search?q=${i % 2 === 0 ? encodeURIComponent(PHRASE_OF_A) : 'apples'}&fields=id`, undefined, as)),
    );
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(app(server).searchAdmission.state(created.body.id), { running: 0, waiting: 0 }, 'every turn was given back');
  });
});

describe('the search timeout', () => {
  let server: TestServer;
  const DOCUMENTS = 6_000;

  before(async () => {
    // A timeout so short that any search doing real work runs out of it.
    server = await startTestServer({ searchTimeoutMs: 0.001 });
    assert.equal((await server.request('POST', '/v1/collections', { name: 'many' })).status, 201);
    // Every document has `apple` and `banana`, never side by side.
    const documents = Array.from({ length: DOCUMENTS }, (_, i) => ({ id: `d${i}`, text: `apple number ${i} banana` }));
    assert.equal((await server.request('POST', '/v1/collections/many/documents?refresh=wait_for', documents)).status, 200);
  });
  after(() => server.close());

  test('a search out of time answers the hits it found, timed_out, its total a lower bound', async () => {
    // Ranked as it is found (no exact total asked for), the first matches are hits at once.
    const response = await server.request('GET', '/v1/collections/many/search?q=apple&fields=id');
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.timed_out, true);
    assert.equal(response.body.total_relation, 'gte');
    // A lower bound: the matches are counted before they are ranked, so it may be all of them.
    assert.ok(response.body.total > 0 && response.body.total <= DOCUMENTS, `total ${response.body.total}`);
    assert.ok(response.body.hits.length > 0);
    // Partial answers are never cached: the same search runs (and runs out) again.
    const again = await server.request('GET', '/v1/collections/many/search?q=apple&fields=id');
    assert.equal(again.body.timed_out, true);
  });

  test('a search that found nothing in time is a 503 search_timeout', async () => {
    const response = await server.request('GET', `/v1/collections/many/search?q=${encodeURIComponent('"apple banana"')}`);
    assertProblem(response, 503, 'search_timeout');
    assert.match(response.body.detail, /search timeout/);
  });

  test('a cheap search does not notice the timeout', async () => {
    const response = await server.request('GET', '/v1/collections/many/search?q=7&fields=id');
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.timed_out, false);
    assert.deepEqual(response.body.hits, [{ id: 'd7', score: response.body.hits[0].score }]);
  });
});

function app(server: TestServer) {
  return server.app as unknown as { searchAdmission: { state(id: string): { running: number; waiting: number } } };
}
