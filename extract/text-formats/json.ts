// JSON and NDJSON/JSON Lines → text: every object key and every string value (numbers and
// booleans too, as words), one per line, in document order. A top-level "title" string is the
// title. Malformed input throws: the file cannot be read.

import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

function collect(value: unknown, out: string[], depth: number): void {
  if (depth > 200) return; // JSON.parse already bounds nesting in practice; stay safe anyway
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collect(item, out, depth + 1);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      collect(item, out, depth + 1);
    }
  }
}

function topLevelTitle(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  for (const key of ['title', 'name']) {
    if (typeof record[key] === 'string') return cleanTitle(record[key] as string);
  }
  return null;
}

/** The text of one JSON document. Throws SyntaxError on malformed JSON. */
export function jsonToText(source: string): TextConversion {
  const value: unknown = JSON.parse(source);
  const out: string[] = [];
  collect(value, out, 0);
  return { title: topLevelTitle(value), text: tidyText(out.join('\n')) };
}

/** The text of newline-delimited JSON: one value per non-empty line. Throws on a bad line. */
export function ndjsonToText(source: string): TextConversion {
  const out: string[] = [];
  const lines = source.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch (error) {
      throw new SyntaxError(`line ${i + 1}: ${(error as Error).message}`);
    }
    collect(value, out, 0);
    out.push('');
  }
  return { title: null, text: tidyText(out.join('\n')) };
}
