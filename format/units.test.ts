// Tests for how sizes and times read in the CLI and the dashboard (units.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatTime } from './index.ts';

test('a byte count in binary units, one decimal past bytes', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(23 * 1024 * 1024), '23.0 MiB');
  assert.equal(formatBytes(3 * 1024 ** 5), '3072.0 TiB');
});

test('a time to the minute, and what stands for none', () => {
  assert.equal(formatTime('2026-11-21T06:32:59.123Z'), '2026-11-21 06:32');
  assert.equal(formatTime(null), '-');
  assert.equal(formatTime(undefined), '-');
  assert.equal(formatTime(null, 'never'), 'never');
});
