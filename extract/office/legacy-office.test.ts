// Excel and PowerPoint 97–2003 from the committed fixtures (fixtures/make-legacy-office-fixtures.sh,
// made by LibreOffice): sheets as pages labelled with their names, slides as pages `slide N`
// without speaker notes, titles from the summary properties; and hostile variants of the same
// files (a string table claiming two billion strings, records running past their stream, a
// file cut in half) refused as extraction_failed at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { extractFile } from '../index.ts';
import { extractionRefusal } from '../../test/helpers/extraction-refusal.ts';
import { CompoundFile } from './compound-file.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/files/', import.meta.url));
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(FIXTURES + name));

/** A copy of `bytes` with the bytes of stream `stream` at `at` replaced by `patch`. */
function patched(bytes: Uint8Array, stream: string, at: number, patch: number[]): Uint8Array {
  const locate = CompoundFile.open(bytes).fileOffsets(stream)!;
  const copy = new Uint8Array(bytes);
  patch.forEach((value, i) => (copy[locate(at + i)] = value));
  return copy;
}

/** Where the first record of `type` starts in a BIFF or PowerPoint stream (4- or 8-byte headers). */
function findRecord(bytes: Uint8Array, stream: string, type: number): number {
  const data = CompoundFile.open(bytes).stream(stream)!;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let at = 0; at + 4 <= data.length; at += 4 + view.getUint16(at + 2, true)) if (view.getUint16(at, true) === type) return at;
  throw new Error(`no record ${type}`);
}

for (const ext of ['xls', 'xlt']) {
  test(`.${ext}: each worksheet a page labelled with its name, cells by row, the title`, async () => {
    const result = await extractFile(fixture(`sample.${ext}`), `sample.${ext}`);
    assert.equal(result.format, ext);
    assert.equal(result.title, 'Sample folioquokka Workbook');
    assert.deepEqual(result.pages, [
      { number: 1, label: 'Budget', text: 'folioquokka\t12.5\t42\nCafé für ĳssel 東京\t25' },
      { number: 2, label: 'Notes Sheet', text: `${ext}wombat\tsecond column` },
    ]);
  });
}

for (const ext of ['ppt', 'pps', 'pot']) {
  test(`.${ext}: each slide a page in order, without speaker notes, the title`, async () => {
    const result = await extractFile(fixture(`sample.${ext}`), `sample.${ext}`);
    assert.equal(result.format, ext);
    assert.equal(result.title, 'Sample folioquokka Deck');
    assert.deepEqual(result.pages, [
      { number: 1, label: 'slide 1', text: 'First slide folioquokka\nCafé 東京 bullet' },
      { number: 2, label: 'slide 2', text: `Second slide ${ext}wombat` },
    ]);
    assert.ok(!result.pages.some((page) => page.text.includes('speakernotekiwi')));
  });
}

test('hostile workbooks are refused at once', async () => {
  const xls = fixture('sample.xls');
  // The shared string table claims 2^31 strings: no allocation for them, a clear refusal.
  const sst = findRecord(xls, 'Workbook', 0x00fc);
  assert.match(await extractionRefusal(patched(xls, 'Workbook', sst + 8, [0xff, 0xff, 0xff, 0x7f]), 'huge.xls'), /claims 2147483647 strings/);
  // A record whose length runs past the stream.
  assert.match(await extractionRefusal(patched(xls, 'Workbook', sst + 2, [0xff, 0xff]), 'long.xls'), /runs past the end of the stream/);
  // A file cut in half.
  assert.match(await extractionRefusal(xls.subarray(0, Math.floor(xls.length / 2)), 'half.xls'), /could not be read|not a readable OLE2/);
});

test('hostile presentations are refused at once', async () => {
  const ppt = fixture('sample.ppt');
  // The document container (the first record) claims 4 GiB.
  assert.match(await extractionRefusal(patched(ppt, 'PowerPoint Document', 4, [0xf0, 0xff, 0xff, 0xff]), 'long.ppt'), /runs past its container/);
  // The current edit points into the middle of a record.
  assert.match(await extractionRefusal(patched(ppt, 'Current User', 16, [0x03, 0x00, 0x00, 0x00]), 'lost.ppt'), /PowerPoint file could not be read/);
  assert.match(await extractionRefusal(ppt.subarray(0, 4096), 'half.ppt'), /could not be read|not a readable OLE2/);
});
