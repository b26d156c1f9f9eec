// A collection's synonyms as lines of text, for the Settings page's text box: one entry a line,
// words separated by commas. `laptop, notebook, portable computer` is a group (each finds the
// others); `nyc, big apple -> new york` is one-way (the words left of `->` also find those on
// the right). Blank lines, and empty words between commas, are skipped; spaces round a word do
// not count. Only the syntax is read here: what the entries mean (a group of one word, a word
// with nothing to search) is the server's to judge, and its errors name the entry, which
// `lines` turns back into a line.

import type { SynonymEntry } from '../../clients/typescript/api-types.ts';

export interface ParsedSynonyms {
  entries: SynonymEntry[];
  /** The line (counted from 1) each entry was written on, by entry. */
  lines: number[];
  /** Lines the syntax cannot read, e.g. `line 4: more than one "->"`; nothing is saved while there are any. */
  problems: string[];
}

/** Separates the input words of a one-way entry from the words they also find. */
export const ONE_WAY = '->';
const WORD_SEPARATOR = ',';

function wordsOf(side: string): string[] {
  return side.split(WORD_SEPARATOR).map((word) => word.trim()).filter((word) => word !== '');
}

export function parseSynonymLines(text: string): ParsedSynonyms {
  const parsed: ParsedSynonyms = { entries: [], lines: [], problems: [] };
  text.split(/\r?\n/).forEach((line, index) => {
    const number = index + 1;
    if (line.trim() === '') return;
    const sides = line.split(ONE_WAY);
    if (sides.length > 2) {
      parsed.problems.push(`line ${number}: more than one "${ONE_WAY}"`);
      return;
    }
    const words = wordsOf(sides[sides.length - 1]);
    const input = sides.length === 2 ? wordsOf(sides[0]) : undefined;
    if (words.length === 0 || input?.length === 0) {
      parsed.problems.push(sides.length === 2 ? `line ${number}: words are needed on both sides of "${ONE_WAY}"` : `line ${number}: no words, only commas`);
      return;
    }
    parsed.entries.push(input === undefined ? { words } : { input, words });
    parsed.lines.push(number);
  });
  return parsed;
}

/** One entry as its line. */
export function synonymLine(entry: SynonymEntry): string {
  const words = entry.words.join(`${WORD_SEPARATOR} `);
  return entry.input === undefined ? words : `${entry.input.join(`${WORD_SEPARATOR} `)} ${ONE_WAY} ${words}`;
}

export function synonymLines(entries: readonly SynonymEntry[]): string {
  return entries.map(synonymLine).join('\n');
}

/** Words the lines cannot hold as they are (a comma, `->` or a line break in them; the API can store them). */
export function wordsLinesCannotHold(entries: readonly SynonymEntry[]): string[] {
  const unfit = (word: string): boolean => word.includes(WORD_SEPARATOR) || word.includes(ONE_WAY) || /[\r\n]/.test(word) || word.trim() !== word;
  return entries.flatMap((entry) => [...(entry.input ?? []), ...entry.words]).filter(unfit);
}
