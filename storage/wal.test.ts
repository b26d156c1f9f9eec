// Tests for the write-ahead log: durability-ordered appends, group commit, replay, torn tails
// cut off, damage detected, rotation and removal of old generations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WriteAheadLog } from './wal.ts';
import { walFileName, walFilePath, listWalGenerations } from './wal-frame.ts';
import { CorruptFileError } from './errors.ts';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-wal-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decodeAll = (records: Uint8Array[]): string[] => records.map((r) => new TextDecoder().decode(r));

test('appended records replay in order', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  assert.equal(walFileName(1), 'wal-0000000001.log');
  assert.equal(wal.generation, 1);
  await wal.append(encode('one'));
  await wal.append(encode('two'));
  await wal.append(encode('three'));
  await wal.close();
  assert.deepEqual(decodeAll(WriteAheadLog.replay(dir, 0)), ['one', 'two', 'three']);
  assert.equal(wal.sizeBytes(), 3 * 8 + 3 + 3 + 5);
});

test('reopening appends to the newest generation', async (t) => {
  const dir = tempDir(t);
  const first = WriteAheadLog.open(dir);
  await first.append(encode('a'));
  await first.close();
  const second = WriteAheadLog.open(dir);
  assert.equal(second.generation, 1);
  await second.append(encode('b'));
  await second.close();
  assert.deepEqual(decodeAll(WriteAheadLog.replay(dir, 1)), ['a', 'b']);
  assert.deepEqual(listWalGenerations(dir), [1]);
});

test('open honours a minimum generation', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir, 5);
  assert.equal(wal.generation, 5);
  await wal.close();
  assert.deepEqual(listWalGenerations(dir), [5]);
});

test('concurrent appends are batched into fewer syncs and resolve in order', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  const count = 200;
  const resolved: number[] = [];
  const appends = Array.from({ length: count }, (_, i) => wal.append(encode(`record-${i}`)).then(() => resolved.push(i)));
  await Promise.all(appends);
  const { appends: appended, syncs } = wal.stats;
  assert.equal(appended, count);
  assert.ok(syncs < count / 4, `expected group commit, got ${syncs} syncs for ${count} appends`);
  assert.ok(syncs >= 1);
  assert.deepEqual(resolved, Array.from({ length: count }, (_, i) => i));
  await wal.close();
  assert.deepEqual(decodeAll(WriteAheadLog.replay(dir, 1)), Array.from({ length: count }, (_, i) => `record-${i}`));
});

test('a torn record at the tail of the last file is cut off', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  await wal.append(encode('kept-1'));
  await wal.append(encode('kept-2'));
  await wal.close();
  const file = walFilePath(dir, 1);
  const goodLength = fs.statSync(file).size;
  // A crash mid-write: a header promising 100 bytes, then only some of them.
  const torn = new Uint8Array(8 + 10);
  new DataView(torn.buffer).setUint32(0, 100, true);
  fs.appendFileSync(file, torn);
  assert.deepEqual(decodeAll(WriteAheadLog.replay(dir, 1)), ['kept-1', 'kept-2']);
  assert.equal(fs.statSync(file).size, goodLength, 'file truncated to the last good record');

  // A tail of zeros (file extended, data never written) is torn too.
  fs.appendFileSync(file, new Uint8Array(4096));
  const reopened = WriteAheadLog.open(dir);
  assert.equal(fs.statSync(file).size, goodLength);
  await reopened.append(encode('after'));
  await reopened.close();
  assert.deepEqual(decodeAll(WriteAheadLog.replay(dir, 1)), ['kept-1', 'kept-2', 'after']);
});

test('a whole final record with a bad checksum is damage, reported with its file and offset, not cut off', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  await wal.append(encode('good'));
  await wal.append(encode('last-one'));
  await wal.close();
  const file = walFilePath(dir, 1);
  const data = fs.readFileSync(file);
  data[data.length - 1] ^= 0xff;
  fs.writeFileSync(file, data);
  const lastRecordAt = 8 + encode('good').length;
  assert.throws(
    () => WriteAheadLog.open(dir),
    (error: unknown) => error instanceof CorruptFileError && error.message.includes(file) && error.message.includes(`at byte ${lastRecordAt}`),
  );
  assert.equal(fs.statSync(file).size, data.length, 'the acknowledged record is not cut off');
});

test('damage in the middle of the last file is reported, not skipped', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  for (const text of ['first', 'second', 'third']) await wal.append(encode(text));
  await wal.close();
  const file = walFilePath(dir, 1);
  const data = fs.readFileSync(file);
  data[8 + 5 + 8 + 2] ^= 0x20; // inside 'second'
  fs.writeFileSync(file, data);
  const before = fs.statSync(file).size;
  assert.throws(
    () => WriteAheadLog.replay(dir, 1),
    (error: unknown) => error instanceof CorruptFileError && error.message.includes(file) && /checksum/.test(error.message),
  );
  assert.equal(fs.statSync(file).size, before, 'a damaged file is not truncated');
});

test('a bad record at the end of an older file is corruption', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  await wal.append(encode('old-1'));
  wal.rotate();
  await wal.append(encode('new-1'));
  await wal.close();
  const oldFile = walFilePath(dir, 1);
  fs.appendFileSync(oldFile, encode('garbage!'));
  assert.throws(() => WriteAheadLog.replay(dir, 1), (error: unknown) => error instanceof CorruptFileError && error.message.includes(oldFile));
  // Replaying only the newer generation does not read the damaged file.
  assert.deepEqual(decodeAll(WriteAheadLog.replay(dir, 2)), ['new-1']);
});

test('rotate splits generations; in-flight appends of the old one still resolve', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  const before = [wal.append(encode('g1-a')), wal.append(encode('g1-b'))];
  const next = wal.rotate();
  assert.equal(next, 2);
  assert.equal(wal.generation, 2);
  const after = wal.append(encode('g2-a'));
  await Promise.all([...before, after]);
  assert.deepEqual(decodeAll(WriteAheadLog.replay(dir, 1)), ['g1-a', 'g1-b', 'g2-a']);
  assert.deepEqual(decodeAll(WriteAheadLog.replay(dir, 2)), ['g2-a']);

  wal.removeBefore(2);
  assert.deepEqual(listWalGenerations(dir), [2]);
  assert.equal(wal.rotate(), 3);
  await wal.append(encode('g3-a'));
  wal.removeBefore(3);
  assert.deepEqual(listWalGenerations(dir), [3]);
  await wal.close();
  assert.deepEqual(decodeAll(WriteAheadLog.replay(dir, 0)), ['g3-a']);
});

test('removeBefore waits for queued appends of the removed generation', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  const pending = wal.append(encode('in-flight'));
  wal.rotate();
  wal.removeBefore(2);
  await pending;
  await wal.close();
  assert.deepEqual(listWalGenerations(dir), [2], 'generation 1 removed once its sync finished');
});

test('rotate creates the new generation file at once, so a reopen appends there', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  await wal.append(encode('x'));
  wal.rotate();
  await wal.close();
  const reopened = WriteAheadLog.open(dir);
  assert.equal(reopened.generation, 2);
  await reopened.close();
});

test('close refuses later appends', async (t) => {
  const dir = tempDir(t);
  const wal = WriteAheadLog.open(dir);
  const pending = wal.append(encode('last'));
  await wal.close();
  await pending;
  await assert.rejects(wal.append(encode('too late')), /closed/);
  await assert.rejects(WriteAheadLog.open(dir).append(new Uint8Array(0)), RangeError);
});
