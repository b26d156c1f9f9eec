// Memory of a process as Linux accounts it: peak resident set size (VmHWM), current RSS
// (VmRSS) and its anonymous part (RssAnon: heaps and buffers, not the mapped segment files the
// kernel may drop) from /proc/<pid>/status, and a sampler of RssAnon's peak. Null where /proc is
// not there (not Linux) or the process has gone.

import { readFileSync } from 'node:fs';

function statusField(pid: number | 'self', field: 'VmHWM' | 'VmRSS' | 'RssAnon'): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : null;
}

/** Peak RSS in bytes since the process started. */
export function peakRssBytes(pid: number | 'self'): number | null {
  return statusField(pid, 'VmHWM');
}

export function currentRssBytes(pid: number | 'self'): number | null {
  return statusField(pid, 'VmRSS');
}

/** Anonymous resident memory in bytes (RssAnon). */
export function anonymousRssBytes(pid: number | 'self'): number | null {
  return statusField(pid, 'RssAnon');
}

/** Samples RssAnon every `intervalMs` until `stop`, which answers the largest sample (null: none). */
export function sampleAnonymousRss(pid: number, intervalMs = 200): { stop: () => number | null } {
  let peak: number | null = null;
  const sample = (): void => {
    const bytes = anonymousRssBytes(pid);
    if (bytes !== null && (peak === null || bytes > peak)) peak = bytes;
  };
  sample();
  // Never what keeps the process alive (an import that fails leaves it unstopped).
  const timer = setInterval(sample, intervalMs).unref();
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
