// A family's formats written as rows: a MIME type, then the extensions that carry it.

import type { FormatInfo } from '../extraction.ts';

/** A row of formatsOf: the MIME type, then its extensions (each one a format of the family). */
export type FormatRow = readonly [mime: string, ...extensions: string[]];

/** The formats of `kind` the rows name, in their order. */
export function formatsOf(kind: string, rows: readonly FormatRow[]): FormatInfo[] {
  return rows.flatMap(([mime, ...extensions]) => extensions.map((extension) => ({ extension, mime, kind })));
}
