// Tests for roaring bitmap files: round trip through the segment container, damage detected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RoaringBitmap32, readBitmapFile, writeBitmapFile } from './roaring.ts';
import { CorruptFileError } from './errors.ts';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-roaring-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a bitmap round trips through a file', (t) => {
  const file = path.join(tempDir(t), 'seg-1.del-3');
  const bitmap = new RoaringBitmap32([0, 7, 65_536, 1_000_000]);
  bitmap.addRange(200, 300);
  const length = writeBitmapFile(file, bitmap);
  assert.equal(length, fs.statSync(file).size);
  const back = readBitmapFile(file);
  assert.ok(back.isEqual(bitmap));
  assert.equal(back.size, 104);
});

test('an empty bitmap round trips', (t) => {
  const file = path.join(tempDir(t), 'empty.del');
  writeBitmapFile(file, new RoaringBitmap32());
  assert.equal(readBitmapFile(file).size, 0);
});

test('a damaged bitmap file names the file', (t) => {
  const file = path.join(tempDir(t), 'bad.del');
  writeBitmapFile(file, new RoaringBitmap32([1, 2, 3]));
  const data = fs.readFileSync(file);
  data[20] ^= 0xff;
  fs.writeFileSync(file, data);
  assert.throws(() => readBitmapFile(file), (error: unknown) => error instanceof CorruptFileError && error.message.includes(file));
});
