// Tests for the refresh scheduler: refreshes never overlap, waiters resolve after the refresh
// covering their write, timers fire within the interval, failures are retried and reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RefreshScheduler } from './refresh-scheduler.ts';
import type { RefreshOutcome } from './refresh-scheduler.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('refreshes run one at a time and follow-ups run before the next refresh', async () => {
  const events: string[] = [];
  let active = 0;
  let seq = 0;
  const scheduler = new RefreshScheduler({
    intervalMs: 10_000,
    refresh: async (): Promise<RefreshOutcome> => {
      active++;
      assert.equal(active, 1, 'no overlap');
      const covered = ++seq;
      events.push(`refresh ${covered}`);
      await sleep(5);
      active--;
      return { covered, followUp: async () => void events.push(`merge ${covered}`) };
    },
    onError: (error) => assert.fail(String(error)),
  });
  await Promise.all([scheduler.runNow(), scheduler.runNow(), scheduler.runNow()]);
  assert.deepEqual(events, ['refresh 1', 'merge 1', 'refresh 2', 'merge 2', 'refresh 3', 'merge 3']);
  await scheduler.stop(new Error('stopped'));
});

test('waitFor resolves once a refresh covers the write', async () => {
  let writes = 0;
  const scheduler = new RefreshScheduler({
    intervalMs: 20,
    refresh: async () => ({ covered: writes, followUp: null }),
    onError: (error) => assert.fail(String(error)),
  });
  writes = 3;
  const started = Date.now();
  await scheduler.waitFor(3);
  const waited = Date.now() - started;
  assert.ok(waited >= 15, `waited ${waited} ms for the timer, not less`);
  await scheduler.waitFor(2); // already covered: immediate
  await scheduler.stop(new Error('stopped'));
});

test('a failing background refresh is reported and retried', async () => {
  let attempts = 0;
  const errors: unknown[] = [];
  const scheduler = new RefreshScheduler({
    intervalMs: 5,
    refresh: async () => {
      attempts++;
      if (attempts < 3) throw new Error(`attempt ${attempts} failed`);
      return { covered: 1, followUp: null };
    },
    onError: (error) => errors.push(error),
  });
  await scheduler.waitFor(1);
  assert.equal(attempts, 3);
  assert.deepEqual(errors.map((e) => (e as Error).message), ['attempt 1 failed', 'attempt 2 failed']);
  await scheduler.stop(new Error('stopped'));
});

test('stop fails the waiters and cancels the timer', async () => {
  let refreshes = 0;
  const scheduler = new RefreshScheduler({
    intervalMs: 30,
    refresh: async () => ({ covered: ++refreshes * 0, followUp: null }),
    onError: () => {},
  });
  const waiting = scheduler.waitFor(5);
  await scheduler.stop(new Error('closed'));
  await assert.rejects(waiting, /closed/);
  await assert.rejects(scheduler.waitFor(6), /closed/);
  await sleep(60);
  assert.equal(refreshes, 0, 'the timer was cancelled');
});
