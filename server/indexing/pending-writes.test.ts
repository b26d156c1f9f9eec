// Tests for the pending-writes buffer: last write wins, the taken buffer stays readable during
// a refresh, a failed refresh puts changes back under newer ones, failed writes are undone,
// forEach sees what lookup sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IndexDocument } from '../../engine/document.ts';
import { BodyDocument, parseBatchBody } from '../ingest/index.ts';
import { PendingWrites } from './pending-writes.ts';
import type { PendingChange } from './pending-writes.ts';

const textOf = (change: PendingChange | undefined): string | undefined => (change as IndexDocument | null | undefined)?.text;

const doc = (id: string, text: string): IndexDocument => ({
  id,
  title: null,
  text,
  pages: null,
  metadata: {},
  format: 'text',
  bytes: 0,
  indexedAt: '2024-01-01T00:00:00.000Z',
});

test('the last write of an id wins; deletes are null', () => {
  const pending = new PendingWrites();
  pending.set('a', doc('a', 'one'), 1);
  pending.set('a', doc('a', 'two'), 2);
  pending.set('b', null, 3);
  assert.equal(textOf(pending.lookup('a')), 'two');
  assert.equal(pending.lookup('b'), null);
  assert.equal(pending.lookup('c'), undefined);
  assert.equal(pending.size, 2);
});

test('a taken buffer stays readable until committed', () => {
  const pending = new PendingWrites();
  pending.set('a', doc('a', 'taken'), 1);
  const taken = pending.take();
  assert.deepEqual([...taken.keys()], ['a']);
  assert.equal(pending.size, 0);
  assert.equal(textOf(pending.lookup('a')), 'taken');
  pending.set('a', doc('a', 'newer'), 2);
  assert.equal(textOf(pending.lookup('a')), 'newer');
  assert.throws(() => pending.take(), /already/);
  pending.commitTaken();
  assert.equal(textOf(pending.lookup('a')), 'newer');
});

test('a failed refresh restores changes under newer ones', () => {
  const pending = new PendingWrites();
  pending.set('a', doc('a', 'old-a'), 1);
  pending.set('b', doc('b', 'old-b'), 2);
  pending.take();
  pending.set('a', null, 3);
  pending.restoreTaken();
  assert.equal(pending.lookup('a'), null, 'the newer delete wins');
  assert.equal(textOf(pending.lookup('b')), 'old-b');
  assert.equal(pending.size, 2);
});

test('undo restores the previous change only if nothing replaced it', () => {
  const pending = new PendingWrites();
  pending.set('a', doc('a', 'first'), 1);
  const second = pending.set('a', doc('a', 'second'), 2);
  assert.ok(pending.undo(second));
  assert.equal(textOf(pending.lookup('a')), 'first');

  const third = pending.set('a', doc('a', 'third'), 3);
  pending.set('a', doc('a', 'fourth'), 4);
  assert.ok(!pending.undo(third), 'a later write replaced it');
  assert.equal(textOf(pending.lookup('a')), 'fourth');

  const fresh = pending.set('z', doc('z', 'new'), 5);
  assert.ok(pending.undo(fresh));
  assert.equal(pending.lookup('z'), undefined);
});

test('forEach visits every pending id once, with the change lookup gives', () => {
  const pending = new PendingWrites();
  pending.set('a', doc('a', 'taken-a'), 1);
  pending.set('b', doc('b', 'taken-b'), 2);
  pending.take();
  pending.set('a', null, 3);
  pending.set('c', doc('c', 'new-c'), 4);
  const seen: [string, string | null][] = [];
  pending.forEach((id, change) => seen.push([id, textOf(change) ?? null]));
  assert.deepEqual(seen.sort(), [['a', null], ['b', 'taken-b'], ['c', 'new-c']]);
  for (const [id] of seen) assert.equal(textOf(pending.lookup(id)) ?? null, seen.find(([s]) => s === id)![1]);
});

test('a batch body counts its whole length while any of its documents is pending', () => {
  const pending = new PendingWrites();
  const body = parseBatchBody(Buffer.from('{"id":"a","text":"one"}\n{"id":"b","text":"two"}'), 'ndjson');
  pending.set('a', new BodyDocument(body, 0, 'now'), 1);
  const b = pending.set('b', new BodyDocument(body, 1, 'now'), 2);
  assert.equal(pending.bytes, body.bytes.length, 'counted once, not per document');
  pending.set('a', doc('a', 'replaced'), 3);
  assert.equal(pending.bytes, body.bytes.length + doc('a', 'replaced').bytes, 'b still holds the body');
  assert.ok(pending.undo(b));
  assert.equal(pending.bytes, doc('a', 'replaced').bytes, 'no document of the body is left');
  pending.set('b', new BodyDocument(body, 1, 'now'), 4);
  pending.take();
  assert.equal(pending.bytes, 0);
  pending.restoreTaken();
  assert.equal(pending.bytes, body.bytes.length + doc('a', 'replaced').bytes);
});
