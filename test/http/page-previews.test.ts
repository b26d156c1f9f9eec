// Page previews over real HTTP (docs/api.md, "Page previews"): a page of a kept original as a
// WebP or PNG picture of the width asked for, drawn in the extraction pool — a PDF's pages each
// their own, an image as itself (never enlarged) — cached on disk within its budget (the least
// recently used go first; a replaced document never shows its old picture), with an ETag a
// client revalidates with. 404 without a kept original or for a page the file lacks, 409 for a
// type without page pictures, 400 for a width out of bounds; a key with a filter sees only the
// pages of documents it sees.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadImage } from '@napi-rs/canvas';
import { textPdf } from '../../benchmarks/extraction-pdf-writer.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { scanPng } from '../helpers/text-scan.ts';

interface Picture {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

/** Share of dark pixels in a picture: text was drawn on it. */
async function inkOf(bytes: Buffer): Promise<{ width: number; height: number; ink: number }> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  let dark = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 128) dark++;
  return { width: image.width, height: image.height, ink: dark / (image.width * image.height) };
}

describe('page previews', () => {
  let server: TestServer;
  const PAGES = [['Chapter one: installing the pump.'], ['Chapter two: priming the pump before use.'], ['Chapter three: winter storage.']];
  const manual = textPdf(PAGES);

  async function upload(collection: string, fileName: string, content: Uint8Array, fields: Record<string, string> = {}, key = TEST_MASTER_KEY): Promise<void> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([content]), fileName);
    const response = await fetch(`${server.url}/v1/collections/${collection}/files?refresh=wait_for`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    assert.equal(response.status, 201, await response.text());
  }

  async function picture(path: string, headers: Record<string, string> = {}, key = TEST_MASTER_KEY): Promise<Picture> {
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
  }

  before(async () => {
    // A budget of 30 KiB: a few small pictures fit, not many.
    server = await startTestServer({ keepFiles: true, previewCacheBytes: 30 * 1024 });
    assert.equal((await server.request('POST', '/v1/collections', { name: 'docs' })).status, 201);
    await upload('docs', 'pump.pdf', manual, { id: 'pump', metadata: JSON.stringify({ tenant: 'a' }) });
    await upload('docs', 'scan.png', scanPng(['A scanned receipt for the pump.'], 'latin'), { id: 'receipt', metadata: JSON.stringify({ tenant: 'b' }) });
    await upload('docs', 'notes.txt', new TextEncoder().encode('plain notes about the pump'), { id: 'notes' });
  });
  after(() => server.close());

  test("a PDF page as WebP of the width asked for, each page its own; PNG too", async () => {
    const second = await picture('/v1/collections/docs/documents/pump/pages/2/image?width=300');
    assert.equal(second.status, 200, second.text);
    assert.equal(second.headers.get('content-type'), 'image/webp');
    assert.equal(second.headers.get('x-content-type-options'), 'nosniff');
    const drawn = await inkOf(second.bytes);
    assert.equal(drawn.width, 300);
    assert.equal(drawn.height, Math.floor((300 * 11) / 8.5), 'US Letter, as the PDF says');
    assert.ok(drawn.ink > 0.00005 && drawn.ink < 0.05, `a line of text on white (${drawn.ink})`);
    const first = await picture('/v1/collections/docs/documents/pump/pages/1/image?width=300');
    assert.notDeepEqual(first.bytes, second.bytes, 'another page, another picture');
    const png = await picture('/v1/collections/docs/documents/pump/pages/2/image?width=120&format=png');
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal((await inkOf(png.bytes)).width, 120);
  });

  test('an image is its own one page, never enlarged', async () => {
    const small = await picture('/v1/collections/docs/documents/receipt/pages/1/image?width=200');
    assert.equal(small.status, 200, small.text);
    assert.equal((await inkOf(small.bytes)).width, 200);
    const large = await picture('/v1/collections/docs/documents/receipt/pages/1/image?width=2048');
    assert.equal((await inkOf(large.bytes)).width, 2048);
    const { createCanvas } = await import('@napi-rs/canvas');
    const tiny = createCanvas(150, 60);
    tiny.getContext('2d').fillRect(10, 10, 50, 20);
    await upload('docs', 'tiny.png', tiny.toBuffer('image/png'), { id: 'tiny' });
    const notEnlarged = await picture('/v1/collections/docs/documents/tiny/pages/1/image?width=2048');
    assert.deepEqual(await inkOf(notEnlarged.bytes).then(({ width, height }) => [width, height]), [150, 60], 'never enlarged');
    const missing = await picture('/v1/collections/docs/documents/receipt/pages/2/image');
    assert.equal(missing.status, 404, missing.text);
    assert.match(missing.text, /"code":"not_found".*one page/);
  });

  test('404 for a page the file lacks, 409 for a type without pages to draw, 400 for bad parameters', async () => {
    const fourth = await picture('/v1/collections/docs/documents/pump/pages/4/image');
    assert.equal(fourth.status, 404);
    assert.match(fourth.text, /the PDF has 3 pages, not 4/);
    const text = await picture('/v1/collections/docs/documents/notes/pages/1/image');
    assert.equal(text.status, 409, text.text);
    assert.match(text.text, /"code":"preview_unavailable"/);
    for (const query of ['width=8', 'width=4096', 'format=gif', 'width=wide']) {
      const bad = await picture(`/v1/collections/docs/documents/pump/pages/1/image?${query}`);
      assert.equal(bad.status, 400, `${query}: ${bad.text}`);
      assert.match(bad.text, /\/querystring\//);
    }
    assert.equal((await picture('/v1/collections/docs/documents/pump/pages/0/image')).status, 400);
    assert.equal((await picture('/v1/collections/docs/documents/nobody/pages/1/image')).status, 404);
    await server.request('PUT', '/v1/collections/docs/documents/json', { text: 'no file behind it' });
    const json = await picture('/v1/collections/docs/documents/json/pages/1/image');
    assert.equal(json.status, 404);
    assert.match(json.text, /no kept original/);
  });

  test('cached on disk with an ETag; a replaced document gets a new picture; the budget is kept', async () => {
    const path = '/v1/collections/docs/documents/pump/pages/3/image?width=240';
    const first = await picture(path);
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[0-9a-f]+-webp"$/);
    const cachedFiles = readdirSync(join(server.dataDir, 'previews'));
    const again = await picture(path);
    assert.deepEqual(again.bytes, first.bytes);
    assert.deepEqual(readdirSync(join(server.dataDir, 'previews')), cachedFiles, 'served from the cache');
    const revalidated = await picture(path, { 'if-none-match': etag });
    assert.equal(revalidated.status, 304);

    await upload('docs', 'pump.pdf', textPdf([['Another manual entirely.'], ['Page two.'], ['Page three, rewritten.']]), { id: 'pump', metadata: JSON.stringify({ tenant: 'a' }) });
    const replaced = await picture(path);
    assert.notEqual(replaced.headers.get('etag'), etag, 'the new original, a new picture');

    for (let width = 100; width < 400; width += 20) assert.equal((await picture(`/v1/collections/docs/documents/pump/pages/1/image?width=${width}`)).status, 200);
    const onDisk = readdirSync(join(server.dataDir, 'previews')).filter((name) => !name.startsWith('.'));
    const { statSync } = await import('node:fs');
    const bytes = onDisk.reduce((sum, name) => sum + statSync(join(server.dataDir, 'previews', name)).size, 0);
    assert.ok(bytes <= 30 * 1024, `the cache holds ${bytes} bytes, within its 30 KiB`);
    assert.ok(onDisk.length >= 2, 'and still holds pictures');
  });

  test('a key with a filter sees only the pages of documents it sees', async () => {
    const created = await server.request('POST', '/v1/api-keys', { name: 'tenant-a', scopes: ['search'], filter: { tenant: 'a' } });
    assert.equal(created.status, 201, created.text);
    const key = created.body.key as string;
    assert.equal((await picture('/v1/collections/docs/documents/pump/pages/1/image?width=64', {}, key)).status, 200);
    const hidden = await picture('/v1/collections/docs/documents/receipt/pages/1/image?width=64', {}, key);
    assert.equal(hidden.status, 404);
    assert.match(hidden.text, /document_not_found/);
  });
});

describe('page previews without --keep-files', () => {
  test('404 naming --keep-files', async () => {
    const server = await startTestServer();
    try {
      await server.request('POST', '/v1/collections', { name: 'docs' });
      const form = new FormData();
      form.append('file', new Blob([textPdf([['One page.']])]), 'one.pdf');
      form.append('id', 'one');
      await fetch(`${server.url}/v1/collections/docs/files?refresh=wait_for`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}` }, body: form });
      const response = await fetch(`${server.url}/v1/collections/docs/documents/one/pages/1/image`, { headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });
      assert.equal(response.status, 404);
      assert.match(await response.text(), /--keep-files/);
    } finally {
      await server.close();
    }
  });
});
