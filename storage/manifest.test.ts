// Tests for the manifest: round trip, absence, and damage reported with the file's path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readManifest, writeManifest, MANIFEST_FILE_NAME } from './manifest.ts';
import type { Manifest } from './manifest.ts';
import { CorruptFileError } from './errors.ts';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-manifest-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const sample: Manifest = {
  formatVersion: 1,
  generation: 4,
  walGeneration: 7,
  nextSegmentNumber: 3,
  segments: [
    { name: 'seg-1.fseg', docCount: 10, deletedCount: 2, deletes: 'seg-1.del-4', byteLength: 1234 },
    { name: 'seg-2.fseg', docCount: 5, deletedCount: 0, deletes: null, byteLength: 999 },
  ],
};

test('a manifest round trips', (t) => {
  const dir = tempDir(t);
  writeManifest(dir, sample);
  assert.deepEqual(readManifest(dir), sample);
  writeManifest(dir, { ...sample, generation: 5, segments: [] });
  assert.equal(readManifest(dir)?.generation, 5);
  assert.deepEqual(fs.readdirSync(dir), [MANIFEST_FILE_NAME]);
});

test('no manifest reads as null', (t) => {
  assert.equal(readManifest(tempDir(t)), null);
});

function assertCorrupt(dir: string, reason: RegExp): void {
  const file = path.join(dir, MANIFEST_FILE_NAME);
  assert.throws(
    () => readManifest(dir),
    (error: unknown) => error instanceof CorruptFileError && error.message.includes(file) && reason.test(error.message),
  );
}

test('a changed value fails the checksum', (t) => {
  const dir = tempDir(t);
  writeManifest(dir, sample);
  const file = path.join(dir, MANIFEST_FILE_NAME);
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"docCount": 10', '"docCount": 11'));
  assertCorrupt(dir, /checksum/);
});

test('truncated JSON is reported', (t) => {
  const dir = tempDir(t);
  writeManifest(dir, sample);
  const file = path.join(dir, MANIFEST_FILE_NAME);
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.slice(0, text.length / 2));
  assertCorrupt(dir, /JSON/);
});

test('a malformed or newer manifest is reported', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, MANIFEST_FILE_NAME);
  fs.writeFileSync(file, JSON.stringify({ crc32: 1, body: { ...sample, formatVersion: 2 } }));
  assertCorrupt(dir, /unsupported version/);
  fs.writeFileSync(file, JSON.stringify({ crc32: 1, body: { ...sample, segments: [{ name: 3 }] } }));
  assertCorrupt(dir, /malformed/);
  fs.writeFileSync(file, JSON.stringify([1, 2]));
  assertCorrupt(dir, /checksum/);
});
