// Finding a document by id: ASCII ids compare with the stored bytes directly, any other id
// through its UTF-8 bytes; both agree with byte order, and a missing id is -1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocIds, encodeDocIds } from './doc-ids.ts';

test('every id is found at its doc; ids between or around them are not', () => {
  const ids = ['m-10', 'a', 'm-9', 'zz', 'ab', 'é-1', 'm', 'Z', 'e'];
  const { bytes, offsets, order } = encodeDocIds(ids);
  const docIds = new DocIds(bytes, offsets, order);
  ids.forEach((id, doc) => assert.equal(docIds.find(id), doc, id));
  for (const missing of ['', 'aa', 'm-1', 'm-100', 'zzz', '0', 'é', 'é-2', 'ü']) assert.equal(docIds.find(missing), -1, missing);
});

test('a segment of one id, and one of none, answer at their ends', () => {
  const one = encodeDocIds(['only']);
  const single = new DocIds(one.bytes, one.offsets, one.order);
  assert.equal(single.find('only'), 0);
  for (const missing of ['onl', 'only-not', 'a', 'z']) assert.equal(single.find(missing), -1, missing);
  const none = encodeDocIds([]);
  assert.equal(new DocIds(none.bytes, none.offsets, none.order).find('any'), -1);
});
