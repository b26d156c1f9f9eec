// Tests of the stored record codec: documents come back exactly (types, nulls, pages, page
// starts, odd numbers and odd metadata names), several records share one block buffer.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ByteWriter } from '../../storage/index.ts';
import type { StoredRecord } from './stored-record.ts';
import { readStoredRecord, writeStoredRecord } from './stored-record.ts';

const records: StoredRecord[] = [
  {
    document: {
      id: 'a:1',
      title: 'Café ☕ 東京 😀',
      text: 'plain text',
      metadata: {
        s: 'x',
        n: 42,
        big: 2 ** 40,
        neg: -3,
        frac: 0.1,
        negZero: -0,
        t: true,
        f: false,
        strings: ['a', 'ü'],
        numbers: [1, -1.5, 1e300],
        empty: [],
        ['__proto__']: 'kept as a field',
      },
      pages: null,
      format: 'text',
      bytes: 123,
      indexedAt: '2024-01-01T00:00:00.000Z',
    },
    pageStarts: null,
  },
  {
    document: {
      id: 'b',
      title: null,
      text: '',
      metadata: {},
      pages: [
        { number: 1, label: null, offset: 0 },
        { number: 2, label: 'iv', offset: 10 },
      ],
      format: 'pdf',
      bytes: 5_000_000_000,
      indexedAt: '2024-01-02T00:00:00.000Z',
    },
    pageStarts: [0, 7],
  },
];

test('stored records round-trip exactly, back to back in one buffer', () => {
  const out = new ByteWriter(16);
  const starts: number[] = [];
  for (const record of records) {
    starts.push(out.length);
    writeStoredRecord(out, record);
  }
  starts.push(out.length);
  const bytes = out.finish();
  records.forEach((record, i) => {
    const read = readStoredRecord(bytes.subarray(starts[i], starts[i + 1]));
    assert.deepStrictEqual(read, record);
    assert.ok(Object.is(read.document.metadata.negZero, -0) || i > 0);
    assert.deepEqual(Object.keys(read.document.metadata), Object.keys(record.document.metadata));
  });
  assert.equal(Object.getPrototypeOf(readStoredRecord(bytes.subarray(starts[0], starts[1])).document.metadata), Object.prototype);
});
