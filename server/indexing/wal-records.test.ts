// Tests for WAL record encoding: both ops round trip exactly; foreign bytes are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack } from 'msgpackr';
import { decodeWalRecord, encodeWalRecord, InvalidWalRecordError } from './wal-records.ts';
import type { WalRecord } from './wal-records.ts';

const upsert: WalRecord = {
  op: 'upsert',
  docs: [
    {
      id: 'doc-1',
      title: 'Hello',
      text: 'Unicode ✓ text\nwith lines',
      pages: [{ number: 1, label: 'i', offset: 0 }],
      metadata: { year: 2024, tags: ['a', 'b'], score: 1.5, draft: false, sizes: [1, 2] },
      format: 'pdf',
      bytes: 123,
      indexedAt: '2024-01-02T03:04:05.000Z',
    },
    { id: 'doc-2', title: null, text: '', pages: null, metadata: {}, format: 'text', bytes: 2, indexedAt: '2024-01-02T03:04:05.000Z' },
  ],
};

test('upsert and delete records round trip', () => {
  assert.deepEqual(decodeWalRecord(encodeWalRecord(upsert)), upsert);
  const del: WalRecord = { op: 'delete', ids: ['a', 'b:c'] };
  assert.deepEqual(decodeWalRecord(encodeWalRecord(del)), del);
});

test('malformed records are refused', () => {
  assert.throws(() => decodeWalRecord(pack({ op: 'drop', ids: [] })), InvalidWalRecordError);
  assert.throws(() => decodeWalRecord(pack({ op: 'upsert', docs: [{ id: 1 }] })), InvalidWalRecordError);
  assert.throws(() => decodeWalRecord(pack('text')), InvalidWalRecordError);
  assert.throws(() => decodeWalRecord(new Uint8Array([0xc1])), InvalidWalRecordError);
});
