// Length floors: a byte per length that never exceeds it (so a score bound from it never falls
// below the exact score), exact for short fields, within an eighth above, and monotone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LENGTH_FLOORS, lengthCode, lengthFloorPairs } from './length-floors.ts';
import { Bm25fWeight } from '../search/bm25.ts';

const samples = [...Array.from({ length: 5000 }, (_, i) => i), 65535, 65536, 1e6, 123456789, 2 ** 30, 2 ** 31 - 1, 2 ** 32 - 1];

test('a length code is a byte whose floor is at most the length and within an eighth of it', () => {
  let previous = -1;
  for (const length of samples) {
    const code = lengthCode(length);
    assert.ok(code >= 0 && code <= 255, `${length}: code ${code}`);
    assert.ok(code >= previous, `codes rise with the length (${length})`);
    previous = code;
    const floor = LENGTH_FLOORS[code];
    assert.ok(floor <= length, `${length}: floor ${floor}`);
    if (length < 64) assert.equal(floor, length);
    else if (length < 2 ** 30) assert.ok(length < floor * 1.125, `${length}: floor ${floor} too low`);
  }
});

test('the pairs hold the title code high and the text code low', () => {
  const pairs = lengthFloorPairs(Uint32Array.of(0, 3, 70, 5000), Uint32Array.of(9, 0, 1000, 64));
  assert.deepEqual([...pairs].map((pair) => [pair >>> 8, pair & 255]), [
    [0, 9],
    [3, 0],
    [lengthCode(70), lengthCode(1000)],
    [lengthCode(5000), 64],
  ]);
});

test('a frequency at the floors is never below the exact one', () => {
  const stats = { docCount: 1000, avgTitleLength: 4.3, avgTextLength: 57.9 } as ConstructorParameters<typeof Bm25fWeight>[1];
  for (const field of ['all', 'title', 'text'] as const) {
    const weight = new Bm25fWeight(2.1, stats, field);
    for (const titleLength of [0, 1, 5, 63, 64, 71, 900, 100000]) {
      for (const textLength of [0, 1, 17, 64, 65, 4095, 4096, 77777]) {
        for (const [titleTf, textTf] of [[0, 1], [1, 0], [2, 3], [7, 1]]) {
          const floors = lengthFloorPairs(Uint32Array.of(titleLength), Uint32Array.of(textLength))[0];
          const exact = weight.pseudoFrequency(titleTf, titleLength, textTf, textLength);
          assert.ok(weight.frequencyAtFloors(titleTf, textTf, floors) >= exact, `${field} ${titleTf}/${titleLength} ${textTf}/${textLength}`);
        }
      }
    }
  }
});
