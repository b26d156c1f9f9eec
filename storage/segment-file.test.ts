// Tests for the segment container: round trip, alignment, and every kind of damage being
// reported as a CorruptFileError that names the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readSegmentFile, writeSegmentFile, SECTION_ALIGNMENT, SEGMENT_FORMAT_VERSION } from './segment-file.ts';
import { CorruptFileError } from './errors.ts';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-segfile-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

function writeSample(dir: string): string {
  const file = path.join(dir, 'sample.fseg');
  writeSegmentFile(file, [
    ['odd', bytes(1, 2, 3)],
    ['empty', new Uint8Array(0)],
    ['text', new TextEncoder().encode('héllo sections')],
    ['big', new Uint8Array(10_000).map((_, i) => i % 251)],
  ]);
  return file;
}

function assertCorrupt(file: string, reason: RegExp): void {
  assert.throws(
    () => readSegmentFile(file),
    (error: unknown) => {
      assert.ok(error instanceof CorruptFileError, `expected CorruptFileError, got ${String(error)}`);
      assert.equal(error.code, 'corrupt_file');
      assert.ok(error.message.includes(file), `message names the file: ${error.message}`);
      assert.match(error.message, reason);
      return true;
    },
  );
}

test('sections round trip', (t) => {
  const file = writeSample(tempDir(t));
  const segment = readSegmentFile(file);
  assert.equal(segment.path, file);
  assert.equal(segment.byteLength, fs.statSync(file).size);
  assert.deepEqual([...segment.section('odd')], [1, 2, 3]);
  assert.equal(segment.section('empty').length, 0);
  assert.equal(new TextDecoder().decode(segment.section('text')), 'héllo sections');
  assert.equal(segment.section('big')[10], 10);
  assert.equal(segment.section('big').length, 10_000);
  assert.deepEqual(segment.names(), ['odd', 'empty', 'text', 'big']);
  assert.ok(segment.has('text'));
  assert.ok(!segment.has('nope'));
  assert.throws(() => segment.section('nope'), CorruptFileError);
});

test('a section given as pieces is written as their concatenation', (t) => {
  const dir = tempDir(t);
  const whole = path.join(dir, 'whole.fseg');
  const pieces = path.join(dir, 'pieces.fseg');
  writeSegmentFile(whole, [['a', bytes(9)], ['joined', bytes(1, 2, 3, 4, 5)], ['none', new Uint8Array(0)]]);
  writeSegmentFile(pieces, [['a', bytes(9)], ['joined', [bytes(1, 2), new Uint8Array(0), bytes(3, 4, 5)]], ['none', []]]);
  assert.deepEqual(fs.readFileSync(pieces), fs.readFileSync(whole), 'the same file, byte for byte');
  assert.deepEqual([...readSegmentFile(pieces).section('joined')], [1, 2, 3, 4, 5]);
});

test('writeSegmentFile returns the file length', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'x.fseg');
  const length = writeSegmentFile(file, [['a', bytes(9)]]);
  assert.equal(length, fs.statSync(file).size);
});

test('every section starts at an 8-byte aligned offset and views are zero-copy', (t) => {
  const segment = readSegmentFile(writeSample(tempDir(t)));
  const base = segment.section('odd').buffer;
  for (const name of segment.names()) {
    const view = segment.section(name);
    assert.equal(view.byteOffset % SECTION_ALIGNMENT, 0, `section ${name} at ${view.byteOffset}`);
    assert.equal(view.buffer, base, 'sections share the file buffer');
  }
});

test('a file with no sections is valid', (t) => {
  const file = path.join(tempDir(t), 'none.fseg');
  writeSegmentFile(file, []);
  assert.deepEqual(readSegmentFile(file).names(), []);
});

test('duplicate or empty section names are refused when writing', (t) => {
  const file = path.join(tempDir(t), 'dup.fseg');
  assert.throws(() => writeSegmentFile(file, [['a', bytes(1)], ['a', bytes(2)]]), /duplicate/);
  assert.throws(() => writeSegmentFile(file, [['', bytes(1)]]), RangeError);
  assert.ok(!fs.existsSync(file));
});

test('a flipped byte inside a section fails the checksum', (t) => {
  const file = writeSample(tempDir(t));
  const data = fs.readFileSync(file);
  const offset = readSegmentFile(file).section('big').byteOffset + 500;
  data[offset] ^= 0x40;
  fs.writeFileSync(file, data);
  assertCorrupt(file, /checksum/);
});

test('a flipped byte in the section table fails the checksum', (t) => {
  const file = writeSample(tempDir(t));
  const data = fs.readFileSync(file);
  data[data.length - 30] ^= 0x01;
  fs.writeFileSync(file, data);
  assertCorrupt(file, /checksum|bounds/);
});

test('truncation is detected', (t) => {
  const dir = tempDir(t);
  const file = writeSample(dir);
  const data = fs.readFileSync(file);
  for (const cut of [1, 8, 17, data.length - 20, data.length - 1]) {
    fs.writeFileSync(file, data.subarray(0, data.length - cut));
    assertCorrupt(file, /.+/);
  }
  fs.writeFileSync(file, new Uint8Array(0));
  assertCorrupt(file, /too short/);
});

test('bad magic is detected', (t) => {
  const file = writeSample(tempDir(t));
  const data = fs.readFileSync(file);
  data[0] = 'X'.charCodeAt(0);
  fs.writeFileSync(file, data);
  assertCorrupt(file, /magic/);
});

test('a newer format version is refused as unsupported', (t) => {
  const file = writeSample(tempDir(t));
  const data = fs.readFileSync(file);
  new DataView(data.buffer, data.byteOffset).setUint32(8, SEGMENT_FORMAT_VERSION + 1, true);
  fs.writeFileSync(file, data);
  assertCorrupt(file, /unsupported version 2/);
});

test('a damaged end magic is detected', (t) => {
  const file = writeSample(tempDir(t));
  const data = fs.readFileSync(file);
  data[data.length - 1] ^= 0xff;
  fs.writeFileSync(file, data);
  assertCorrupt(file, /end magic/);
});
