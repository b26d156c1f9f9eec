// Tests for atomic file replacement: content lands whole, no temporary files are left over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic, writeFileAtomicWith, fsyncDirectory, ATOMIC_TEMP_PREFIX } from './atomic-file.ts';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-atomic-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('writeFileAtomic creates and replaces a file', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'a.json');
  writeFileAtomic(file, 'first');
  assert.equal(fs.readFileSync(file, 'utf8'), 'first');
  writeFileAtomic(file, new Uint8Array([1, 2, 3]));
  assert.deepEqual([...fs.readFileSync(file)], [1, 2, 3]);
  assert.deepEqual(fs.readdirSync(dir), ['a.json']);
  fsyncDirectory(dir);
});

test('a failing writer leaves the old file and no temporary file', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'b.bin');
  writeFileAtomic(file, 'old');
  assert.throws(
    () =>
      writeFileAtomicWith(file, (fd) => {
        fs.writeSync(fd, 'partial');
        throw new Error('disk on fire');
      }),
    /disk on fire/,
  );
  assert.equal(fs.readFileSync(file, 'utf8'), 'old');
  assert.equal(fs.readdirSync(dir).filter((name) => name.startsWith(ATOMIC_TEMP_PREFIX)).length, 0);
});
