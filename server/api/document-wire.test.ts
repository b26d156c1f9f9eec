// Tests for a stored document as the API shows it (document-wire.ts) and for the contract's
// checks of a client's documents and patches (document-validation.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildIndexDocument } from '../ingest/index.ts';
import { FolioError } from '../errors/folio-error.ts';
import { documentSummary, storedDocument } from './document-wire.ts';
import { validateDocumentInputs, validateDocumentPatch } from './document-validation.ts';

const NOW = '2024-05-06T07:08:09.000Z';

test('summary and stored view', () => {
  const doc = {
    ...buildIndexDocument({ id: 'f', title: 'File', text: 'one two' }, NOW),
    format: 'pdf',
    pages: [
      { number: 1, label: 'i', offset: 0 },
      { number: 2, label: null, offset: 4 },
    ],
  };
  assert.deepEqual(documentSummary(doc), { id: 'f', title: 'File', format: 'pdf', pages: 2, bytes: doc.bytes, metadata: {}, indexed_at: NOW });
  const view = storedDocument(doc);
  assert.equal(view.text, 'one two');
  assert.deepEqual(view.page_list, [
    { number: 1, label: 'i' },
    { number: 2, label: null },
  ]);
});
test('validation lists every problem', () => {
  assert.doesNotThrow(() => validateDocumentInputs([{ id: 'ok.1:a-b_c', metadata: { s: 's', n: 1, b: true, l: ['a'], m: [1, 2], e: [] } }]));
  assert.throws(
    () =>
      validateDocumentInputs([
        { id: '' },
        { id: 'x'.repeat(257) },
        { id: 'ok', metadata: { mixed: ['a', 1] as unknown as string[], inf: Number.POSITIVE_INFINITY, $op: 'x', 'a,b': 1 } },
        { id: 'ok2', title: 5 as unknown as string, text: null as unknown as string },
      ]),
    (error: unknown) => {
      assert.ok(error instanceof FolioError);
      assert.equal(error.code, 'validation_failed');
      assert.deepEqual(error.errors?.map((e) => e.path), [
        '/body/0/id',
        '/body/1/id',
        '/body/2/metadata/mixed',
        '/body/2/metadata/inf',
        '/body/2/metadata/$op',
        '/body/2/metadata/a,b',
        '/body/3/title',
        '/body/3/text',
      ]);
      return true;
    },
  );
  assert.doesNotThrow(() => validateDocumentPatch({ title: null, metadata: { gone: null, n: 2 } }));
  assert.throws(() => validateDocumentPatch({ metadata: { bad: { nested: 1 } as unknown as string } }), FolioError);
});
