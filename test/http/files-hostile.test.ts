// Hostile files (issue 18, point 4) over real HTTP: a 1.2 MB PDF whose page tree references one
// page 200,000 times (it used to run to the 120 s extraction limit) is refused at once with 422
// `extraction_failed` naming the page limit, and the server goes on reading other PDFs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertProblem } from '../helpers/problem-assertions.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { pdfOfRepeatedPage } from '../helpers/pdf-of-repeated-page.ts';

describe('hostile files', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'uploads' })).status, 201);
  });
  after(() => server.close());

  async function upload(fileName: string, bytes: Buffer) {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), fileName);
    const response = await fetch(`${server.url}/v1/collections/uploads/files?refresh=wait_for`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}` }, body: form });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text), text };
  }

  test('a PDF referencing one page 200,000 times is refused at once, naming the page limit', async () => {
    const bomb = pdfOfRepeatedPage(200_000);
    assert.ok(bomb.length > 1_000_000);
    const refused = await upload('bomb.pdf', bomb);
    assertProblem(refused, 422, 'extraction_failed');
    assert.match(refused.body.detail, /200,000 pages; at most 10,000 are read/);

    // The same page three times is an ordinary PDF: it is read, and the server was not tied up.
    const small = await upload('three.pdf', pdfOfRepeatedPage(3));
    assert.equal(small.status, 201, small.text);
    assert.equal(small.body.pages, 3);
    const document = await server.request('GET', `/v1/collections/uploads/documents/${small.body.id}`);
    assert.match(document.body.text, /Hello from a repeated page/);
  });
});
