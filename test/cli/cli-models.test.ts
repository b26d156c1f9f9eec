// `folio models pull|list` against a real HTTP server standing in for the Hugging Face hub
// (it serves a tiny model the test writes, at `/<org>/<name>/resolve/main/<file>`): the files a
// local embedder needs land in the models directory, complete or not at all; a missing file
// fails the pull and leaves nothing behind; unknown names are usage errors. Then a server
// started with that models directory embeds with the pulled model. `folio models runtime` says
// when the runtime is installed already. Skipped, saying so, where the local embedder's runtime
// is not installed (`folio models runtime`; `.ci/run` does): a pull would install it first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ADDONS_DIR } from '../../server/config/index.ts';
import { hasLocalRuntime } from '../../server/embedders/index.ts';
import { runCli } from '../helpers/spawn-cli.ts';
import { startTestServer } from '../helpers/test-server.ts';
import { writeTinyOnnxModel } from '../helpers/tiny-onnx-model.ts';

const runtimeMissing = hasLocalRuntime(DEFAULT_ADDONS_DIR) ? false : `the local embedder's runtime is not installed in ${DEFAULT_ADDONS_DIR}: run \`folio models runtime\` (.ci/run does)`;

describe('folio models', { skip: runtimeMissing }, () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-hub-'));
  const served = join(root, 'hub');
  const modelsDir = join(root, 'models');
  let hub: http.Server;
  let hubUrl = '';
  const requested: string[] = [];

  before(async () => {
    // The hub's copy: the tiny model, with its ONNX file as the quantised one a pull fetches.
    const model = writeTinyOnnxModel(served, 'tiny');
    hub = http.createServer((request, response) => {
      requested.push(request.url ?? '');
      const match = /^\/folio-tests\/(tiny|broken)\/resolve\/main\/(.+)$/.exec(request.url ?? '');
      const file = match === null ? null : match[2] === 'onnx/model_quantized.onnx' ? 'onnx/model.onnx' : match[2];
      if (match === null || file === null || (match[1] === 'broken' && file === 'tokenizer.json') || !existsSync(join(model, file))) {
        response.writeHead(404).end('not found');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(join(model, file)));
    });
    await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
    hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => hub.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  test('pull fetches a model into the models directory; list shows it; a server embeds with it', async () => {
    const pulled = await runCli(['models', 'pull', 'folio-tests/tiny', '--models-dir', modelsDir], { FOLIO_MODELS_HUB: hubUrl });
    assert.equal(pulled.code, 0, pulled.output);
    assert.match(pulled.output, /Pulled folio-tests\/tiny into .*tiny/);
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx']) assert.ok(existsSync(join(modelsDir, 'tiny', file)), file);
    assert.ok(requested.includes('/folio-tests/tiny/resolve/main/onnx/model_quantized.onnx'));
    const listed = await runCli(['models', 'list', '--models-dir', modelsDir]);
    assert.match(listed.output, /tiny\s+\d/);
    const again = await runCli(['models', 'pull', 'folio-tests/tiny', '--models-dir', modelsDir], { FOLIO_MODELS_HUB: hubUrl });
    assert.equal(again.code, 1);
    assert.match(again.output, /model_exists/);

    const server = await startTestServer({ modelsDir });
    try {
      const created = await server.request('POST', '/v1/collections', { name: 'pulled', embedders: { e: { source: 'local', model: 'tiny' } } });
      assert.equal(created.status, 201, created.text);
      await server.request('POST', '/v1/collections/pulled/documents?refresh=wait_for', [{ id: 'cat', text: 'the cat sat on the mat' }, { id: 'rain', text: 'rain and storm' }]);
      const deadline = Date.now() + 60_000;
      while ((await server.request('GET', '/v1/collections/pulled')).body.embedding.e.embedded < 2) {
        assert.ok(Date.now() < deadline);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const found = await server.request('GET', '/v1/collections/pulled/search?q=kitten%20on%20a%20rug&mode=semantic');
      assert.equal(found.body.hits[0].id, 'cat');
    } finally {
      await server.close();
    }
  });

  test('runtime says where the installed runtime is, and installs nothing again', async () => {
    const result = await runCli(['models', 'runtime']);
    assert.equal(result.code, 0, result.output);
    assert.match(result.output, /runtime is installed in .*addons.local-embedder \(--force installs it again\)/);
  });

  test('a pull that cannot fetch a file leaves nothing; unknown names are usage errors', async () => {
    const broken = await runCli(['models', 'pull', 'folio-tests/broken', '--models-dir', modelsDir], { FOLIO_MODELS_HUB: hubUrl });
    assert.equal(broken.code, 1);
    assert.match(broken.output, /download_failed: .*tokenizer\.json answered 404/);
    assert.deepEqual(readdirSync(modelsDir).sort(), ['tiny'], 'no partial model directory');
    const unknown = await runCli(['models', 'pull', 'no-such-model', '--models-dir', modelsDir]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.output, /unknown model 'no-such-model'/);
  });
});
