// Kept originals (`--keep-files`) over real HTTP: an upload's bytes come back from
// `GET …/documents/{id}/file` as an attachment with its type and name; replacing the document
// with a JSON one, deleting it or deleting it by filter discards the original; without the
// flag nothing is kept; a restart keeps the originals and removes what no record names.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../fixtures/files/${name}`, import.meta.url)));

/** Uploads a file; the answer is read whole (an unread body keeps its connection busy). */
async function upload(server: TestServer, fileName: string, content: Uint8Array | string, fields: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([content]), fileName);
  const response = await fetch(`${server.url}/v1/collections/docs/files?refresh=wait_for`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    body: form,
  });
  return { status: response.status, text: await response.text() };
}

async function download(server: TestServer, id: string): Promise<Response> {
  return fetch(`${server.url}/v1/collections/docs/documents/${id}/file`, { headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });
}

describe('kept originals (--keep-files)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-kept-'));
  let server: TestServer;
  const originalsDir = (): string => join(dataDir, 'collections', 'docs', 'originals');

  before(async () => {
    server = await startTestServer({ dataDir, keepFiles: true });
    assert.equal((await server.request('POST', '/v1/collections', { name: 'docs' })).status, 201);
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('an upload downloads byte for byte, as an attachment with its type and name', async () => {
    const pdf = fixture('sample.pdf');
    const uploaded = await upload(server, 'Résumé final;.pdf', pdf, { id: 'report' });
    assert.equal(uploaded.status, 201, uploaded.text);
    const response = await download(server, 'report');
    assert.equal(response.status, 200);
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), pdf);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(response.headers.get('content-length'), String(pdf.length));
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="R_sum_ final;.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20final%3B.pdf`,
    );
  });

  test('an HTML upload is served as an attachment, never rendered', async () => {
    const html = '<html><body><script>alert(1)</script><p>keptwombat</p></body></html>';
    assert.equal((await upload(server, 'page.html', html, { id: 'page' })).status, 201);
    const response = await download(server, 'page');
    assert.equal(await response.text(), html);
    assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="page\.html"/);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  });

  test('replacing the document with a JSON one, deleting it, or deleting by filter discards its original', async () => {
    const before = readdirSync(originalsDir()).length;
    assert.equal((await upload(server, 'a.txt', 'first keptquoll', { id: 'gone-by-put', metadata: '{"batch":"x"}' })).status, 201);
    assert.equal((await upload(server, 'b.txt', 'second keptquoll', { id: 'gone-by-delete' })).status, 201);
    assert.equal((await upload(server, 'c.txt', 'third keptquoll', { id: 'gone-by-filter', metadata: '{"batch":"y"}' })).status, 201);
    assert.equal(readdirSync(originalsDir()).length, before + 6, 'a record and the bytes for each');

    assert.equal((await server.request('PUT', '/v1/collections/docs/documents/gone-by-put', { text: 'now JSON' })).status, 200);
    assert.equal((await server.request('DELETE', '/v1/collections/docs/documents/gone-by-delete')).status, 204);
    const deleted = await server.request('POST', '/v1/collections/docs/documents/delete', { filter: { batch: 'y' } });
    assert.deepEqual(deleted.body, { deleted: 1 });
    for (const id of ['gone-by-put', 'gone-by-delete', 'gone-by-filter']) {
      const response = await download(server, id);
      assert.equal(response.status, 404, id);
      assert.equal(((await response.json()) as { code: string }).code, id === 'gone-by-put' ? 'not_found' : 'document_not_found');
    }
    assert.equal(readdirSync(originalsDir()).length, before, 'their files are gone from disk');
  });

  test('a new upload of the same id replaces the original', async () => {
    assert.equal((await upload(server, 'v1.txt', 'version one', { id: 'versioned' })).status, 201);
    assert.equal((await upload(server, 'v2.md', '# version two', { id: 'versioned' })).status, 201);
    const response = await download(server, 'versioned');
    assert.equal(await response.text(), '# version two');
    assert.match(response.headers.get('content-disposition') ?? '', /filename="v2\.md"/);
    assert.equal(readdirSync(originalsDir()).filter((name) => name.endsWith('.bin')).length, 3, 'report, page, versioned');
  });

  test('a PATCH keeps the original; concurrent uploads of one id never serve another upload\'s bytes', async () => {
    assert.equal((await server.request('PATCH', '/v1/collections/docs/documents/versioned', { metadata: { shelf: 'c3' } })).status, 200);
    const patched = await download(server, 'versioned');
    assert.equal(patched.status, 200);
    assert.equal(await patched.text(), '# version two');
    const bodies = ['alpha', 'bravo', 'charl', 'delta'].map((word) => `${word} racing quoll`);
    for (let round = 0; round < 5; round++) {
      const uploads = await Promise.all(bodies.map((body, i) => upload(server, `race-${i}.txt`, body, { id: 'raced' })));
      for (const uploaded of uploads) assert.equal(uploaded.status, 201, uploaded.text);
      const document = await server.request('GET', '/v1/collections/docs/documents/raced');
      assert.equal(document.status, 200);
      const winner = bodies.indexOf(document.body.text);
      assert.ok(winner >= 0, `the document is one of the uploads: ${document.text}`);
      // Uploads are kept in the order they are written, so the last one written has its original.
      const response = await download(server, 'raced');
      assert.equal(response.status, 200, `round ${round}: the document's original is served`);
      assert.deepEqual(new Uint8Array(await response.arrayBuffer()), new TextEncoder().encode(bodies[winner]), 'the original of the document as it is');
      assert.match(response.headers.get('content-disposition') ?? '', new RegExp(`^attachment; filename="race-${winner}\\.txt"`));
    }
    await server.request('DELETE', '/v1/collections/docs/documents/raced');
  });

  test('a restart keeps the originals and removes bytes no record names', async () => {
    writeFileSync(join(originalsDir(), `${'0'.repeat(64)}-${'1'.repeat(64)}.bin`), 'orphan of a crash');
    await server.close();
    server = await startTestServer({ dataDir, keepFiles: true });
    assert.equal(readdirSync(originalsDir()).length, 6);
    assert.deepEqual(new Uint8Array(await (await download(server, 'report')).arrayBuffer()), fixture('sample.pdf'));
  });
});

test('without --keep-files nothing is kept, and a download is 404 not_found', async () => {
  const server = await startTestServer();
  try {
    assert.equal((await server.request('POST', '/v1/collections', { name: 'docs' })).status, 201);
    assert.equal((await upload(server, 'notes.txt', 'plain keptnumbat', { id: 'notes' })).status, 201);
    const response = await download(server, 'notes');
    assert.equal(response.status, 404);
    const body = (await response.json()) as { code: string; detail: string };
    assert.equal(body.code, 'not_found');
    assert.match(body.detail, /--keep-files/);
    assert.equal(existsSync(join(server.dataDir, 'collections', 'docs', 'originals')), false);
    const missing = await download(server, 'missing');
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { code: string }).code, 'document_not_found');
  } finally {
    await server.close();
  }
});
