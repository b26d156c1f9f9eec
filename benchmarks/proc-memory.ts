// Memory of a process as Linux accounts it: peak resident set size (VmHWM) and current RSS
// (VmRSS) from /proc/<pid>/status. Null where /proc is not there (not Linux) or the process
// has gone.

import { readFileSync } from 'node:fs';

function statusField(pid: number | 'self', field: 'VmHWM' | 'VmRSS'): number | null {
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
