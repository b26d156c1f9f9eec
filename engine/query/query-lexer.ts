// Splits query text into its syntactic parts (docs/api.md, "Search") before any analysis: words, "exact
// phrases", a leading `-` (exclude) or `+` (require), a `title:` / `text:` field prefix and a
// trailing `*` (prefix search). A hand-written scanner: every input gives some list of parts,
// never an error.
//
// Rules, in order, for each part:
// - Parts are separated by whitespace (any Unicode space).
// - A leading `-` or `+` directly followed by something applies to the part; alone it is ignored.
// - `title:` or `text:` (any case) directly followed by something scopes the part to that
//   field, and so does the name of a searchable metadata field (`author:knuth`). Any other
//   `name:` is ordinary text ("foo:bar" is the word "foo:bar").
// - A quote (`"`, or typographic “ ” „) starts a phrase that runs to the next quote, or to
//   the end of the query when unterminated.
// - Otherwise a word runs to the next whitespace or quote; trailing `*`s make it a prefix and
//   are removed. A word of only `*` is ignored.

import type { FieldScope, Occur } from './query-types.ts';

/** One syntactic part of a query, not yet analyzed. */
export interface QueryPart {
  occur: Occur;
  field: FieldScope;
  /** The word, or the phrase between its quotes (raw text). */
  text: string;
  /** Written between quotes. */
  quoted: boolean;
  /** A word that ended in `*`. */
  prefix: boolean;
}

const MINUS = 0x2d;
const PLUS = 0x2b;
const COLON = 0x3a;
const STAR = 0x2a;
const FIELD_NAMES: ReadonlyMap<string, FieldScope> = new Map([
  ['title', 'title'],
  ['text', 'text'],
]);

function isSpace(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0x7f ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function isQuote(code: number): boolean {
  return code === 0x22 || code === 0x201c || code === 0x201d || code === 0x201e;
}

/** The scope a `name:` prefix gives: `title`/`text` (any case), or a searchable metadata field by its name (`author:`, `metadata.author:`). */
function scopeNamed(name: string, metadataFields: readonly string[]): FieldScope | undefined {
  const scope = FIELD_NAMES.get(name.toLowerCase());
  if (scope !== undefined) return scope;
  const field = name.startsWith('metadata.') ? name.slice('metadata.'.length) : name;
  return metadataFields.includes(field) ? `metadata.${field}` : undefined;
}

/** The parts of `q`, in order; `metadataFields` are the metadata fields a `name:` prefix may scope to. */
export function lexQuery(q: string, metadataFields: readonly string[] = []): QueryPart[] {
  const parts: QueryPart[] = [];
  const length = q.length;
  let i = 0;
  while (i < length) {
    if (isSpace(q.charCodeAt(i))) {
      i++;
      continue;
    }

    let occur: Occur = 'should';
    const sign = q.charCodeAt(i);
    if (sign === MINUS || sign === PLUS) {
      i++;
      if (i >= length || isSpace(q.charCodeAt(i))) continue; // a lone sign
      occur = sign === MINUS ? 'must_not' : 'must';
    }

    let field: FieldScope = 'all';
    if (!isQuote(q.charCodeAt(i))) {
      let colon = i;
      while (colon < length) {
        const code = q.charCodeAt(colon);
        if (code === COLON || isSpace(code) || isQuote(code)) break;
        colon++;
      }
      if (colon + 1 < length && q.charCodeAt(colon) === COLON && !isSpace(q.charCodeAt(colon + 1))) {
        const scope = scopeNamed(q.slice(i, colon), metadataFields);
        if (scope !== undefined) {
          field = scope;
          i = colon + 1;
        }
      }
    }

    if (isQuote(q.charCodeAt(i))) {
      let close = i + 1;
      while (close < length && !isQuote(q.charCodeAt(close))) close++;
      parts.push({ occur, field, text: q.slice(i + 1, close), quoted: true, prefix: false });
      i = close + 1;
      continue;
    }

    let end = i;
    while (end < length) {
      const code = q.charCodeAt(end);
      if (isSpace(code) || isQuote(code)) break;
      end++;
    }
    let wordEnd = end;
    while (wordEnd > i && q.charCodeAt(wordEnd - 1) === STAR) wordEnd--;
    if (wordEnd > i) {
      parts.push({ occur, field, text: q.slice(i, wordEnd), quoted: false, prefix: wordEnd < end });
    }
    i = end;
  }
  return parts;
}
