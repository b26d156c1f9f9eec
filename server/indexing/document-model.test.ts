// Tests for building IndexDocuments from client documents, and for patching them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildIndexDocument, jsonByteLength } from '../ingest/index.ts';
import { applyPatch } from './document-model.ts';

const NOW = '2024-05-06T07:08:09.000Z';

test('defaults and byte length of a JSON document', () => {
  const input = { id: 'e1', text: 'héllo wörld' };
  const doc = buildIndexDocument({ id: 'x' }, NOW);
  const canonical = { id: 'x', title: null, text: '', metadata: {} };
  assert.deepEqual(doc, { ...canonical, pages: null, format: 'text', bytes: JSON.stringify(canonical).length, indexedAt: NOW });
  const full = { id: 'e1', title: null, text: 'héllo wörld', metadata: {} };
  assert.equal(buildIndexDocument(input, NOW).bytes, Buffer.byteLength(JSON.stringify(full)), 'the canonical JSON, however written');
  assert.equal(buildIndexDocument(input, NOW).bytes, 61, 'UTF-8 bytes, not characters');
});

test('the byte length is that of the canonical JSON, whatever the text holds', () => {
  const canonical = (doc: Parameters<typeof jsonByteLength>[0]): number =>
    Buffer.byteLength(JSON.stringify({ id: doc.id, title: doc.title, text: doc.text, metadata: doc.metadata }), 'utf8');
  const docs: Parameters<typeof jsonByteLength>[0][] = [
    { id: 'a', title: null, text: '', metadata: {} },
    { id: 'plain', title: '', text: 'plain ascii text', metadata: { n: 1.5, tags: ['x'] } },
    { id: 'escapes', title: 'Tïtle "q"', text: 'line\nnext\ttab \\ back \u0001 \ud83d\ude00 lone \ud800 x', metadata: { a: ['x', 'ü'], b: true } },
    { id: 'cjk', title: 'ü', text: '日本語のテキスト', metadata: {} },
  ];
  for (const doc of docs) assert.equal(jsonByteLength(doc), canonical(doc), doc.id);
});

test('patch merges metadata, replaces the title only when given, keeps text', () => {
  const doc = buildIndexDocument({ id: 'p', title: 'T', text: 'body', metadata: { a: 1, b: 'x' } }, NOW);
  const later = '2025-01-01T00:00:00.000Z';
  const patched = applyPatch(doc, { metadata: { a: null, c: [1, 2] } }, later);
  assert.deepEqual(patched.metadata, { b: 'x', c: [1, 2] });
  assert.equal(patched.title, 'T');
  assert.equal(patched.text, 'body');
  assert.equal(patched.indexedAt, later);
  assert.deepEqual(doc.metadata, { a: 1, b: 'x' }, 'the original is untouched');
  assert.equal(applyPatch(doc, { title: null }, later).title, null);
  const file = { ...doc, format: 'pdf', bytes: 9999, pages: [{ number: 1, label: 'i', offset: 0 }] };
  assert.equal(applyPatch(file, { title: 'new' }, later).bytes, 9999, 'a file keeps its size');
});
