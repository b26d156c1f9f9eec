// Unit tests of the session store on real files: tokens, lookup, logout, persistence across a
// reopen, the token never on disk, expiry and pruning on a fake clock, the bound on live
// sessions, and a damaged file refused.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CorruptFileError } from '../../storage/index.ts';
import { MAX_SESSIONS, SESSION_TTL_MS, SESSIONS_FILE, SessionStore } from './session-store.ts';
import { newApiKeyValue, sha256Hex } from './secret-tokens.ts';

const root = mkdtempSync(join(tmpdir(), 'folio-sessions-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirCount = 0;
const freshDir = () => join(root, `d${dirCount++}`);

function fakeClock(start = '2030-01-01T00:00:00.000Z') {
  let ms = Date.parse(start);
  return { now: () => new Date(ms), advance: (by: number) => (ms += by) };
}

test('a session token is folio_sess_ + 40 base62 and lasts 12 hours', () => {
  const clock = fakeClock();
  const store = SessionStore.open(freshDir(), { now: clock.now });
  const { token, expiresAt } = store.create();
  assert.match(token, /^folio_sess_[0-9A-Za-z]{40}$/);
  assert.equal(SESSION_TTL_MS, 12 * 60 * 60 * 1000);
  assert.equal(expiresAt, '2030-01-01T12:00:00.000Z');
  assert.deepEqual(store.lookup(token), { createdAt: '2030-01-01T00:00:00.000Z', expiresAt });
  assert.equal(store.lookup(newApiKeyValue()), null);
  assert.equal(store.lookup(token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')), null);
  assert.equal(store.lookup(token.slice(0, -1)), null);
});

test('sessions survive a reopen; the token never reaches the disk; the file is 0600', () => {
  const dir = freshDir();
  const store = SessionStore.open(dir);
  const tokens = Array.from({ length: 10 }, () => store.create().token);
  store.delete(tokens[0]);
  // No close: every create and delete is already durable.
  const reopened = SessionStore.open(dir);
  assert.equal(reopened.lookup(tokens[0]), null);
  for (const token of tokens.slice(1)) assert.ok(reopened.lookup(token));
  assert.equal(statSync(join(dir, SESSIONS_FILE)).mode & 0o777, 0o600);
  const bytes = Buffer.concat(
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(dir, entry.name))),
  );
  for (const token of tokens) {
    assert.equal(bytes.indexOf(token), -1);
    assert.equal(bytes.indexOf(token.slice('folio_sess_'.length)), -1);
  }
});

test('delete logs out at once and durably; unknown tokens answer false', () => {
  const dir = freshDir();
  const store = SessionStore.open(dir);
  const { token } = store.create();
  assert.equal(store.delete(token), true);
  assert.equal(store.lookup(token), null);
  assert.equal(store.delete(token), false);
  assert.equal(store.delete('nonsense'), false);
  assert.equal(SessionStore.open(dir).lookup(token), null);
});

test('expired sessions are refused and pruned, in memory and on reopen', () => {
  const dir = freshDir();
  const clock = fakeClock();
  const store = SessionStore.open(dir, { now: clock.now });
  const early = store.create().token;
  clock.advance(60 * 60 * 1000);
  const later = store.create().token;
  clock.advance(SESSION_TTL_MS - 60 * 60 * 1000 - 1);
  assert.ok(store.lookup(early), 'one millisecond before expiry');
  clock.advance(1);
  assert.equal(store.lookup(early), null, 'at expiry');
  assert.equal(store.size, 1, 'pruned on lookup');
  assert.ok(store.lookup(later));

  const reopened = SessionStore.open(dir, { now: clock.now });
  assert.equal(reopened.size, 1, 'expired sessions are dropped on load');
  clock.advance(60 * 60 * 1000);
  assert.equal(reopened.lookup(later), null);
  assert.equal(store.pruneExpired(), 1);
  assert.equal(store.size, 0);
  store.create();
  const file = JSON.parse(readFileSync(join(dir, SESSIONS_FILE), 'utf8'));
  assert.equal(file.sessions.length, 1, 'a write forgets expired sessions');
});

test('at most maxSessions live at once: creating more evicts the oldest', () => {
  const dir = freshDir();
  const clock = fakeClock();
  const store = SessionStore.open(dir, { now: clock.now, maxSessions: 5 });
  const tokens: string[] = [];
  for (let i = 0; i < 8; i++) {
    tokens.push(store.create().token);
    clock.advance(1_000);
  }
  assert.equal(store.size, 5);
  for (const token of tokens.slice(0, 3)) assert.equal(store.lookup(token), null);
  for (const token of tokens.slice(3)) assert.ok(store.lookup(token));
  const reopened = SessionStore.open(dir, { now: clock.now, maxSessions: 5 });
  for (const token of tokens.slice(3)) assert.ok(reopened.lookup(token));
  // The oldest first, also after a reopen.
  reopened.create();
  assert.equal(reopened.lookup(tokens[3]), null);
  assert.ok(reopened.lookup(tokens[4]));
  // A smaller bound on open keeps the newest.
  const smaller = SessionStore.open(dir, { now: clock.now, maxSessions: 2 });
  assert.equal(smaller.size, 2);
  assert.ok(smaller.lookup(tokens[7]));
});

test('the default bound is 1,000 live sessions', () => {
  assert.equal(MAX_SESSIONS, 1_000);
  // Seed the file directly (one write instead of a thousand fsyncs): 1,005 live sessions.
  const dir = freshDir();
  const clock = fakeClock();
  const hashes = Array.from({ length: 1_005 }, (_, i) => sha256Hex(`seed-${i}`));
  const sessions = hashes.map((hash, i) => ({
    hash,
    created_at: new Date(clock.now().getTime() + i).toISOString(),
    expires_at: new Date(clock.now().getTime() + i + SESSION_TTL_MS).toISOString(),
  }));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, SESSIONS_FILE), JSON.stringify({ version: 1, sessions }));
  const store = SessionStore.open(dir, { now: clock.now });
  assert.equal(store.size, 1_000, 'the oldest five are dropped on load');
  const { token } = store.create();
  assert.equal(store.size, 1_000);
  assert.ok(store.lookup(token));
  const kept = JSON.parse(readFileSync(join(dir, SESSIONS_FILE), 'utf8')).sessions.map((s: { hash: string }) => s.hash);
  assert.equal(kept.length, 1_000);
  assert.ok(!kept.includes(hashes[5]), 'creating one more evicted the oldest');
  assert.ok(kept.includes(hashes[6]));
});

test('a missing file is no sessions; a damaged file is refused naming it', () => {
  assert.equal(SessionStore.open(join(freshDir(), 'new')).size, 0);
  for (const contents of ['{', '[]', '{"version":1,"sessions":[{"hash":"zz"}]}', '{"version":9,"sessions":[]}']) {
    const dir = freshDir();
    SessionStore.open(dir).create();
    const file = join(dir, SESSIONS_FILE);
    writeFileSync(file, contents);
    assert.throws(
      () => SessionStore.open(dir),
      (error: unknown) => error instanceof CorruptFileError && error.message.includes(file),
      contents,
    );
  }
});

test('a closed store refuses new sessions', () => {
  const store = SessionStore.open(freshDir());
  store.close();
  assert.throws(() => store.create(), /closed/);
});
