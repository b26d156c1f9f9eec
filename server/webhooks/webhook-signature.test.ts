// Unit tests of webhook signatures: the published Standard Webhooks test vector reproduced
// exactly (the proof that receivers' libraries accept ours), secret format, rotation lists, and
// that any change to the id, timestamp, body, secret or signature fails verification.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newWebhookSecret, signWebhook, verifyWebhookSignature } from './webhook-signature.ts';

// The example from the Standard Webhooks specification and its reference libraries.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  messageId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

test('the Standard Webhooks test vector is reproduced exactly', () => {
  assert.equal(signWebhook(VECTOR.secret, VECTOR.messageId, VECTOR.timestamp, VECTOR.body), VECTOR.signature);
  assert.equal(verifyWebhookSignature(VECTOR.secret, VECTOR.messageId, VECTOR.timestamp, VECTOR.body, VECTOR.signature), true);
});

test('the whsec_ prefix is optional, as in the reference libraries', () => {
  const bare = VECTOR.secret.slice('whsec_'.length);
  assert.equal(signWebhook(bare, VECTOR.messageId, VECTOR.timestamp, VECTOR.body), VECTOR.signature);
});

test('new secrets are whsec_ + base64 of 32 bytes, all different', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    seen.add(secret);
  }
  assert.equal(seen.size, 50);
});

test('a fresh secret signs and verifies, including non-ASCII bodies', () => {
  const secret = newWebhookSecret();
  const body = JSON.stringify({ id: 'evt_1', type: 'document.indexed', data: { title: 'Ünïcødé ✓ 𝄞' } });
  const header = signWebhook(secret, 'evt_1', 1_700_000_000, body);
  assert.match(header, /^v1,[A-Za-z0-9+/]{43}=$/);
  assert.equal(verifyWebhookSignature(secret, 'evt_1', 1_700_000_000, body, header), true);
});

test('any tampering fails verification', () => {
  const { secret, messageId, timestamp, body, signature } = VECTOR;
  const verify = (s: string, id: string, ts: number, b: string, header: string) => verifyWebhookSignature(s, id, ts, b, header);
  assert.equal(verify(secret, messageId, timestamp, '{"test": 2432232315}', signature), false, 'body');
  assert.equal(verify(secret, messageId, timestamp, `${body} `, signature), false, 'trailing space');
  assert.equal(verify(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJeK', timestamp, body, signature), false, 'id');
  assert.equal(verify(secret, messageId, timestamp + 1, body, signature), false, 'timestamp');
  assert.equal(verify(newWebhookSecret(), messageId, timestamp, body, signature), false, 'secret');
  const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
  assert.equal(verify(secret, messageId, timestamp, body, flipped), false, 'one character');
  assert.equal(verify(secret, messageId, timestamp, body, signature.slice(0, -1)), false, 'truncated');
  assert.equal(verify(secret, messageId, timestamp, body, signature.replace('v1,', 'v2,')), false, 'version');
  assert.equal(verify(secret, messageId, timestamp, body, signature.slice(3)), false, 'no version');
  assert.equal(verify(secret, messageId, timestamp, body, ''), false, 'empty');
});

test('a space-separated list matches if any v1 entry does', () => {
  const { secret, messageId, timestamp, body, signature } = VECTOR;
  const other = signWebhook(newWebhookSecret(), messageId, timestamp, body);
  assert.equal(verifyWebhookSignature(secret, messageId, timestamp, body, `${other} ${signature}`), true);
  assert.equal(verifyWebhookSignature(secret, messageId, timestamp, body, `v1a,abc ${signature} v2,xyz`), true);
  assert.equal(verifyWebhookSignature(secret, messageId, timestamp, body, `${other} v1,bm9wZQ==`), false);
});

test('malformed secrets and timestamps are refused by signing and never match', () => {
  assert.throws(() => signWebhook('whsec_', 'm', 1, '{}'), RangeError);
  assert.throws(() => signWebhook('whsec_not base64!', 'm', 1, '{}'), RangeError);
  assert.throws(() => signWebhook(VECTOR.secret, 'm', 1.5, '{}'), RangeError);
  assert.throws(() => signWebhook(VECTOR.secret, 'm', -1, '{}'), RangeError);
  assert.equal(verifyWebhookSignature('whsec_!!', VECTOR.messageId, VECTOR.timestamp, VECTOR.body, VECTOR.signature), false);
  assert.equal(verifyWebhookSignature(VECTOR.secret, VECTOR.messageId, Number.NaN, VECTOR.body, VECTOR.signature), false);
});
