// Waits after an import until background merges are done, so the search phases of a benchmark
// measure the index as it stays, not merges competing for the cores: the collection's segment
// count must stop changing, for longer than the server waits before it merges a collection
// whose writes have stopped (the merge policy's quietAfterMs), and — given the server's pid —
// the server must sit idle meanwhile (a merge in progress uses a core without changing the
// count until it commits).

import { QUIET_AFTER_MS } from '../server/indexing/merge-policy.ts';
import { processCpuSeconds } from './proc-cpu.ts';

const SETTLE_POLL_MS = 250;
/** The segment count must hold this long to count as settled. */
const SETTLE_QUIET_MS = QUIET_AFTER_MS + 1_000;
/** A server using more than this share of one core between two polls is still at work. */
const BUSY_CPU_SHARE = 0.2;

/** Returns the time until the last change (at most `limitMs` of waiting in all). */
export async function waitForMergesToSettle(info: () => Promise<{ segments: number }>, limitMs = 120_000, pid?: number): Promise<number> {
  const started = performance.now();
  let lastChange = started;
  let segments = (await info()).segments;
  let cpu = pid === undefined ? null : processCpuSeconds(pid);
  while (performance.now() - lastChange < SETTLE_QUIET_MS && performance.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const now = (await info()).segments;
    const cpuNow = pid === undefined ? null : processCpuSeconds(pid);
    const busy = cpu !== null && cpuNow !== null && cpuNow - cpu > (BUSY_CPU_SHARE * SETTLE_POLL_MS) / 1000;
    cpu = cpuNow;
    if (now !== segments || busy) {
      segments = now;
      lastChange = performance.now();
    }
  }
  return lastChange - started;
}
