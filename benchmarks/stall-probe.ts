// A stall probe for imports: while documents stream in, send one cheap search every
// `intervalMs` on a connection of its own and keep the slowest answer. A server whose main
// thread stalls (a long synchronous step, a GC pause, a full write queue) shows it here.

import { KeepAliveClient } from './keep-alive-client.ts';

export interface ProbeResult {
  requests: number;
  maxMs: number;
  /** Answers other than 200, and requests that failed outright. */
  failures: number;
}

export interface StallProbe {
  /** Stops after the request in flight, if any, and resolves with what was measured. */
  stop(): Promise<ProbeResult>;
}

export function startStallProbe(url: string, path: string, headers: Record<string, string>, intervalMs = 200): StallProbe {
  const client = new KeepAliveClient(url, headers);
  const result: ProbeResult = { requests: 0, maxMs: 0, failures: 0 };
  let stopped = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const { status } = await client.request(path);
        if (status !== 200) result.failures++;
      } catch {
        result.failures++;
      }
      const elapsed = performance.now() - started;
      result.requests++;
      result.maxMs = Math.max(result.maxMs, elapsed);
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.max(0, intervalMs - elapsed));
      });
      wake = null;
    }
  })();
  return {
    async stop() {
      stopped = true;
      (wake as (() => void) | null)?.();
      await loop;
      client.close();
      return result;
    },
  };
}
