// Tests for the failed-authentication limiter with a fake clock: 20 failures then a block with
// an exact Retry-After, recovery at one failure per 3 s, blocks per client address group
// (IPv4 address, IPv6 /64, IPv4-mapped IPv6 as IPv4), successes not counted, bounded memory,
// and the address normalisation itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FailedAuthLimiter, clientAddressKey } from './failed-auth-limiter.ts';

function fakeClock(start = 5_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

test('clientAddressKey: IPv4 as itself, IPv6 by /64, IPv4-mapped IPv6 as IPv4', () => {
  const cases: Array<[string | undefined, string]> = [
    ['1.2.3.4', '1.2.3.4'],
    [' 203.0.113.9 ', '203.0.113.9'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:203.0.113.9', '203.0.113.9'],
    ['::ffff:102:304', '1.2.3.4'], // the same mapped address in hex
    ['0:0:0:0:0:ffff:c0a8:0101', '192.168.1.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:abcd::1', '2001:db8:0:0::/64'],
    ['2001:db8:1::', '2001:db8:1:0::/64'],
    ['2001:db8:1:2:3:4:1.2.3.4', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['::1.2.3.4', '0:0:0:0::/64'], // IPv4-compatible (deprecated), not mapped
    ['::ffff:0:1.2.3.4', '0:0:0:0::/64'], // IPv4-translated, not mapped
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['[2001:db8:a:b::1]', '2001:db8:a:b::/64'],
    ['1:2:3:4:5:6:7::', '1:2:3:4::/64'],
    ['1::', '1:0:0:0::/64'],
    [undefined, 'unknown'],
    ['', 'unknown'],
    ['not-an-address', 'not-an-address'],
  ];
  for (const [input, expected] of cases) assert.equal(clientAddressKey(input), expected, String(input));
});

test('addresses in one /64 share a limit; other /64s and IPv4 addresses do not', () => {
  const clock = fakeClock();
  const limiter = new FailedAuthLimiter({ maxFailures: 2, now: clock.now });
  limiter.recordFailure('2001:db8:1:2::a');
  assert.equal(limiter.recordFailure('2001:db8:1:2:ffff::b').blocked, true);
  assert.equal(limiter.isBlocked('2001:db8:1:2:1:2:3:4').blocked, true);
  assert.equal(limiter.isBlocked('2001:db8:1:3::a').blocked, false);
  limiter.recordFailure('::ffff:10.0.0.1');
  assert.equal(limiter.recordFailure('10.0.0.1').blocked, true, 'mapped and plain IPv4 are one client');
  assert.equal(limiter.isBlocked('::ffff:10.0.0.1').blocked, true);
  assert.equal(limiter.isBlocked('10.0.0.2').blocked, false);
  assert.equal(limiter.size, 2);
});

test('20 failures are allowed, then the address is blocked with an exact Retry-After', () => {
  const clock = fakeClock();
  const limiter = new FailedAuthLimiter({ now: clock.now });
  const ip = '198.51.100.7';
  assert.deepEqual(limiter.isBlocked(ip), { blocked: false, retryAfterSeconds: 0 });
  for (let i = 1; i <= 19; i++) {
    assert.deepEqual(limiter.recordFailure(ip), { blocked: false, retryAfterSeconds: 0 }, `failure ${i}`);
    assert.equal(limiter.isBlocked(ip).blocked, false);
  }
  // The 20th failure uses the last allowance: blocked from now on, one more in 3 s (60 s / 20).
  assert.deepEqual(limiter.recordFailure(ip), { blocked: true, retryAfterSeconds: 3 });
  assert.deepEqual(limiter.isBlocked(ip), { blocked: true, retryAfterSeconds: 3 });
  clock.advance(1_000);
  assert.deepEqual(limiter.isBlocked(ip), { blocked: true, retryAfterSeconds: 2 });
  clock.advance(1_999);
  assert.deepEqual(limiter.isBlocked(ip), { blocked: true, retryAfterSeconds: 1 });
  clock.advance(1);
  assert.deepEqual(limiter.isBlocked(ip), { blocked: false, retryAfterSeconds: 0 });
  // One more failure is allowed, and it blocks again for another 3 s.
  assert.deepEqual(limiter.recordFailure(ip), { blocked: true, retryAfterSeconds: 3 });
  assert.equal(limiter.isBlocked('198.51.100.8').blocked, false, 'other addresses are not affected');
});

test('failures while blocked do not extend the block; a quiet minute restores all 20', () => {
  const clock = fakeClock();
  const limiter = new FailedAuthLimiter({ now: clock.now });
  const ip = '192.0.2.1';
  for (let i = 0; i < 20; i++) limiter.recordFailure(ip);
  clock.advance(1_500);
  // A failure racing past isBlocked while blocked: still blocked, and the wait is unchanged.
  assert.deepEqual(limiter.recordFailure(ip), { blocked: true, retryAfterSeconds: 2 });
  clock.advance(1_500);
  assert.equal(limiter.isBlocked(ip).blocked, false);
  clock.advance(57_000); // 60 s after the burst
  for (let i = 1; i <= 19; i++) assert.equal(limiter.recordFailure(ip).blocked, false, `failure ${i}`);
  assert.equal(limiter.recordFailure(ip).blocked, true);
});

test('isBlocked changes nothing and remembers nothing', () => {
  const clock = fakeClock();
  const limiter = new FailedAuthLimiter({ maxFailures: 3, now: clock.now });
  for (let i = 0; i < 100; i++) assert.equal(limiter.isBlocked(`10.0.${i}.1`).blocked, false);
  assert.equal(limiter.size, 0, 'clients that never failed take no memory');
  limiter.recordFailure('10.0.0.1');
  for (let i = 0; i < 100; i++) limiter.isBlocked('10.0.0.1');
  assert.equal(limiter.recordFailure('10.0.0.1').blocked, false);
  assert.equal(limiter.recordFailure('10.0.0.1').blocked, true);
});

test('custom limit and window: 5 failures per 10 s', () => {
  const clock = fakeClock();
  const limiter = new FailedAuthLimiter({ maxFailures: 5, windowSeconds: 10, now: clock.now });
  for (let i = 0; i < 4; i++) assert.equal(limiter.recordFailure('a').blocked, false);
  assert.deepEqual(limiter.recordFailure('a'), { blocked: true, retryAfterSeconds: 2 });
  clock.advance(2_000);
  assert.equal(limiter.isBlocked('a').blocked, false);
});

test('memory is bounded by maxClients', () => {
  const clock = fakeClock();
  const limiter = new FailedAuthLimiter({ maxFailures: 2, maxClients: 50, now: clock.now });
  for (let i = 0; i < 2_000; i++) {
    limiter.recordFailure(`2001:db8:${i.toString(16)}::1`);
    assert.ok(limiter.size <= 50);
  }
  assert.equal(limiter.size, 50);
  // The most recent client is still remembered.
  assert.equal(limiter.recordFailure('2001:db8:7cf::99').blocked, true);
});

test('bad options are refused', () => {
  assert.throws(() => new FailedAuthLimiter({ maxFailures: 0 }), RangeError);
  assert.throws(() => new FailedAuthLimiter({ maxFailures: 2.5 }), RangeError);
  assert.throws(() => new FailedAuthLimiter({ windowSeconds: 0 }), RangeError);
  assert.throws(() => new FailedAuthLimiter({ maxClients: 0 }), RangeError);
});
