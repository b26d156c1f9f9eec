// Tests for memory-mapped segment files: the map gives the same sections as a read, a damaged
// byte is caught by the checksum read (which does not go through the map), and structure is
// checked even when the checksum is skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mapSegmentFile, readSegmentFile, writeSegmentFile } from './segment-file.ts';
import { mapFileReadOnly } from './mapped-file.ts';
import { CorruptFileError } from './errors.ts';

function sampleFile(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-mapped-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'sample.fseg');
  writeSegmentFile(file, [
    ['small', new Uint8Array([7, 8, 9])],
    ['big', new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 31) % 251)],
  ]);
  return file;
}

test('a mapped segment file has the same sections as one read into memory', (t) => {
  const file = sampleFile(t);
  const mapped = mapSegmentFile(file);
  const read = readSegmentFile(file);
  assert.deepEqual(mapped.names(), read.names());
  assert.equal(mapped.byteLength, fs.statSync(file).size);
  assert.deepEqual([...mapped.section('small')], [7, 8, 9]);
  assert.ok(Buffer.from(mapped.section('big')).equals(Buffer.from(read.section('big'))));
  assert.equal(mapped.section('big').byteOffset % 8, 0);
});

test('a damaged byte is caught by the checksum of a mapped file, and only when it is checked', (t) => {
  const file = sampleFile(t);
  const bytes = fs.readFileSync(file);
  bytes[2 * 1024 * 1024] ^= 0xff;
  fs.writeFileSync(file, bytes);
  assert.throws(() => mapSegmentFile(file), (error: unknown) => error instanceof CorruptFileError && /checksum mismatch/.test(error.message) && error.message.includes(file));
  assert.equal(mapSegmentFile(file, { verifyChecksum: false }).section('small')[0], 7);
});

test('structure is checked even without the checksum', (t) => {
  const file = sampleFile(t);
  fs.truncateSync(file, fs.statSync(file).size - 3);
  assert.throws(() => mapSegmentFile(file, { verifyChecksum: false }), CorruptFileError);
  const empty = path.join(path.dirname(file), 'empty.fseg');
  fs.writeFileSync(empty, '');
  assert.throws(() => mapFileReadOnly(empty), /empty file/);
});

/** This process's resident pages of mapped files (RssFile), in bytes; null without /proc. */
function residentFileBytes(): number | null {
  try {
    const match = /^RssFile:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

test('releasing a mapped file gives its pages back and its views still read', (t) => {
  const file = sampleFile(t);
  const mapped = mapSegmentFile(file);
  const big = mapped.section('big');
  let sum = 0;
  for (let i = 0; i < big.length; i += 1024) sum += big[i]; // touch every page
  const touched = residentFileBytes();
  mapped.releaseResidentPages();
  const released = residentFileBytes();
  if (touched !== null && released !== null) {
    assert.ok(touched - released >= 2 * 1024 * 1024, `resident file pages ${touched} → ${released} bytes`);
  } else {
    t.diagnostic('no /proc/self/status here: the resident set is not checked');
  }
  let again = 0;
  for (let i = 0; i < big.length; i += 1024) again += big[i];
  assert.equal(again, sum, 'the views read the same bytes after the release');
  assert.deepEqual([...mapped.section('small')], [7, 8, 9]);
  readSegmentFile(file).releaseResidentPages(); // a file read into memory: nothing to release
});
