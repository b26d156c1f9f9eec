// Hostile and damaged ZIP-based documents: a zip bomb (honest or lying about its size) is
// refused while inflating, a truncated or garbled file fails as extraction_failed, and an
// XML part that is not XML does too. Archives are built here with node:zlib.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeZip } from '../../test/helpers/zip-writer.ts';
import { DEFAULT_EXTRACTION_OPTIONS, ExtractionError, extractFile } from '../index.ts';
import { OfficePackage } from './office-package.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/files/', import.meta.url));

const text = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const LIMITS = { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1_000_000, maxArchiveDepth: 3 };
const CONTENT_TYPES = { name: '[Content_Types].xml', data: text('<Types/>') };

function bomb(declaredSize?: number): Uint8Array {
  // 50 MB of zeros deflates to about 50 KB.
  const zeros = new Uint8Array(50 * 1024 * 1024);
  return makeZip([CONTENT_TYPES, { name: 'word/document.xml', data: zeros, declaredSize }]);
}

async function assertFails(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ExtractionError, String(error));
    assert.equal(error.code, 'extraction_failed');
    assert.match(error.message, pattern);
    return true;
  });
}

test('a small hand-made docx is read (the test archive builder works)', async () => {
  const document = '<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>built folioquokka</w:t></w:r></w:p></w:body></w:document>';
  const zip = makeZip([CONTENT_TYPES, { name: 'word/document.xml', data: text(document) }]);
  const result = await extractFile(zip, 'built.docx', LIMITS);
  assert.equal(result.format, 'docx');
  assert.equal(result.pages[0].text, 'built folioquokka');
});

test('a zip bomb is refused: the part would unpack past maxUnpackedBytes', async () => {
  const zip = bomb();
  assert.ok(zip.length < 200_000, `bomb is ${zip.length} bytes`);
  await assertFails(extractFile(zip, 'bomb.docx', LIMITS), /unpacks to more than 1000000 bytes/);
});

test('a zip bomb that lies about its size is stopped while inflating', async () => {
  await assertFails(extractFile(bomb(100), 'liar.docx', LIMITS), /./);
  // Declared under the budget: inflating starts, and stops once the part outgrows its claim.
  const archive = OfficePackage.open(bomb(500_000), LIMITS);
  await assertFails(archive.readBytes('word/document.xml'), /./);
});

test('the budget covers all parts together, not each alone', async () => {
  const part = new Uint8Array(600_000);
  const zip = makeZip([{ name: 'a.xml', data: part }, { name: 'b.xml', data: part }]);
  const archive = OfficePackage.open(zip, LIMITS);
  assert.equal((await archive.readBytes('a.xml'))?.length, 600_000);
  await assertFails(archive.readBytes('b.xml'), /unpacks to more than 1000000 bytes/);
});

test('a truncated or garbled office file fails as extraction_failed', async () => {
  const docx = new Uint8Array(readFileSync(`${FIXTURES}sample.docx`));
  await assertFails(extractFile(docx.subarray(0, Math.floor(docx.length / 2)), 'cut.docx'), /./);
  const garbled = new Uint8Array(docx);
  garbled.fill(0x41, 40, docx.length - 200); // keeps the headers' start, ruins the compressed data
  await assertFails(extractFile(garbled, 'garbled.docx'), /./);
  await assertFails(extractFile(text('PK\u0003\u0004 not really a zip'), 'fake.xlsx'), /./);
});

test('an office file without its main part, or with a part that is not XML, fails as extraction_failed', async () => {
  await assertFails(extractFile(makeZip([CONTENT_TYPES, { name: 'word/other.xml', data: text('<x/>') }]), 'a.docx'), /main part/);
  const manifest = { name: 'META-INF/manifest.xml', data: text('<manifest/>') };
  await assertFails(extractFile(makeZip([{ name: 'content.xml', data: text('no xml here') }, manifest]), 'a.odt'), /malformed XML/);
  await assertFails(extractFile(text('<office:document>not closed'), 'a.fodt'), /./);
});
