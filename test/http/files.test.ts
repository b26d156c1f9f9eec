// File uploads over real HTTP (docs/api.md, "Files"): a multipart upload is extracted in the extraction
// pool and indexed as one document with pages; search hits name the best page and every
// matched page; the same file uploaded twice is one document (id = SHA-256); an unknown type
// is 415, a file over the limit 413, bad fields 400, and none of them indexes anything or
// leaves a temporary file. GET /v1/formats lists the types.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestResponse, TestServer } from '../helpers/test-server.ts';
import { makeZip } from '../helpers/zip-writer.ts';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../fixtures/files/${name}`, import.meta.url)));

const MAX_FILE_BYTES = 64 * 1024;

describe('file uploads', () => {
  let server: TestServer;

  async function upload(fileName: string, content: string | Uint8Array, fields: Record<string, string> = {}, query = '?refresh=wait_for', collection = 'files'): Promise<TestResponse> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([content]), fileName);
    const response = await fetch(`${server.url}/v1/collections/${collection}/files${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      body: form,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text), text };
  }

  const tempFiles = (): string[] => readdirSync(join(server.dataDir, 'tmp'));

  before(async () => {
    server = await startTestServer({ maxFileBytes: MAX_FILE_BYTES });
    assert.equal((await server.request('POST', '/v1/collections', { name: 'files' })).status, 201);
  });
  after(() => server.close());

  test('GET /v1/formats lists the file types with extension, mime and kind', async () => {
    const response = await server.request('GET', '/v1/formats');
    assert.equal(response.status, 200);
    const extensions = response.body.formats.map((format: { extension: string }) => format.extension);
    for (const expected of ['txt', 'md', 'html', 'csv', 'json']) assert.ok(extensions.includes(expected), expected);
    for (const format of response.body.formats) {
      assert.match(format.mime, /^[a-z]+\/[\w.+-]+$/, format.extension);
      assert.ok(format.kind.length > 0);
    }
  });

  test('a paged text file is indexed with its pages, and search names the best and matched pages', async () => {
    const text = 'Page one talks about kelpies.\fPage two is about aardwolves and kelpies.\fPage three: aardwolves again, aardwolves.';
    const response = await upload('notes.txt', text, { title: 'Field notes', metadata: JSON.stringify({ shelf: 'b2' }) });
    assert.equal(response.status, 201, response.text);
    const sha256 = createHash('sha256').update(text).digest('hex');
    assert.equal(response.body.id, sha256, 'the id defaults to the SHA-256 of the bytes');
    assert.equal(response.body.title, 'Field notes');
    assert.equal(response.body.format, 'txt');
    assert.equal(response.body.pages, 3);
    assert.equal(response.body.bytes, Buffer.byteLength(text));
    assert.deepEqual(response.body.metadata, { shelf: 'b2', format: 'txt', extension: 'txt', size: Buffer.byteLength(text) }, "the caller's metadata and the file's facts");

    const found = await server.request('GET', '/v1/collections/files/search?q=aardwolves');
    const [hit] = found.body.hits;
    assert.equal(hit.id, sha256);
    assert.equal(hit.page, 3, 'the page where the word counts most');
    assert.deepEqual(hit.matched_pages, [2, 3]);
    assert.match(hit.highlight, /<mark>aardwolves<\/mark>/);
    assert.equal(hit.format, 'txt');

    // The same bytes again replace the same document.
    assert.equal((await upload('copy.txt', text)).body.id, sha256);
    assert.equal((await server.request('GET', '/v1/collections/files')).body.documents, 1);
    assert.deepEqual(tempFiles(), [], 'no temporary file is left');
  });

  test("every file's facts are metadata to filter, facet and sort on; the caller's metadata wins", async () => {
    await server.request('POST', '/v1/collections', { name: 'facts' });
    const send = async (name: string, text: string, metadata?: object) => {
      const response = await upload(name, text, { ...(metadata !== undefined && { metadata: JSON.stringify(metadata) }) }, '', 'facts');
      assert.equal(response.status, 201, response.text);
      return response.body;
    };
    const guide = '# Guide\n\nfacts about quinces'; // 28 bytes
    const license = 'facts about licences, no extension'; // 34
    const plain = 'facts chosen by the caller'; // 26
    assert.deepEqual((await send('Guide.MD', guide)).metadata, { format: 'md', extension: 'md', size: Buffer.byteLength(guide) });
    assert.deepEqual((await send('LICENSE', license)).metadata, { format: 'txt', size: Buffer.byteLength(license) });
    assert.deepEqual((await send('plain.txt', plain, { format: 'memo' })).metadata, { format: 'memo', extension: 'txt', size: Buffer.byteLength(plain) });
    assert.equal((await server.request('POST', '/v1/collections/facts/refresh')).status, 200);
    const search = await server.request('POST', '/v1/collections/facts/search', { q: 'facts', filter: { size: { lt: 30 } }, facets: ['format', 'extension'], sort: 'size:asc' });
    assert.equal(search.status, 200, search.text);
    assert.deepEqual(search.body.hits.map((hit: { metadata: { size: number } }) => hit.metadata.size), [26, 28]);
    assert.deepEqual(search.body.facets, { format: { md: 1, memo: 1 }, extension: { md: 1, txt: 1 } });
  });

  test('markdown gets its heading as title when no title is given; an explicit id is used', async () => {
    const response = await upload('readme.md', '# Quokka handbook\n\nQuokkas smile *a lot*.\n', { id: 'handbook' });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.id, 'handbook');
    assert.equal(response.body.title, 'Quokka handbook');
    const found = await server.request('GET', '/v1/collections/files/search?q=quokkas+smile');
    assert.equal(found.body.hits[0].id, 'handbook');
  });

  test('a PDF keeps its page labels, slides and sheets are labelled pages', async () => {
    const pdf = await upload('labelled.pdf', fixture('labelled.pdf'), { id: 'labelled' });
    assert.equal(pdf.status, 201, pdf.text);
    assert.equal(pdf.body.format, 'pdf');
    assert.equal(pdf.body.pages, 4);
    const slides = await upload('deck.pptx', fixture('sample.pptx'), { id: 'deck' });
    assert.equal(slides.status, 201, slides.text);
    const sheets = await upload('book.xlsx', fixture('sample.xlsx'), { id: 'book' });
    assert.equal(sheets.status, 201, sheets.text);

    const inPdf = await server.request('POST', '/v1/collections/files/search', { q: 'folioquokka', filter: {}, limit: 50 });
    const byId = new Map(inPdf.body.hits.map((hit: { id: string }) => [hit.id, hit]));
    const labelled = byId.get('labelled') as { page: number; page_label: string; format: string };
    assert.equal(labelled.format, 'pdf');
    assert.ok(['i', 'ii', 'A-1', 'A-2'].includes(labelled.page_label), `a PDF page label, got ${labelled.page_label}`);
    const deck = byId.get('deck') as { page_label: string };
    assert.match(deck.page_label, /^slide \d+$/);
    const book = byId.get('book') as { page_label: string | null };
    assert.ok(book.page_label !== null, 'a sheet name');
  });

  test('a scanned PDF and an image are read by OCR and found with their page numbers', async () => {
    const scanned = await upload('scan.pdf', fixture('scanned.pdf'), { id: 'scan' });
    assert.equal(scanned.status, 201, scanned.text);
    assert.equal(scanned.body.pages, 2);
    const image = await upload('photo.png', fixture('sample.png'), { id: 'photo' });
    assert.equal(image.status, 201, image.text);
    assert.equal(image.body.format, 'png');

    const inScan = await server.request('GET', '/v1/collections/files/search?q=scannedwombat');
    assert.deepEqual(inScan.body.hits.map((hit: { id: string }) => hit.id), ['scan']);
    assert.equal(inScan.body.hits[0].page, 2, 'the scanned page');
    assert.deepEqual(inScan.body.hits[0].matched_pages, [2]);
    const inImage = await server.request('GET', '/v1/collections/files/search?q=pngwombat');
    assert.deepEqual(inImage.body.hits.map((hit: { id: string; page: number }) => [hit.id, hit.page]), [['photo', 1]]);
  });

  test('a legacy Word .doc is read with its summary title and its footnotes', async () => {
    const response = await upload('letter.doc', fixture('sample.doc'), { id: 'letter' });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.format, 'doc');
    assert.equal(response.body.title, 'Sample folioquokka Document');
    const found = await server.request('GET', '/v1/collections/files/search?q=docfootnotenumbat');
    assert.deepEqual(found.body.hits.map((hit: { id: string }) => hit.id), ['letter']);
  });

  test('hostile files are refused with 422 and the server stays up', async () => {
    // Nested archives beyond the depth limit.
    let nested = makeZip([{ name: 'deep.txt', data: 'folioquokka deep' }]);
    for (let depth = 0; depth < 6; depth++) nested = makeZip([{ name: `level${depth}.zip`, data: nested, store: true }]);
    const refusedNest = await upload('nested.zip', nested);
    assert.equal(refusedNest.status, 422, refusedNest.text);
    assert.equal(refusedNest.body.code, 'extraction_failed');
    // A damaged PDF.
    const damaged = await upload('broken.pdf', fixture('sample.pdf').subarray(0, 200));
    assert.equal(damaged.status, 422, damaged.text);
    assert.equal((await server.request('GET', '/v1/health')).status, 200);
    assert.deepEqual(tempFiles(), []);
  });

  test('malformed multipart bodies are 400 validation_failed, never a 500, and leave nothing', async () => {
    const before = (await server.request('GET', '/v1/collections/files')).body.documents;
    const send = async (contentType: string, body: string) => {
      const response = await fetch(`${server.url}/v1/collections/files/files`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': contentType }, body });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
    };
    const part = (name: string) => `--XB\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\nhello world\r\n`;
    const cases: [string, string, string][] = [
      ['no closing boundary', 'multipart/form-data; boundary=XB', part('a.txt')],
      ['no boundary parameter', 'multipart/form-data', `${part('a.txt')}--XB--\r\n`],
      ['the wrong boundary', 'multipart/form-data; boundary=YY', `${part('a.txt')}--XB--\r\n`],
      ['a part header cut off', 'multipart/form-data; boundary=XB', '--XB\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n'],
      ['two files (docs/api.md: 400)', 'multipart/form-data; boundary=XB', `${part('a.txt')}${part('b.txt')}--XB--\r\n`],
    ];
    for (const [what, contentType, body] of cases) {
      const response = await send(contentType, body);
      assert.equal(response.status, 400, `${what}: ${response.text}`);
      assert.equal(response.body.code, 'validation_failed', what);
      assert.match(response.body.detail, /the upload is malformed/, what);
      assert.equal(response.body.errors[0].path, '/body', what);
    }
    assert.equal((await server.request('GET', '/v1/collections/files')).body.documents, before, 'nothing indexed');
    assert.deepEqual(tempFiles(), []);
  });

  test('refusals index nothing and leave no temporary file', async () => {
    const before = (await server.request('GET', '/v1/collections/files')).body.documents;
    const unknown = await upload('mystery.zzq', new Uint8Array([0, 159, 146, 150, 1, 2, 3, 250, 251, 252]));
    assert.equal(unknown.status, 415, unknown.text);
    assert.equal(unknown.body.code, 'unsupported_file_type');
    const large = await upload('big.txt', 'x'.repeat(MAX_FILE_BYTES + 10));
    assert.equal(large.status, 413, large.text);
    assert.equal(large.body.code, 'file_too_large');
    const badMetadata = await upload('a.txt', 'words', { metadata: '{not json' });
    assert.equal(badMetadata.status, 400);
    const badId = await upload('a.txt', 'words', { id: 'no spaces allowed' });
    assert.equal(badId.status, 400);
    assert.equal(badId.body.errors[0].path, '/body/id');
    const notMultipart = await server.request('POST', '/v1/collections/files/files', { file: 'x' });
    assert.equal(notMultipart.status, 415);
    const missingCollection = await fetch(`${server.url}/v1/collections/nope/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      body: (() => {
        const form = new FormData();
        form.append('file', new Blob(['hello']), 'a.txt');
        return form;
      })(),
    });
    assert.equal(missingCollection.status, 404);
    await server.request('POST', '/v1/collections/files/refresh');
    assert.equal((await server.request('GET', '/v1/collections/files')).body.documents, before);
    assert.deepEqual(tempFiles(), []);
  });
});

test('a zip bomb is refused with 422 without being unpacked, and the server stays up', async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await server.request('POST', '/v1/collections', { name: 'bombs' });
  // 300 MB of zeros in one entry (about 300 KB zipped): over the 256 MiB unpacking budget.
  const bomb = makeZip([{ name: 'zeros.txt', data: new Uint8Array(300 * 1024 * 1024) }]);
  const form = new FormData();
  form.append('file', new Blob([bomb]), 'bomb.zip');
  const response = await fetch(`${server.url}/v1/collections/bombs/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    body: form,
  });
  const body = (await response.json()) as { code: string; detail: string };
  assert.equal(response.status, 422);
  assert.equal(body.code, 'extraction_failed');
  assert.match(body.detail, /unpacks to more than/);
  assert.equal((await server.request('GET', '/v1/health')).status, 200);
  assert.equal((await server.request('GET', '/v1/collections/bombs')).body.documents, 0);
});
