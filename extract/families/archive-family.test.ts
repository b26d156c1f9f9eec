// Tests for the archive family: zip entries as pages labelled by path, nested zips within and
// beyond the depth limit, zip bombs (too big, lying ratio, lying sizes) refused quickly, a
// damaged zip → extraction_failed, and gzip.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { makeZip } from '../../test/helpers/zip-writer.ts';
import { DEFAULT_EXTRACTION_OPTIONS, ExtractionError, extractFile } from '../index.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

async function rejection(promise: Promise<unknown>): Promise<ExtractionError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ExtractionError, `not an ExtractionError: ${String(error)}`);
    return error;
  }
  assert.fail('extraction should have failed');
}

test('each readable entry is a page labelled by its path; folders and unread formats are skipped', async () => {
  const zip = makeZip([
    { name: 'a.txt', data: 'alpha text' },
    { name: 'folder/', data: '' },
    { name: 'folder/b.md', data: '# Bee\n\nbeta **bold**' },
    { name: 'folder/deeper/c.txt', data: 'gamma stored', store: true },
    { name: 'blob.bin', data: new Uint8Array([0, 1, 2, 3]) },
    { name: 'README', data: 'extension-less text' },
  ]);
  const result = await extractFile(zip, 'bundle.zip');
  assert.equal(result.format, 'zip');
  assert.equal(result.title, null);
  assert.deepEqual(result.pages, [
    { number: 1, label: 'a.txt', text: 'alpha text' },
    { number: 2, label: 'folder/b.md', text: 'Bee\n\nbeta bold' },
    { number: 3, label: 'folder/deeper/c.txt', text: 'gamma stored' },
    { number: 4, label: 'README', text: 'extension-less text' },
  ]);
});

test('an empty zip reads as one empty page', async () => {
  const result = await extractFile(makeZip([]), 'empty.zip');
  assert.deepEqual(result.pages, [{ number: 1, label: null, text: '' }]);
});

test('a nested zip within the depth limit is read, its pages labelled outer/inner', async () => {
  const inner = makeZip([{ name: 'deep.txt', data: 'nested words' }]);
  const outer = makeZip([{ name: 'top.txt', data: 'top words' }, { name: 'sub/inner.zip', data: inner }]);
  const result = await extractFile(outer, 'outer.zip', { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1 << 20, maxArchiveDepth: 1 });
  assert.deepEqual(result.pages.map((p) => [p.label, p.text]), [
    ['top.txt', 'top words'],
    ['sub/inner.zip/deep.txt', 'nested words'],
  ]);
  const two = makeZip([{ name: 'a.txt', data: 'one' }, { name: 'b.txt', data: 'two' }]);
  const labelled = await extractFile(makeZip([{ name: 'x.zip', data: two }]), 'o.zip');
  assert.deepEqual(labelled.pages.map((p) => p.label), ['x.zip/a.txt', 'x.zip/b.txt']);
});

test('zips nested deeper than maxArchiveDepth are refused', async () => {
  let zip = makeZip([{ name: 'core.txt', data: 'core' }]);
  for (let i = 0; i < 3; i++) zip = makeZip([{ name: `level${i}.zip`, data: zip }]);
  const ok = await extractFile(zip, 'deep.zip', { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1 << 20, maxArchiveDepth: 3 });
  assert.equal(ok.pages[0].text, 'core');
  const error = await rejection(extractFile(zip, 'deep.zip', { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1 << 20, maxArchiveDepth: 2 }));
  assert.equal(error.code, 'extraction_failed');
  assert.match(error.message, /nested .*deeper than the limit/);
});

test('a zip bomb is refused quickly: declared size over the budget', async () => {
  const zeros = new Uint8Array(5 * 1024 * 1024);
  const zip = makeZip([{ name: 'zeros.txt', data: zeros }]);
  assert.ok(zip.length < 20_000);
  const started = Date.now();
  const error = await rejection(extractFile(zip, 'bomb.zip', { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1024 * 1024, maxArchiveDepth: 3 }));
  assert.equal(error.code, 'extraction_failed');
  assert.match(error.message, /the archive unpacks to more than 1048576 bytes/);
  assert.ok(Date.now() - started < 1000);
});

test('a zip that lies about its sizes is stopped at the budget while inflating', async () => {
  const zeros = new Uint8Array(5 * 1024 * 1024);
  const zip = makeZip([{ name: 'small.txt', data: zeros, declaredSize: 100 }]);
  const error = await rejection(extractFile(zip, 'liar.zip', { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1024 * 1024, maxArchiveDepth: 3 }));
  assert.match(error.message, /the archive unpacks to more than/);
});

test('the budget is shared with nested zips (42.zip style)', async () => {
  const layer = makeZip([{ name: 'z.txt', data: new Uint8Array(400_000).fill(0x61) }]);
  const outer = makeZip([1, 2, 3, 4].map((i) => ({ name: `part${i}.zip`, data: layer })));
  const error = await rejection(extractFile(outer, 'outer.zip', { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1024 * 1024, maxArchiveDepth: 3 }));
  assert.match(error.message, /the archive unpacks to more than/);
});

test('a declared compression ratio no deflate stream reaches is refused', async () => {
  const zip = makeZip([{ name: 'x.txt', data: 'tiny', declaredSize: 50 * 1024 * 1024 }]);
  const error = await rejection(extractFile(zip, 'ratio.zip'));
  assert.match(error.message, /compression ratio/);
});

test('a damaged zip → extraction_failed', async () => {
  const good = makeZip([{ name: 'a.txt', data: 'some text that will be damaged, repeated repeated repeated' }]);
  const truncated = good.subarray(0, 40);
  assert.equal((await rejection(extractFile(truncated, 'cut.zip'))).code, 'extraction_failed');
  const corrupt = new Uint8Array(good);
  for (let i = 38; i < 50; i++) corrupt[i] ^= 0xff; // inside the deflate data
  const error = await rejection(extractFile(corrupt, 'corrupt.zip'));
  assert.equal(error.code, 'extraction_failed');
  assert.match(error.message, /damaged/);
});

test('a gzip file reads its single compressed file', async () => {
  const result = await extractFile(new Uint8Array(gzipSync(utf8('# Heading\n\ngzipped text'))), 'notes.gz');
  assert.equal(result.format, 'gz');
  assert.match(result.pages[0].text, /gzipped text/);
  const bomb = new Uint8Array(gzipSync(new Uint8Array(3 * 1024 * 1024)));
  const error = await rejection(extractFile(bomb, 'bomb.gz', { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1024 * 1024, maxArchiveDepth: 3 }));
  assert.match(error.message, /the archive unpacks to more than/);
});

test('fixtures/files/sample.zip: the .txt, the .md and the nested folder, labelled by path', async () => {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/files/sample.zip', import.meta.url)));
  const result = await extractFile(bytes, 'sample.zip');
  assert.deepEqual(result.pages.map((p) => p.label), ['readme.txt', 'docs/guide.md', 'docs/deeper/notes.txt']);
  assert.equal(result.pages[1].text, 'Guide\n\nA markdown guide inside the archive.');
});
