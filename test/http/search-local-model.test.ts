// The `local` embedder over real HTTP, offline: a tiny sentence-embedding model that the test
// writes itself (an ONNX graph and a WordPiece tokenizer, test/helpers/tiny-onnx-model.ts) sits
// in the server's models directory and is run by Transformers.js on onnxruntime-node in the
// embedding threads — documents embedded in the background, queries embedded on the way, a
// query that shares no word with its answer finds it. A model the directory does not hold is
// refused with the command that fetches it, and a server without the runtime (installed on
// demand by `folio models runtime`; `.ci/run` does) refuses any local embedder naming that
// command. The tests that run the model skip, saying so, where the runtime is missing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ADDONS_DIR } from '../../server/config/index.ts';
import { hasLocalRuntime } from '../../server/embedders/index.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { TINY_MODEL_GROUPS, writeTinyOnnxModel } from '../helpers/tiny-onnx-model.ts';

const DOCS = [
  { id: 'cat', text: 'The cat sat on the mat.' },
  { id: 'stocks', text: 'Stock markets fell on Monday.' },
  { id: 'bread', text: 'Knead the dough with flour, then bake the loaf.' },
  { id: 'rain', text: 'Thunderstorms and rain in the forecast.' },
];

const runtimeMissing = hasLocalRuntime(DEFAULT_ADDONS_DIR) ? false : `the local embedder's runtime is not installed in ${DEFAULT_ADDONS_DIR}: run \`folio models runtime\` (.ci/run does)`;

describe('a server without the local embedder’s runtime', () => {
  const modelsDir = mkdtempSync(join(tmpdir(), 'folio-models-'));
  const emptyAddons = mkdtempSync(join(tmpdir(), 'folio-addons-'));
  let server: TestServer;
  before(async () => {
    writeTinyOnnxModel(modelsDir, 'tiny-static');
    server = await startTestServer({ modelsDir, addonsDir: emptyAddons });
  });
  after(async () => {
    await server.close();
    rmSync(modelsDir, { recursive: true, force: true });
    rmSync(emptyAddons, { recursive: true, force: true });
  });

  test('refuses a local embedder with 400 naming the command that installs it; nothing is created', async () => {
    const response = await server.request('POST', '/v1/collections', { name: 'local', embedders: { onnx: { source: 'local', model: 'tiny-static' } } });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.code, 'validation_failed');
    assert.match(response.text, /folio models runtime/);
    assert.equal(response.body.errors[0].path, '/body/embedders/onnx/model');
    assert.equal((await server.request('GET', '/v1/collections/local')).status, 404);
    // The other embedders do not need it.
    assert.equal((await server.request('POST', '/v1/collections', { name: 'builtin', embedders: { use: { source: 'builtin' } } })).status, 201);
  });
});

describe('local embedder (ONNX, offline)', { skip: runtimeMissing }, () => {
  let server: TestServer;
  const modelsDir = mkdtempSync(join(tmpdir(), 'folio-models-'));

  before(async () => {
    writeTinyOnnxModel(modelsDir, 'tiny-static');
    server = await startTestServer({ refreshIntervalMs: 50, modelsDir });
    const created = await server.request('POST', '/v1/collections', { name: 'local', embedders: { onnx: { source: 'local', model: 'tiny-static' } } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.settings.embedders.onnx.source, 'local');
    assert.equal(created.body.settings.embedders.onnx.default_semantic_ratio, 0.5);
    assert.equal((await server.request('POST', '/v1/collections/local/documents', DOCS)).status, 200);
    await pollUntil('documents embedded by the local model', 60_000, async () => (await server.request('GET', '/v1/collections/local')).body.embedding.onnx.embedded === DOCS.length);
  });
  after(async () => {
    await server.close();
    rmSync(modelsDir, { recursive: true, force: true });
  });

  test('a query that shares no word with its answer finds it', async () => {
    const response = await server.request('GET', `/v1/collections/local/search?${new URLSearchParams({ q: 'feline resting on a rug', mode: 'semantic' })}`);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.hits[0].id, 'cat');
    assert.ok(response.body.hits[0].score > 0.9, `cosine ${response.body.hits[0].score}: the same word groups`);
    assert.equal(response.body.semantic_coverage, 1);
    const wet = await server.request('GET', `/v1/collections/local/search?${new URLSearchParams({ q: 'wet weather', mode: 'hybrid' })}`);
    assert.equal(wet.body.hits[0].id, 'rain');
  });

  test('the vectors are the model’s: one dimension per word group', async () => {
    const vector = Array.from({ length: TINY_MODEL_GROUPS.length + 1 }, (_, i) => (i === 5 ? 1 : 0));
    const response = await server.request('POST', '/v1/collections/local/search', { mode: 'semantic', vector, limit: 1 });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.hits[0].id, 'bread', 'the baking axis');
  });

  test('a model the models directory does not hold is refused with the way to get it', async () => {
    const response = await server.request('PATCH', '/v1/collections/local', { embedders: { bge: { source: 'local', model: 'bge-small-en-v1.5' } } });
    assert.equal(response.status, 400);
    assert.match(response.text, /folio models pull bge-small-en-v1\.5/);
    const traversal = await server.request('PATCH', '/v1/collections/local', { embedders: { up: { source: 'local', model: '../tiny-static' } } });
    assert.equal(traversal.status, 400);
  });
});
