// The batched log destination: lines wait at most LOG_FLUSH_MS, a full batch goes at once, and
// after close every line goes at once.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOG_BATCH_BYTES, LOG_FLUSH_MS, batchedLines } from './log-destination.ts';

function sink() {
  const writes: string[] = [];
  return { writes, out: { write: (text: string) => writes.push(text) } };
}

test('lines are written together, within the flush interval', async () => {
  const { writes, out } = sink();
  const log = batchedLines(out);
  log.write('one\n');
  log.write('two\n');
  assert.deepEqual(writes, [], 'nothing is written line by line');
  await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_MS * 3));
  assert.deepEqual(writes, ['one\ntwo\n']);
  log.close();
});

test('a full batch is written at once, and close writes what waits, then every line at once', () => {
  const { writes, out } = sink();
  const log = batchedLines(out);
  const line = `${'x'.repeat(1023)}\n`;
  for (let i = 0; i < LOG_BATCH_BYTES / line.length; i++) log.write(line);
  assert.equal(writes.length, 1);
  assert.equal(writes[0].length, LOG_BATCH_BYTES);
  log.write('waiting\n');
  log.close();
  assert.deepEqual(writes.slice(1), ['waiting\n']);
  log.write('after\n');
  assert.deepEqual(writes.slice(2), ['after\n']);
});
