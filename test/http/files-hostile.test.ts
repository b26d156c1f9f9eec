// Hostile files (issue 18, point 4) over real HTTP: a 1.2 MB PDF whose page tree references one
// page 200,000 times (it used to run to the 120 s extraction limit) is refused at once with 422
// `extraction_failed` naming the page limit, and the server goes on reading other PDFs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertProblem } from '../helpers/problem-assertions.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

/** A PDF of `pages` pages, every one the same page object (with one line of text). */
function pdfOfRepeatedPage(pages: number): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${'3 0 R '.repeat(pages)}] /Count ${pages} >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null, // the content stream, below
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const content = 'BT /F1 24 Tf 72 700 Td (Hello from a repeated page) Tj ET';
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += body === null ? `${i + 1} 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n` : `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

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
