// CSV and TSV → text: RFC 4180 parsing (quoted fields, doubled quotes, line breaks inside
// quotes); each row's cells joined with spaces, one row per line. A CSV whose first line has
// more semicolons than commas is read with `;` (the spreadsheet export of many locales).

import { tidyText, type TextConversion } from './tidy.ts';

/** Splits delimited text into rows of cells. */
export function parseDelimited(source: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === delimiter) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Guesses a CSV delimiter from the first line: `;` when it outnumbers `,`. */
function csvDelimiter(source: string): string {
  const firstLine = source.slice(0, source.search(/\r|\n|$/));
  const count = (ch: string): number => firstLine.split(ch).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** The readable text of CSV (`,` or `;`) or TSV (`\t`). */
export function delimitedToText(source: string, format: 'csv' | 'tsv'): TextConversion {
  const delimiter = format === 'tsv' ? '\t' : csvDelimiter(source);
  const rows = parseDelimited(source, delimiter);
  const text = rows.map((cells) => cells.map((cell) => cell.replace(/\s+/g, ' ').trim()).filter((cell) => cell !== '').join(' '));
  return { title: null, text: tidyText(text.join('\n')) };
}
