// Terminal output of the `folio` command: colour (plain ANSI codes, only on a terminal and
// never with NO_COLOR), aligned tables, JSON for scripts, masked secrets, byte sizes and the
// rendering of search highlights. Everything the server sends is cleaned of control
// characters first, so a document can never smuggle escape sequences into the terminal.

/** Where output goes: standard output or standard error. */
export type Stream = NodeJS.WriteStream;

const RESET = '\x1b[0m';
const STYLES = { bold: '\x1b[1m', dim: '\x1b[2m', red: '\x1b[31m', green: '\x1b[32m', mark: '\x1b[1;33m' } as const;
export type Style = keyof typeof STYLES;

/** Whether to colour a stream: a terminal, NO_COLOR unset or empty, and TERM not `dumb`. */
export function colorEnabled(stream: Stream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

/** `text` in a style when `color` is on, else as it is. */
export function paint(text: string, style: Style, color: boolean): string {
  return color && text !== '' ? `${STYLES[style]}${text}${RESET}` : text;
}

/** Replaces control characters (C0, DEL, C1) with spaces: server text is printed safely. */
export function clean(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Undoes HTML escaping: the named entities Folio writes and any numeric one. */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

/**
 * A search highlight (HTML-escaped text with `<mark>…</mark>` round matched words) as
 * terminal text: marked words bold yellow when `color` is on, plain otherwise.
 */
export function renderHighlight(html: string, color: boolean): string {
  return html
    .split(/(<mark>[\s\S]*?<\/mark>)/)
    .map((part) => {
      const marked = part.startsWith('<mark>') && part.endsWith('</mark>');
      const text = clean(unescapeHtml((marked ? part.slice(6, -7) : part).replace(/<[^>]*>/g, '')));
      return marked ? paint(text, 'mark', color) : text;
    })
    .join('');
}

/** What a document is called: its title, else the file path `folio index` stored, else null. */
export function documentName(document: { title?: string | null; metadata?: Record<string, unknown> }): string | null {
  if (document.title) return document.title;
  return typeof document.metadata?.path === 'string' ? document.metadata.path : null;
}

/** A secret shown so people can tell it apart: `folio_AbCd…wxyz`. */
export function maskSecret(secret: string): string {
  return secret.length >= 20 ? `${secret.slice(0, 10)}…${secret.slice(-4)}` : '…';
}

/** Rows under a header, columns padded to line up; the header is dimmed when `color` is on. */
export function formatTable(header: string[], rows: string[][], color: boolean): string {
  const cells = rows.map((row) => row.map((cell) => clean(cell)));
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
  return [paint(line(header), 'dim', color), ...cells.map(line)].join('\n') + '\n';
}

/** Writes `value` as indented JSON and a newline: the `--json` output for scripts. */
export function printJson(value: unknown, stream: Stream = process.stdout): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes a line of text to standard output. */
export function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Writes a line of text to standard error (notes and progress that scripts should not parse). */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** Prints a table to standard output, coloured when that is a terminal that takes colour. */
export function printTable(header: string[], rows: string[][]): void {
  process.stdout.write(formatTable(header, rows, colorEnabled(process.stdout)));
}
