// Tests for the keyed token-bucket limiter with a fake clock: the burst then refusal, continuous
// (fractional) refill, exact RateLimit-Reset and Retry-After values, per-key overrides, refused
// requests taking nothing, the memory bound (full buckets evicted first, else the least
// recently used), peek and forget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenBucketLimiter } from './token-bucket-limiter.ts';
import type { RateDecision } from './token-bucket-limiter.ts';

/** A clock the test moves by hand, in milliseconds. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms), set: (ms: number) => void (now = ms) };
}

function takeMany(limiter: TokenBucketLimiter, key: string, count: number): RateDecision[] {
  return Array.from({ length: count }, () => limiter.take(key));
}

test('a fresh key has the whole burst, then is refused', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 100, burst: 200, now: clock.now });
  const first = limiter.take('k');
  assert.deepEqual(first, { allowed: true, limit: 200, remaining: 199, resetSeconds: 1, retryAfterSeconds: 1 });
  const decisions = takeMany(limiter, 'k', 199);
  assert.ok(decisions.every((decision) => decision.allowed));
  assert.deepEqual(
    decisions.slice(-2).map((decision) => decision.remaining),
    [1, 0],
  );
  const last = decisions.at(-1)!;
  assert.equal(last.resetSeconds, 2, '200 tokens at 100/s take 2 s to come back');
  const refused = limiter.take('k');
  assert.deepEqual(refused, { allowed: false, limit: 200, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 });
});

test('tokens come back continuously, fractions included', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 2, burst: 4, now: clock.now });
  takeMany(limiter, 'k', 4);
  assert.equal(limiter.take('k').allowed, false);
  clock.advance(250); // half a token
  assert.equal(limiter.take('k').allowed, false);
  clock.advance(249); // 0.998 tokens
  assert.equal(limiter.take('k').allowed, false);
  clock.advance(1); // exactly one token
  const after = limiter.take('k');
  assert.equal(after.allowed, true);
  assert.equal(after.remaining, 0);
  assert.equal(limiter.take('k').allowed, false);
  // 1.75 s: 3.5 tokens earned; three whole ones may be taken, the half stays.
  clock.advance(1_750);
  assert.deepEqual(
    takeMany(limiter, 'k', 4).map((decision) => [decision.allowed, decision.remaining]),
    [
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ],
  );
  clock.advance(250); // 0.5 + 0.5 = one token
  assert.equal(limiter.take('k').allowed, true);
});

test('the bucket never holds more than its burst', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 10, burst: 5, now: clock.now });
  limiter.take('k');
  clock.advance(3_600_000);
  const decisions = takeMany(limiter, 'k', 6);
  assert.deepEqual(
    decisions.map((decision) => decision.allowed),
    [true, true, true, true, true, false],
  );
  assert.equal(decisions[0]!.remaining, 4);
});

test('Retry-After and RateLimit-Reset are exact whole seconds, rounded up', () => {
  const clock = fakeClock();
  // One token every 3 s (20 a minute): floating point gives 1 / (20/60) = 3.0000000000000004.
  const limiter = new TokenBucketLimiter({ perSecond: 20 / 60, burst: 20, now: clock.now });
  const decisions = takeMany(limiter, 'k', 20);
  assert.equal(decisions[0]!.resetSeconds, 3);
  assert.equal(decisions[1]!.resetSeconds, 6);
  assert.equal(decisions[19]!.resetSeconds, 60);
  assert.equal(decisions[19]!.remaining, 0);
  let refused = limiter.take('k');
  assert.deepEqual(refused, { allowed: false, limit: 20, remaining: 0, resetSeconds: 60, retryAfterSeconds: 3 });
  clock.advance(1_000);
  refused = limiter.take('k');
  assert.equal(refused.retryAfterSeconds, 2);
  assert.equal(refused.resetSeconds, 59);
  clock.advance(1_500); // 2.5 s: half a second to go
  refused = limiter.take('k');
  assert.equal(refused.retryAfterSeconds, 1);
  assert.equal(refused.resetSeconds, 58, '57.5 s rounds up');
  clock.advance(499); // 1 ms to go: still refused, and Retry-After is never 0
  refused = limiter.take('k');
  assert.equal(refused.allowed, false);
  assert.equal(refused.retryAfterSeconds, 1);
  clock.advance(1);
  assert.equal(limiter.take('k').allowed, true);
});

test('a full bucket reports Reset 0; one token short reports the time for that token', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 0.5, burst: 3, now: clock.now });
  assert.deepEqual(limiter.peek('k'), { allowed: true, limit: 3, remaining: 3, resetSeconds: 0, retryAfterSeconds: 1 });
  assert.equal(limiter.take('k').resetSeconds, 2);
  clock.advance(2_000);
  assert.equal(limiter.peek('k').resetSeconds, 0);
  assert.equal(limiter.peek('k').remaining, 3);
});

test('a refused request takes nothing', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 1, now: clock.now });
  assert.equal(limiter.take('k').allowed, true);
  // Hammering while empty must not push the next token further away.
  for (let i = 0; i < 9; i++) {
    clock.advance(100);
    assert.equal(limiter.take('k').allowed, false);
  }
  clock.advance(100); // 1 s after the last allowed request
  assert.equal(limiter.take('k').allowed, true);
});

test('keys have separate buckets', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 2, now: clock.now });
  takeMany(limiter, 'a', 2);
  assert.equal(limiter.take('a').allowed, false);
  assert.deepEqual(limiter.take('b'), { allowed: true, limit: 2, remaining: 1, resetSeconds: 1, retryAfterSeconds: 1 });
});

test("a key's own limit replaces the defaults for that key", () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 100, burst: 200, now: clock.now });
  const own = { perSecond: 1, burst: 3 };
  const decisions = Array.from({ length: 4 }, () => limiter.take('slow', own));
  assert.deepEqual(
    decisions.map((decision) => [decision.allowed, decision.limit, decision.remaining]),
    [
      [true, 3, 2],
      [true, 3, 1],
      [true, 3, 0],
      [false, 3, 0],
    ],
  );
  assert.equal(decisions[3]!.retryAfterSeconds, 1);
  assert.equal(decisions[3]!.resetSeconds, 3);
  assert.equal(limiter.take('other').limit, 200, 'other keys keep the defaults');
  clock.advance(1_000);
  assert.equal(limiter.take('slow', own).allowed, true);
  assert.equal(limiter.take('slow', own).allowed, false);
});

test('when a key’s limit changes, it keeps what it earned, capped at the new burst', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 10, burst: 10, now: clock.now });
  takeMany(limiter, 'k', 4); // 6 left
  // A smaller burst caps what is left.
  const lowered = limiter.take('k', { perSecond: 1, burst: 3 });
  assert.deepEqual([lowered.allowed, lowered.limit, lowered.remaining], [true, 3, 2]);
  // Refill continues at the new rate.
  const slow = { perSecond: 1, burst: 3 };
  assert.deepEqual([limiter.take('k', slow).allowed, limiter.take('k', slow).allowed, limiter.take('k', slow).allowed], [true, true, false]);
  clock.advance(500);
  assert.equal(limiter.take('k', slow).allowed, false, 'half a token at 1/s');
  // A bigger limit does not grant tokens at once: 0.5 earned so far, now at 10/s.
  const raised = limiter.take('k', { perSecond: 10, burst: 50 });
  assert.deepEqual([raised.allowed, raised.limit, raised.remaining, raised.retryAfterSeconds], [false, 50, 0, 1]);
  clock.advance(50); // 0.5 + 0.5
  assert.equal(limiter.take('k', { perSecond: 10, burst: 50 }).allowed, true);
});

test('invalid rates are refused', () => {
  assert.throws(() => new TokenBucketLimiter({ perSecond: 0, burst: 10 }), RangeError);
  assert.throws(() => new TokenBucketLimiter({ perSecond: 1, burst: 0.5 }), RangeError);
  assert.throws(() => new TokenBucketLimiter({ perSecond: Number.NaN, burst: 1 }), RangeError);
  assert.throws(() => new TokenBucketLimiter({ perSecond: 1, burst: 1, maxKeys: 0 }), RangeError);
  const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 1 });
  assert.throws(() => limiter.take('k', { perSecond: -1, burst: 5 }), RangeError);
  assert.throws(() => limiter.take('k', { perSecond: 1, burst: Number.POSITIVE_INFINITY }), RangeError);
  assert.equal(limiter.size, 0, 'a refused override creates no bucket');
});

test('a clock going backwards adds no tokens', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 1, now: clock.now });
  assert.equal(limiter.take('k').allowed, true);
  clock.advance(-10_000);
  assert.equal(limiter.take('k').allowed, false);
  clock.advance(1_000);
  assert.equal(limiter.take('k').allowed, true, 'measured from the latest reading');
});

test('peek tells what a take would, without taking, creating or reordering', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 2, maxKeys: 2, now: clock.now });
  assert.deepEqual(limiter.peek('new'), { allowed: true, limit: 2, remaining: 2, resetSeconds: 0, retryAfterSeconds: 1 });
  assert.equal(limiter.size, 0);
  takeMany(limiter, 'a', 2);
  limiter.take('b');
  assert.deepEqual(limiter.peek('a'), { allowed: false, limit: 2, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 });
  assert.equal(limiter.peek('a').allowed, false, 'peeking twice changes nothing');
  assert.equal(limiter.peek('a', { perSecond: 1, burst: 9 }).limit, 9);
  clock.advance(1_000);
  assert.equal(limiter.peek('a').remaining, 1);
  // 'a' is still the least recently used: peeking did not refresh it. 'b' is full now, so it
  // goes first; then, with nothing full, 'a' (the least recently used) would go before 'c'.
  limiter.take('c');
  assert.equal(limiter.size, 2);
  assert.equal(limiter.peek('a').remaining, 1, "'a' kept its state");
});

test('forget drops a bucket, which then starts full', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 2, now: clock.now });
  takeMany(limiter, 'k', 2);
  assert.equal(limiter.size, 1);
  assert.equal(limiter.forget('k'), true);
  assert.equal(limiter.forget('k'), false);
  assert.equal(limiter.size, 0);
  assert.equal(limiter.take('k').remaining, 1);
});

test('memory never exceeds maxKeys', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 5, maxKeys: 10, now: clock.now });
  for (let i = 0; i < 1_000; i++) {
    limiter.take(`key${i}`);
    if (i % 7 === 0) clock.advance(300);
    assert.ok(limiter.size <= 10, `size ${limiter.size} after ${i + 1} keys`);
  }
  assert.equal(limiter.size, 10);
});

test('at the bound, buckets that are full again go first', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 2, maxKeys: 3, now: clock.now });
  takeMany(limiter, 'a', 2); // empty; least recently used
  limiter.take('b'); // 1 left
  limiter.take('c'); // 1 left
  clock.advance(1_000); // a: 1 token (not full); b and c: full again
  limiter.take('d');
  assert.equal(limiter.size, 2, 'both full buckets were dropped, the older non-full one kept');
  // 'a' kept its state: one token, then refused. Had it been evicted it would have two.
  assert.deepEqual(
    takeMany(limiter, 'a', 2).map((decision) => decision.allowed),
    [true, false],
  );
  // Dropping a full bucket changed nothing for 'b': it starts full, as it was.
  assert.equal(limiter.take('b').remaining, 1);
});

test('at the bound with no full bucket, the least recently used goes', () => {
  const clock = fakeClock();
  const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 2, maxKeys: 2, now: clock.now });
  takeMany(limiter, 'a', 2);
  takeMany(limiter, 'b', 2);
  assert.equal(limiter.take('a').allowed, false); // 'a' is now the most recently used
  limiter.take('c');
  assert.equal(limiter.size, 2);
  assert.equal(limiter.take('a').allowed, false, "'a' kept its (empty) bucket");
  assert.equal(limiter.take('b').remaining, 1, "'b' was evicted and starts afresh");
});
