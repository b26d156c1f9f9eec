// Unit tests of the API key store on real files: create/list/lookup, the round trip across a
// reopen, the plaintext never reaching the data directory, durable deletes, damaged files
// refused, last_used_at written only by flush, expiry on a fake clock, and input validation.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CorruptFileError } from '../../storage/index.ts';
import { FolioError } from '../errors/folio-error.ts';
import { KEYS_FILE, KeyStore } from './key-store.ts';
import type { KeyCreateInput } from './key-input.ts';
import { parseRfc3339 } from './key-input.ts';
import { newApiKeyValue, sha256Hex } from './secret-tokens.ts';

const root = mkdtempSync(join(tmpdir(), 'folio-keys-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirCount = 0;
const freshDir = () => join(root, `d${dirCount++}`);

/** A clock the test moves by hand. */
function fakeClock(start = '2030-01-01T00:00:00.000Z') {
  let ms = Date.parse(start);
  return { now: () => new Date(ms), advance: (by: number) => (ms += by) };
}

const basic: KeyCreateInput = { scopes: ['search'], collections: null, rateLimit: null, expiresAt: null };

/** Every byte of every file under `dir`, recursively. */
function allBytes(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) parts.push(readFileSync(join(entry.parentPath ?? entry.path, entry.name)));
  }
  return Buffer.concat(parts);
}

test('create returns the plaintext once and a public record without the hash', () => {
  const clock = fakeClock();
  const store = KeyStore.open(freshDir(), { now: clock.now });
  const { record, key } = store.create({ ...basic, name: 'ci', collections: ['docs', 'blog'] });
  assert.match(key, /^folio_[0-9A-Za-z]{40}$/);
  assert.match(record.id, /^key_[0-9A-Za-z]{16}$/);
  assert.equal(record.prefix, key.slice(0, 10));
  assert.deepEqual({ ...record }, {
    id: record.id,
    name: 'ci',
    prefix: record.prefix,
    scopes: ['search'],
    collections: ['docs', 'blog'],
    rate_limit: null,
    created_at: '2030-01-01T00:00:00.000Z',
    last_used_at: null,
    expires_at: null,
    filter: null,
  });
  const shown = JSON.stringify([record, store.list(), store.get(record.id)]);
  assert.ok(!shown.includes(key) && !shown.includes(key.slice(10)), 'plaintext not in records');
  assert.ok(!shown.includes(sha256Hex(key)), 'hash not in records');
  assert.ok(Object.isFrozen(record) && Object.isFrozen(record.scopes), 'records cannot be changed by callers');
  store.close();
});

test('defaults: name "key", scopes search + write, everything else unlimited', () => {
  const store = KeyStore.open(freshDir());
  const { record } = store.create({});
  assert.equal(record.name, 'key');
  assert.deepEqual(record.scopes, ['search', 'write']);
  assert.equal(record.collections, null);
  assert.equal(record.rate_limit, null);
  assert.equal(record.expires_at, null);
});

test('records and lookups survive a reopen; the file is 0600 and list is oldest first', () => {
  const dir = freshDir();
  const clock = fakeClock();
  const store = KeyStore.open(dir, { now: clock.now });
  const created = [];
  for (const name of ['first', 'second', 'third']) {
    created.push(store.create({ ...basic, name, scopes: ['admin'], rateLimit: { per_second: 5, burst: 10 } }));
    clock.advance(1_000);
  }
  store.close();
  assert.equal(statSync(join(dir, KEYS_FILE)).mode & 0o777, 0o600);

  const reopened = KeyStore.open(dir, { now: clock.now });
  assert.deepEqual(reopened.list().map((r) => r.name), ['first', 'second', 'third']);
  assert.deepEqual(reopened.list(), created.map((c) => c.record));
  for (const { record, key } of created) {
    const found = reopened.lookup(key);
    assert.ok(found);
    assert.deepEqual(found.record, record);
    assert.equal(found.expired, false);
  }
});

test('the plaintext key never appears in any file under the data directory', () => {
  const dir = freshDir();
  const clock = fakeClock();
  const store = KeyStore.open(dir, { now: clock.now });
  const keys: string[] = [];
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const { record, key } = store.create({ ...basic, name: `k${i}` });
    keys.push(key);
    ids.push(record.id);
    store.touch(record.id);
  }
  store.delete(ids[0]);
  store.flush();
  store.close();
  const bytes = allBytes(dir);
  assert.ok(bytes.length > 0);
  for (const key of keys) {
    assert.equal(bytes.indexOf(key), -1, 'whole key on disk');
    assert.equal(bytes.indexOf(key.slice(10)), -1, 'secret part on disk');
  }
  // What is stored is the hash of each live key.
  const text = bytes.toString('utf8');
  for (const key of keys.slice(1)) assert.ok(text.includes(sha256Hex(key)));
});

test('delete revokes at once and durably; unknown ids answer false', () => {
  const dir = freshDir();
  const store = KeyStore.open(dir);
  const kept = store.create({ ...basic, name: 'kept' });
  const gone = store.create({ ...basic, name: 'gone' });
  assert.equal(store.delete(gone.record.id), true);
  assert.equal(store.lookup(gone.key), null);
  assert.equal(store.get(gone.record.id), null);
  assert.equal(store.delete(gone.record.id), false);
  assert.equal(store.delete('key_doesnotexist0000'), false);
  // No close or flush: the delete alone is on disk (as after kill -9).
  const reopened = KeyStore.open(dir);
  assert.equal(reopened.lookup(gone.key), null);
  assert.deepEqual(reopened.list().map((r) => r.id), [kept.record.id]);
  assert.ok(reopened.lookup(kept.key));
});

test('lookup rejects malformed and unknown tokens', () => {
  const store = KeyStore.open(freshDir());
  const { key } = store.create(basic);
  assert.ok(store.lookup(key));
  for (const token of [
    '',
    key.slice(0, -1),
    `${key}x`,
    `FOLIO_${key.slice(6)}`,
    newApiKeyValue(),
    sha256Hex(key),
    `folio_sess_${key.slice(6)}`,
  ]) {
    assert.equal(store.lookup(token), null, token);
  }
  assert.equal(store.lookup(undefined as unknown as string), null);
});

test('a missing file is an empty store; a damaged file is refused naming it and left alone', () => {
  assert.equal(KeyStore.open(join(freshDir(), 'not', 'yet')).size, 0);

  const damaged = (contents: string) => {
    const dir = freshDir();
    const store = KeyStore.open(dir);
    store.create(basic);
    store.close();
    const file = join(dir, KEYS_FILE);
    const good = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, contents.replace('$GOOD', JSON.stringify(good.keys[0])).replace('$BADFILTER', JSON.stringify({ ...good.keys[0], filter: { $and: [] } })));
    return file;
  };
  // A file of version 1 (before filters) is read: its keys have no filter.
  const old = damaged('{"version":1,"keys":[$GOOD]}');
  const oldText = readFileSync(old, 'utf8').replace(',"filter":null', '');
  writeFileSync(old, oldText);
  assert.ok(!oldText.includes('filter'));
  const reopened = KeyStore.open(join(old, '..'));
  assert.equal(reopened.list()[0].filter, null);
  reopened.close();
  const problems = [
    '{"version":1,"keys":[$GOOD',
    '',
    '[]',
    '{"version":3,"keys":[]}',
    '{"version":2,"keys":[$BADFILTER]}',
    '{"version":1}',
    '{"version":1,"keys":[1]}',
    '{"version":1,"keys":[$GOOD,$GOOD]}',
    '{"version":1,"keys":[{"id":"key_0123456789abcdef","name":"x"}]}',
  ];
  for (const contents of problems) {
    const file = damaged(contents);
    const before = readFileSync(file, 'utf8');
    assert.throws(
      () => KeyStore.open(join(file, '..')),
      (error: unknown) => error instanceof CorruptFileError && error.message.includes(file),
      contents,
    );
    assert.equal(readFileSync(file, 'utf8'), before, 'the damaged file is not overwritten');
  }
});

test('last_used_at changes in memory on touch and reaches the disk only through flush', () => {
  const dir = freshDir();
  const clock = fakeClock();
  const store = KeyStore.open(dir, { now: clock.now });
  const { record } = store.create(basic);
  const fileBefore = readFileSync(join(dir, KEYS_FILE), 'utf8');
  clock.advance(60_000);
  store.touch(record.id);
  store.touch('key_unknown000000000');
  assert.equal(store.get(record.id)?.last_used_at, '2030-01-01T00:01:00.000Z');
  assert.equal(store.dirty, true);
  assert.equal(readFileSync(join(dir, KEYS_FILE), 'utf8'), fileBefore, 'touch writes nothing');
  assert.equal(KeyStore.open(dir).get(record.id)?.last_used_at, null, 'not yet on disk');

  assert.equal(store.flush(), true);
  assert.equal(store.flush(), false, 'nothing pending');
  assert.equal(KeyStore.open(dir).get(record.id)?.last_used_at, '2030-01-01T00:01:00.000Z');

  clock.advance(60_000);
  store.touch(record.id);
  store.close();
  assert.equal(KeyStore.open(dir).get(record.id)?.last_used_at, '2030-01-01T00:02:00.000Z', 'close flushes');
  assert.equal(store.flush(), false);
  assert.throws(() => store.create(basic), /closed/);
});

test('a create or delete also writes pending last_used_at changes', () => {
  const dir = freshDir();
  const store = KeyStore.open(dir);
  const { record } = store.create(basic);
  store.touch(record.id);
  store.create(basic);
  assert.equal(store.dirty, false);
  assert.notEqual(KeyStore.open(dir).get(record.id)?.last_used_at, null);
});

test('expiry follows the clock; expired keys are still found but flagged', () => {
  const dir = freshDir();
  const clock = fakeClock();
  const store = KeyStore.open(dir, { now: clock.now });
  const { record, key } = store.create({ ...basic, expiresAt: '2030-01-01T02:00:00+01:00' });
  assert.equal(record.expires_at, '2030-01-01T01:00:00.000Z', 'normalised to UTC');
  assert.equal(store.lookup(key)?.expired, false);
  assert.equal(store.isExpired(record), false);
  clock.advance(60 * 60 * 1000 - 1);
  assert.equal(store.lookup(key)?.expired, false);
  clock.advance(1);
  assert.equal(store.lookup(key)?.expired, true);
  assert.equal(store.isExpired(record), true);
  assert.equal(store.isExpired(record, new Date('2029-12-31T00:00:00Z')), false);
  assert.equal(KeyStore.open(dir, { now: clock.now }).lookup(key)?.expired, true, 'after reopen too');
});

function validationPaths(input: unknown, now?: () => Date): string[] {
  const store = KeyStore.open(freshDir(), { now });
  try {
    store.create(input as KeyCreateInput);
  } catch (error) {
    assert.ok(error instanceof FolioError);
    assert.equal(error.code, 'validation_failed');
    assert.equal(store.size, 0, 'nothing created');
    return (error.errors ?? []).map((e) => e.path);
  }
  assert.fail(`accepted ${JSON.stringify(input)}`);
}

test('bad settings are refused with validation_failed and field paths', () => {
  const clock = fakeClock();
  assert.deepEqual(validationPaths({ ...basic, name: 'x'.repeat(101) }), ['/body/name']);
  assert.deepEqual(validationPaths({ ...basic, name: '' }), ['/body/name']);
  assert.deepEqual(validationPaths({ ...basic, name: 7 }), ['/body/name']);
  assert.deepEqual(validationPaths({ ...basic, scopes: [] }), ['/body/scopes']);
  assert.deepEqual(validationPaths({ ...basic, scopes: ['search', 'root'] }), ['/body/scopes/1']);
  assert.deepEqual(validationPaths({ ...basic, scopes: 'admin' }), ['/body/scopes']);
  assert.deepEqual(validationPaths({ ...basic, collections: [] }), ['/body/collections']);
  assert.deepEqual(validationPaths({ ...basic, collections: ['ok', 'Bad', '-x', 'a'.repeat(65), 3] }), [
    '/body/collections/1',
    '/body/collections/2',
    '/body/collections/3',
    '/body/collections/4',
  ]);
  assert.deepEqual(validationPaths({ ...basic, rateLimit: { per_second: 0, burst: 1.5 } }), [
    '/body/rate_limit/per_second',
    '/body/rate_limit/burst',
  ]);
  assert.deepEqual(validationPaths({ ...basic, rateLimit: { per_second: 5 } }), ['/body/rate_limit/burst']);
  assert.deepEqual(validationPaths({ ...basic, rateLimit: [] }), ['/body/rate_limit']);
  assert.deepEqual(validationPaths({ ...basic, expiresAt: 'tomorrow' }), ['/body/expires_at']);
  assert.deepEqual(validationPaths({ ...basic, expiresAt: '2031-02-30T00:00:00Z' }), ['/body/expires_at']);
  assert.deepEqual(validationPaths({ ...basic, expiresAt: '2029-12-31T23:59:59Z' }, clock.now), ['/body/expires_at']);
  assert.deepEqual(validationPaths({ ...basic, expiresAt: '2030-01-01T00:00:00Z' }, clock.now), ['/body/expires_at']);
  assert.deepEqual(validationPaths({ name: '', scopes: [], expiresAt: 5 }).length, 3, 'all problems at once');
});

test('good settings are normalised', () => {
  const store = KeyStore.open(freshDir(), { now: fakeClock().now });
  const { record } = store.create({
    name: 'x'.repeat(100),
    scopes: ['admin', 'search', 'admin'],
    collections: ['a', 'b_2', 'a', 'c-3'],
    rateLimit: { per_second: 1, burst: 1 },
    expiresAt: '2030-06-01t12:00:00.5z',
  });
  assert.deepEqual(record.scopes, ['search', 'admin']);
  assert.deepEqual(record.collections, ['a', 'b_2', 'c-3']);
  assert.deepEqual(record.rate_limit, { per_second: 1, burst: 1 });
  assert.equal(record.expires_at, '2030-06-01T12:00:00.500Z');
});

test('parseRfc3339 accepts RFC 3339 date-times only', () => {
  assert.equal(parseRfc3339('2030-01-01T00:00:00Z'), Date.UTC(2030, 0, 1));
  assert.equal(parseRfc3339('2030-01-01T00:00:00-02:30'), Date.UTC(2030, 0, 1, 2, 30));
  assert.equal(parseRfc3339('2028-02-29T00:00:00Z'), Date.UTC(2028, 1, 29));
  for (const bad of ['2030-01-01', '2030-01-01T00:00Z', '2030-13-01T00:00:00Z', '2029-02-29T00:00:00Z',
    '2030-01-01T24:00:00Z', '2030-01-01T00:00:00', '2030-01-01T00:00:00+24:00', ' 2030-01-01T00:00:00Z']) {
    assert.equal(parseRfc3339(bad), null, bad);
  }
});
