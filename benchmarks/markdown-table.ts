// Formatting for benchmark output: Markdown tables and the units they use (ms, MiB, counts).

/** A Markdown table; cells are strings, the header row first. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const MIB = 1024 * 1024;

export function mib(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined || Number.isNaN(bytes) ? '—' : (bytes / MIB).toFixed(1);
}

export function ms(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits);
}

export function seconds(milliseconds: number | null | undefined): string {
  return milliseconds === null || milliseconds === undefined ? '—' : (milliseconds / 1000).toFixed(2);
}

/** 12345.6 → "12,346". */
export function count(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : Math.round(value).toLocaleString('en-US');
}
