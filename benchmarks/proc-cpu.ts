// CPU time a process has used (user + system, all its threads), from /proc/<pid>/stat; null
// where /proc is not there (not Linux) or the process has gone.

import { readFileSync } from 'node:fs';

/** USER_HZ: the clock ticks per second of /proc/<pid>/stat's utime and stime, 100 on every Linux Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system, all threads) a process has used since it started. */
export function processCpuSeconds(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks / CLOCK_TICKS_PER_SECOND : null;
}
