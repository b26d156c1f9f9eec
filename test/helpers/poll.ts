// Polls a condition until it holds or a deadline passes: for behaviour that is eventually
// true (a write becoming searchable within about a second) without sleeping a fixed time.

const POLL_INTERVAL_MS = 25;

/** Resolves with the first truthy result of `check`; rejects with `what` after `timeoutMs`. */
export async function pollUntil<T>(what: string, timeoutMs: number, check: () => Promise<T>): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
