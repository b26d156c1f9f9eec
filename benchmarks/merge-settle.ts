// Waits after an import until background merges are done (the collection's segment count
// stops changing), so the search phases of a benchmark measure the index as it stays, not
// merges competing for the cores.

const SETTLE_POLL_MS = 250;
/** The segment count must hold this long to count as settled. */
const SETTLE_QUIET_MS = 2_000;

/** Returns the time until the last change (at most `limitMs` of waiting in all). */
export async function waitForMergesToSettle(info: () => Promise<{ segments: number }>, limitMs = 120_000): Promise<number> {
  const started = performance.now();
  let lastChange = started;
  let segments = (await info()).segments;
  while (performance.now() - lastChange < SETTLE_QUIET_MS && performance.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const now = (await info()).segments;
    if (now !== segments) {
      segments = now;
      lastChange = performance.now();
    }
  }
  return lastChange - started;
}
