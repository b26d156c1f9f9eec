// Tests for large arrays in their own maps: zero-filled and usable as any typed array, grown with
// their contents kept, and (on Linux, where they are maps) their pages leave the process's
// resident set when they grow and when the work that made them ends, which is what keeps an
// index thread's memory from holding every build's peak.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { LARGE_ARRAY_MIN_BYTES, growArray, newArray, releaseLargeArraysAfter } from './large-arrays.ts';

const MIB = 1024 * 1024;
const linux = process.platform === 'linux';

/** This process's anonymous resident memory in bytes (Linux). */
function anonymousResident(): number {
  const kb = /RssAnon:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  assert.ok(kb, 'RssAnon in /proc/self/status');
  return Number(kb[1]) * 1024;
}

test('a new array is zero-filled, of the requested type and length, small or large', () => {
  for (const length of [0, 10, LARGE_ARRAY_MIN_BYTES / 4 - 1, LARGE_ARRAY_MIN_BYTES / 4, 3 * MIB + 5]) {
    const array = newArray(Uint32Array, length);
    assert.ok(array instanceof Uint32Array);
    assert.equal(array.length, length);
    assert.equal(array.byteOffset, 0);
    assert.ok(array.every((value) => value === 0));
    if (length > 0) {
      array[length - 1] = 0xffffffff;
      assert.equal(array[length - 1], 0xffffffff);
    }
  }
  const floats = newArray(Float64Array, MIB);
  floats[12345] = 1.5;
  assert.equal(floats[12345], 1.5);
});

test('a grown array keeps the used elements, in order, and zeros after them', () => {
  let array = newArray(Uint8Array, 1000);
  for (let i = 0; i < array.length; i++) array[i] = i % 251;
  // Through small and large sizes, keeping only what is used.
  for (const [length, used] of [[4000, 1000], [2 * MIB, 4000], [5 * MIB, 2 * MIB]] as const) {
    const before = array.slice(0, used);
    array = growArray(array, length, used);
    assert.equal(array.length, length);
    assert.deepEqual(array.subarray(0, used), before);
    assert.ok(array.subarray(used).every((value) => value === 0));
    array.fill(7, used);
  }
  const words = growArray(Int32Array.from([-1, 2, -3]), 8);
  assert.deepEqual([...words], [-1, 2, -3, 0, 0, 0, 0, 0]);
});

test('a large array that grows gives its pages back at once', { skip: !linux && 'large arrays are maps only on Linux' }, () => {
  let array = newArray(Uint8Array, 64 * MIB);
  array.fill(1);
  const filled = anonymousResident();
  array = growArray(array, 96 * MIB);
  // The copy touched the new array's first 64 MiB; the old 64 MiB are gone without a collection.
  const grown = anonymousResident();
  assert.ok(grown - filled < 16 * MIB, `resident memory grew by ${((grown - filled) / MIB).toFixed(1)} MiB`);
  assert.equal(array[64 * MIB - 1], 1);
  assert.equal(array[64 * MIB], 0);
});

test('the large arrays of a piece of work leave the resident set when it ends, and its result is intact', { skip: !linux && 'large arrays are maps only on Linux' }, () => {
  const before = anonymousResident();
  let during = 0;
  const sum = releaseLargeArraysAfter(() => {
    const scratch = [newArray(Uint32Array, 16 * MIB), newArray(Uint8Array, 32 * MIB)];
    for (const array of scratch) array.fill(3);
    during = anonymousResident();
    // Nested work releases with the outer one, not before.
    releaseLargeArraysAfter(() => newArray(Uint8Array, 8 * MIB).fill(1));
    return scratch[0][16 * MIB - 1] + scratch[1][0];
  });
  const after = anonymousResident();
  assert.equal(sum, 6);
  assert.ok(during - before >= 90 * MIB, `the work's arrays were resident: ${((during - before) / MIB).toFixed(1)} MiB`);
  assert.ok(after - before < 16 * MIB, `${((after - before) / MIB).toFixed(1)} MiB still resident after the work`);
});
