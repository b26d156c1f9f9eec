// Tests for snapshot pins: retired files wait for every pinned snapshot that may list them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SnapshotPins } from './snapshot-pins.ts';

test('files retired while nothing is pinned can go at once', () => {
  const pins = new SnapshotPins();
  assert.deepEqual(pins.retire(['seg-1'], 3), ['seg-1']);
});

test('a retired file waits for the pinned snapshots that list it, and only those', () => {
  const pins = new SnapshotPins();
  pins.pin(3);
  pins.pin(5);
  assert.deepEqual(pins.retire(['a'], 3), []);
  assert.deepEqual(pins.retire(['b'], 5), []);
  // Only snapshots up to generation 2 list c, and none of them is pinned.
  assert.deepEqual(pins.retire(['c'], 2), ['c']);
  assert.deepEqual(pins.unpin(3), ['a']);
  assert.deepEqual(pins.unpin(5), ['b']);
  assert.equal(pins.pinned, 0);
});

test('idle resolves when the last pin goes', async () => {
  const pins = new SnapshotPins();
  pins.pin(1);
  pins.pin(1);
  let idle = false;
  const waiting = pins.idle().then(() => (idle = true));
  pins.unpin(1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(idle, false);
  pins.unpin(1);
  await waiting;
  assert.equal(idle, true);
});
