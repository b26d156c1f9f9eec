// Sizes and times as people read them, the same in the CLI's tables and the dashboard's: bytes
// in binary units, RFC 3339 times to the minute (UTC). Plain functions: neither Node nor the
// browser is needed.

/** A byte count: `512 B`, `1.5 KiB`, `23.0 MiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** An RFC 3339 time as `2026-11-21 06:32` (UTC); null or absent as `absent` (`-` unless given). */
export function formatTime(time: string | null | undefined, absent = '-'): string {
  return time ? time.slice(0, 16).replace('T', ' ') : absent;
}
