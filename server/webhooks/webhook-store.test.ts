// Unit tests of the webhook registry on real files: create/list/get/delete across a reopen,
// the file and its mode, secrets kept for signing but never in a view, the failure count that
// disables a webhook (and a success that resets it), disable persisted, damaged files refused.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CorruptFileError } from '../../storage/index.ts';
import { newWebhookSecret } from './webhook-signature.ts';
import { MAX_CONSECUTIVE_FAILURES, WEBHOOKS_FILE, WebhookStore, webhookView } from './webhook-store.ts';
import type { WebhookRecord } from './webhook-places.ts';

const root = mkdtempSync(join(tmpdir(), 'folio-webhooks-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirCount = 0;
const freshDir = () => join(root, `d${dirCount++}`);

/** A clock the test moves by hand. */
function fakeClock(start = '2030-01-01T00:00:00.000Z') {
  let ms = Date.parse(start);
  return { now: () => new Date(ms), advance: (by: number) => (ms += by) };
}

const input = (url = 'https://example.com/hook') => ({
  url,
  events: ['document.indexed', 'document.deleted'] as ('document.indexed' | 'document.deleted')[],
  description: 'a hook' as string | null,
  secret: newWebhookSecret(),
});

const fileOf = (dir: string) => join(dir, WEBHOOKS_FILE);
const readStored = (dir: string) => JSON.parse(readFileSync(fileOf(dir), 'utf8')) as { version: number; webhooks: Record<string, unknown>[] };

/** What a reopened store is expected to hold for a record: everything but the in-memory count. */
const persisted = (record: WebhookRecord) => ({ ...webhookView(record), secret: record.secret, consecutiveFailures: 0 });

test('a store with no file is empty and writes nothing until a change', () => {
  const dir = freshDir();
  const store = WebhookStore.open(dir);
  assert.deepEqual(store.list(), []);
  assert.equal(store.size, 0);
  assert.equal(store.get('wh_0000000000000000'), null);
  assert.throws(() => statSync(fileOf(dir)), { code: 'ENOENT' });
});

test('create returns a full record and saves it to <dir>/webhooks.json with mode 0600', () => {
  const dir = freshDir();
  const clock = fakeClock();
  const store = WebhookStore.open(dir, { now: clock.now });
  const given = input();
  const record = store.create({ ...given, events: ['document.indexed', 'document.indexed', '*'] });
  assert.match(record.id, /^wh_[0-9A-Za-z]{16}$/);
  assert.deepEqual({ ...record }, {
    id: record.id,
    url: 'https://example.com/hook',
    events: ['document.indexed', '*'], // duplicates dropped, order kept
    description: 'a hook',
    created_at: '2030-01-01T00:00:00.000Z',
    disabled: false,
    disabled_reason: null,
    secret: given.secret,
    consecutiveFailures: 0,
  });
  assert.equal(statSync(fileOf(dir)).mode & 0o777, 0o600);
  const stored = readStored(dir);
  assert.equal(stored.version, 1);
  assert.deepEqual(stored.webhooks, [{ ...webhookView(record), secret: given.secret }]);
  assert.ok(!('consecutiveFailures' in stored.webhooks[0]!), 'the failure count is not saved');
});

test('create, list, get and delete persist across a reopen', () => {
  const dir = freshDir();
  const clock = fakeClock();
  const store = WebhookStore.open(dir, { now: clock.now });
  const a = store.create(input('https://a.example/hook'));
  clock.advance(1000);
  const b = store.create({ ...input('https://b.example/hook'), description: null, events: ['*'] });
  clock.advance(1000);
  const c = store.create(input('https://c.example/hook'));
  assert.deepEqual(store.list().map((w) => w.id), [a.id, b.id, c.id], 'oldest first');
  assert.equal(store.size, 3);

  const reopened = WebhookStore.open(dir);
  assert.deepEqual(reopened.list().map((w) => ({ ...w })), [a, b, c].map(persisted));
  assert.deepEqual({ ...reopened.get(b.id)! }, persisted(b));
  assert.equal(reopened.get(b.id)!.description, null);
  assert.equal(reopened.get(b.id)!.secret, b.secret, 'the secret is kept as it is, to sign with');

  assert.equal(reopened.delete(b.id), true);
  assert.equal(reopened.delete(b.id), false, 'already gone');
  assert.equal(reopened.delete('wh_0000000000000000'), false);
  assert.equal(reopened.get(b.id), null);
  assert.equal(reopened.size, 2);

  const again = WebhookStore.open(dir);
  assert.deepEqual(again.list().map((w) => w.id), [a.id, c.id]);
  assert.equal(again.get(b.id), null);
  assert.equal(statSync(fileOf(dir)).mode & 0o777, 0o600, 'still 0600 after a replace');
  assert.ok(!readFileSync(fileOf(dir), 'utf8').includes(b.secret), "a deleted webhook's secret leaves the file");
});

test('list orders by created_at, then id', () => {
  const dir = freshDir();
  const clock = fakeClock();
  const store = WebhookStore.open(dir, { now: clock.now });
  clock.advance(5000);
  const late = store.create(input());
  clock.advance(-4000);
  const sameTime = [store.create(input()), store.create(input()), store.create(input())];
  const expected = [...sameTime.map((w) => w.id).sort((x, y) => x.localeCompare(y)), late.id];
  assert.deepEqual(store.list().map((w) => w.id), expected);
  assert.deepEqual(WebhookStore.open(dir).list().map((w) => w.id), expected);
});

test('webhookView never includes the secret (or the failure count), and copies the events', () => {
  const store = WebhookStore.open(freshDir());
  const record = store.create(input());
  const view = webhookView(record);
  assert.deepEqual(Object.keys(view).sort(), ['created_at', 'description', 'disabled', 'disabled_reason', 'events', 'id', 'url']);
  assert.ok(!JSON.stringify(view).includes(record.secret));
  assert.ok(!('secret' in view));
  assert.ok(!('consecutiveFailures' in view));
  view.events.push('key.created');
  assert.deepEqual(record.events, ['document.indexed', 'document.deleted'], 'the view does not share the array');
});

test(`${MAX_CONSECUTIVE_FAILURES - 1} failures keep a webhook enabled; the ${MAX_CONSECUTIVE_FAILURES}th disables it, saved`, () => {
  assert.equal(MAX_CONSECUTIVE_FAILURES, 20);
  const dir = freshDir();
  const store = WebhookStore.open(dir);
  const record = store.create(input());
  const other = store.create(input());
  for (let i = 1; i < MAX_CONSECUTIVE_FAILURES; i++) {
    assert.equal(store.recordFailure(record.id), false, `failure ${i}`);
  }
  assert.equal(store.get(record.id)!.disabled, false);
  assert.equal(store.get(record.id)!.consecutiveFailures, MAX_CONSECUTIVE_FAILURES - 1);
  assert.equal(WebhookStore.open(dir).get(record.id)!.disabled, false);

  assert.equal(store.recordFailure(record.id), true, 'this failure disabled it');
  assert.equal(store.get(record.id)!.disabled, true);
  assert.equal(store.get(record.id)!.disabled_reason, 'failures');
  assert.equal(store.recordFailure(record.id), false, 'already disabled: nothing more to do');
  assert.equal(store.get(other.id)!.disabled, false, 'other webhooks are not affected');

  const reopened = WebhookStore.open(dir);
  assert.equal(reopened.get(record.id)!.disabled, true);
  assert.equal(reopened.get(record.id)!.disabled_reason, 'failures');
  assert.deepEqual(webhookView(reopened.get(record.id)!), { ...webhookView(record), disabled: true, disabled_reason: 'failures' });
  assert.equal(reopened.get(other.id)!.disabled, false);
});

test('a success resets the failure count: 19 failures, a success, 19 failures leave it enabled', () => {
  const dir = freshDir();
  const store = WebhookStore.open(dir);
  const record = store.create(input());
  for (let i = 1; i < MAX_CONSECUTIVE_FAILURES; i++) assert.equal(store.recordFailure(record.id), false);
  store.recordSuccess(record.id);
  assert.equal(store.get(record.id)!.consecutiveFailures, 0);
  for (let i = 1; i < MAX_CONSECUTIVE_FAILURES; i++) assert.equal(store.recordFailure(record.id), false);
  assert.equal(store.get(record.id)!.disabled, false);
  assert.equal(WebhookStore.open(dir).get(record.id)!.disabled, false);
  assert.equal(store.recordFailure(record.id), true, 'the 20th in a row since the success disables it');
});

test('recordFailure and recordSuccess of an unknown id do nothing', () => {
  const store = WebhookStore.open(freshDir());
  assert.equal(store.recordFailure('wh_0000000000000000'), false);
  store.recordSuccess('wh_0000000000000000');
  assert.equal(store.size, 0);
});

test("disable(id, 'gone') persists; disabling again keeps the first reason", () => {
  const dir = freshDir();
  const store = WebhookStore.open(dir);
  const record = store.create(input());
  const other = store.create(input());
  store.disable(record.id, 'gone');
  assert.equal(store.get(record.id)!.disabled, true);
  assert.equal(store.get(record.id)!.disabled_reason, 'gone');
  store.disable(record.id, 'failures');
  assert.equal(store.get(record.id)!.disabled_reason, 'gone');
  store.disable('wh_0000000000000000', 'gone'); // unknown: nothing happens

  const reopened = WebhookStore.open(dir);
  assert.equal(reopened.get(record.id)!.disabled, true);
  assert.equal(reopened.get(record.id)!.disabled_reason, 'gone');
  assert.equal(reopened.get(record.id)!.secret, record.secret);
  assert.equal(reopened.get(other.id)!.disabled, false);
  assert.equal(reopened.get(other.id)!.disabled_reason, null);
  assert.equal(reopened.size, 2, 'a disabled webhook stays listed');
});

test('a damaged webhooks file makes open throw CorruptFileError', () => {
  const good = freshDir();
  const store = WebhookStore.open(good);
  store.create(input());
  const valid = readStored(good);

  const cases: [string, string][] = [
    ['invalid JSON', '{"version":1,"webhooks":['],
    ['empty file', ''],
    ['null', 'null'],
    ['an array', '[]'],
    ['wrong version', JSON.stringify({ ...valid, version: 2 })],
    ['no version', JSON.stringify({ webhooks: valid.webhooks })],
    ['webhooks not an array', JSON.stringify({ version: 1, webhooks: {} })],
    ['a bad id', JSON.stringify({ version: 1, webhooks: [{ ...valid.webhooks[0], id: 'nope' }] })],
    ['an unknown event', JSON.stringify({ version: 1, webhooks: [{ ...valid.webhooks[0], events: ['document.exploded'] }] })],
    ['no secret', JSON.stringify({ version: 1, webhooks: [{ ...valid.webhooks[0], secret: undefined }] })],
    ['a secret without whsec_', JSON.stringify({ version: 1, webhooks: [{ ...valid.webhooks[0], secret: 'plain' }] })],
    ['disabled not a boolean', JSON.stringify({ version: 1, webhooks: [{ ...valid.webhooks[0], disabled: 'no' }] })],
  ];
  for (const [name, text] of cases) {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(fileOf(dir), text);
    assert.throws(() => WebhookStore.open(dir), (error: unknown) => {
      assert.ok(error instanceof CorruptFileError, `${name}: ${String(error)}`);
      assert.equal(error.path, fileOf(dir));
      return true;
    }, name);
  }

  // The untouched copy opens fine.
  const dir = freshDir();
  mkdirSync(dir);
  writeFileSync(fileOf(dir), JSON.stringify(valid));
  assert.equal(WebhookStore.open(dir).size, 1);
});
