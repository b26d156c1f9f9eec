// Search in a facet's values (docs/api.md "Facet value search"; Meilisearch's facet search,
// Typesense's `facet_query`): the values of one metadata field with a word starting with what
// the user typed ("kn" → "Donald Knuth"), typo-tolerant as query words are (the collection's
// word sizes; Levenshtein automata, a first-letter typo counting two), each with its count of
// documents among the matches of a search (its `q` and `filter`, and a key's filter). Values
// with fewer typos come first, then the most frequent, then by value.
//
// The field's values across the snapshot's segments are numbered once (global-ordinals.ts), and
// get a word index on first use (kept with them): the folded words of the values, sorted, each
// with the numbers of the values holding it. A prefix is then a binary search; a typo-tolerant
// prefix walks the sorted words with the automaton and skips every word under a dead prefix.
// Counting touches only the matched values' postings, adding into one array by number: without
// a query or a filter, a value's count is its posting count (less deleted documents).

import type { Analyzer } from '../analysis/index.ts';
import { foldTerm } from '../analysis/index.ts';
import type { FieldIndex, FieldValue } from '../segment/field-index.ts';
import { globalOrdinals, localOrdinals } from './global-ordinals.ts';
import type { GlobalOrdinals } from './global-ordinals.ts';
import { compareCodePoints } from '../segment/term-order.ts';
import { DEAD_STATE } from '../segment/term-automaton.ts';
import { LevenshteinAutomaton, MAX_TYPO_TERM_LENGTH } from '../typo/levenshtein-automaton.ts';
import { TYPO_TOLERANCE_OFF, typoBudget, typoBudgetRule } from '../typo/typo-rules.ts';
import type { DocBitSet } from './doc-bitset.ts';
import { compareFacetValues } from './facet-counter.ts';
import type { SearchRequest } from './search-types.ts';
import type { SegmentView } from './segment-view.ts';
import { deletedDocs } from './segment-view.ts';
import { searchSegments } from './searcher.ts';
import type { SearchBudget } from './search-budget.ts';

/** Values a facet value search returns by default, and at most. */
export const DEFAULT_FACET_VALUES = 10;
export const MAX_FACET_VALUES = 100;

export interface FacetValueQuery {
  /** The metadata field. */
  field: string;
  /** What the user typed: every word of it must start a word of the value (empty: every value). */
  prefix: string;
  limit: number;
}

export interface FacetValueHit {
  value: FieldValue;
  count: number;
  /** Typos between the words typed and the value's words they matched. */
  typos: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Folded words of a value, as a facet value search compares them. */
function wordsOf(text: string): string[] {
  return [...text.matchAll(WORD)].map(([word]) => foldTerm(word));
}

/** A field's values by word: sorted folded words, and per word the global numbers of the values holding it. */
interface FacetWordIndex {
  words: string[];
  starts: Uint32Array;
  globals: Uint32Array;
}

const wordIndexes = new WeakMap<GlobalOrdinals, FacetWordIndex>();

function wordIndexOf(ordinals: GlobalOrdinals): FacetWordIndex {
  let built = wordIndexes.get(ordinals);
  if (built !== undefined) return built;
  const byWord = new Map<string, number[]>();
  ordinals.values.forEach((value, global) => {
    for (const word of new Set(wordsOf(String(value)))) {
      const globals = byWord.get(word);
      if (globals === undefined) byWord.set(word, [global]);
      else globals.push(global);
    }
  });
  const words = [...byWord.keys()].sort(compareCodePoints);
  const starts = new Uint32Array(words.length + 1);
  let total = 0;
  words.forEach((word, i) => {
    starts[i] = total;
    total += byWord.get(word)!.length;
  });
  starts[words.length] = total;
  const globals = new Uint32Array(total);
  words.forEach((word, i) => globals.set(byWord.get(word)!, starts[i]));
  built = { words, starts, globals };
  wordIndexes.set(ordinals, built);
  return built;
}

/** The first index in `words` (sorted) at or after `from` whose word does not start with `prefix`. */
function endOfPrefix(words: readonly string[], prefix: string, from: number): number {
  let low = from;
  let high = words.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (words[mid].startsWith(prefix) || compareCodePoints(words[mid], prefix) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first index whose word is not below `prefix`. */
function startOfPrefix(words: readonly string[], prefix: string): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareCodePoints(words[mid], prefix) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The words (indexes into `words`) with a prefix within `maxTypos` of `typed`, and their typos:
 * exact prefixes by binary search; with typos, the automaton walks the sorted words, reusing
 * the states of the previous word's shared prefix and skipping words under a dead prefix.
 */
function matchingWords(words: readonly string[], typed: string, maxTypos: number): Map<number, number> {
  const found = new Map<number, number>();
  for (let i = startOfPrefix(words, typed); i < words.length && words[i].startsWith(typed); i++) found.set(i, 0);
  if (maxTypos === 0 || [...typed].length > MAX_TYPO_TERM_LENGTH) return found;
  const automaton = new LevenshteinAutomaton(typed, maxTypos);
  // states[p]: the state after the word's first p code units (a stack shared with the previous word).
  const states: number[] = [automaton.start];
  let previous = '';
  let i = 0;
  while (i < words.length) {
    const word = words[i];
    let shared = 0;
    const limit = Math.min(previous.length, word.length, states.length - 1);
    while (shared < limit && previous.charCodeAt(shared) === word.charCodeAt(shared)) shared++;
    // Never resume inside a surrogate pair.
    if (shared > 0 && (word.charCodeAt(shared - 1) & 0xfc00) === 0xd800) shared--;
    states.length = shared + 1;
    let best = Infinity;
    for (let p = 0; p <= shared; p++) if (automaton.accepts(states[p])) best = Math.min(best, automaton.typos(states[p]));
    let dead = -1;
    for (let p = shared; p < word.length; ) {
      const codePoint = word.codePointAt(p)!;
      const width = codePoint > 0xffff ? 2 : 1;
      const next = automaton.step(states[p], codePoint);
      if (next === DEAD_STATE) {
        dead = p + width;
        break;
      }
      if (width === 2) states.push(next);
      states.push(next);
      p += width;
      if (automaton.accepts(next)) best = Math.min(best, automaton.typos(next));
    }
    if (best <= maxTypos && !found.has(i)) found.set(i, best);
    previous = word;
    if (dead < 0) {
      i++;
      continue;
    }
    // Every following word under the dead prefix is dead too (those holding an accepted shorter prefix were counted above).
    const deadPrefix = word.slice(0, dead);
    const next = endOfPrefix(words, deadPrefix, i + 1);
    if (next > i + 1 && best <= maxTypos) for (let j = i + 1; j < next; j++) if (!found.has(j)) found.set(j, best);
    previous = '';
    states.length = 1;
    i = next;
  }
  return found;
}

/** The values every typed word matches a word of (by global number), and their typos summed over the typed words. */
interface MatchedValues {
  globals: Uint32Array;
  typos: Uint8Array;
}

function matchingValues(ordinals: GlobalOrdinals, typed: readonly string[], budgets: readonly number[]): MatchedValues {
  const typos = new Uint8Array(ordinals.size);
  if (typed.length === 0) return { globals: Uint32Array.from({ length: ordinals.size }, (_, i) => i), typos };
  const { words, starts, globals } = wordIndexOf(ordinals);
  let matched: number[] | null = null;
  typed.forEach((word, w) => {
    // This word's fewest typos per value (-1: no word of the value matches it).
    const here = new Int8Array(ordinals.size).fill(-1);
    const found: number[] = [];
    for (const [wordIndex, wordTypos] of matchingWords(words, word, budgets[w])) {
      for (let k = starts[wordIndex]; k < starts[wordIndex + 1]; k++) {
        const global = globals[k];
        if (here[global] < 0) {
          here[global] = wordTypos;
          found.push(global);
        } else if (wordTypos < here[global]) here[global] = wordTypos;
      }
    }
    if (matched === null) {
      matched = found;
      for (const global of found) typos[global] = here[global];
    } else {
      matched = (matched as number[]).filter((global) => here[global] >= 0);
      for (const global of matched) typos[global] += here[global];
    }
  });
  return { globals: Uint32Array.from(matched ?? []), typos };
}

/** Adds each matched value's documents in `docs` (a segment's match set), or its live ones (`deleted` left out), to `counts`. */
function countSegment(index: FieldIndex, local: Int32Array, matched: Uint32Array, docs: DocBitSet | null, deleted: DocBitSet | null, counts: Uint32Array): void {
  const { valueStarts, docsByValue } = index;
  const words = (docs ?? deleted)?.words ?? null;
  for (let i = 0; i < matched.length; i++) {
    const global = matched[i];
    const ord = local[global];
    if (ord < 0) continue;
    const from = valueStarts[ord];
    const to = valueStarts[ord + 1];
    if (words === null) {
      counts[global] += to - from;
      continue;
    }
    let inSet = 0;
    for (let k = from; k < to; k++) {
      const doc = docsByValue[k];
      inSet += (words[doc >>> 5] >>> (doc & 31)) & 1;
    }
    counts[global] += docs === null ? to - from - inSet : inSet;
  }
}

/** The best `limit` counted values: fewer typos first, then the most frequent, then by value. */
function topValues(ordinals: GlobalOrdinals, matched: MatchedValues, counts: Uint32Array, limit: number): FacetValueHit[] {
  const { values } = ordinals;
  const { typos } = matched;
  const before = (a: number, b: number): boolean => typos[a] - typos[b] < 0 || (typos[a] === typos[b] && (counts[a] > counts[b] || (counts[a] === counts[b] && compareFacetValues(values[a], values[b]) < 0)));
  const best: number[] = [];
  for (const global of matched.globals) {
    if (counts[global] === 0) continue;
    if (best.length === limit && !before(global, best[limit - 1])) continue;
    let at = best.length;
    while (at > 0 && before(global, best[at - 1])) at--;
    best.splice(at, 0, global);
    if (best.length > limit) best.pop();
  }
  return best.map((global) => ({ value: values[global], count: counts[global], typos: typos[global] }));
}

/**
 * The values of `query.field` matching `query.prefix`, with their counts among the documents
 * `request` matches (its `q`, `filter` and typo settings; paging and facets are ignored).
 */
export function searchFacetValues(views: readonly SegmentView[], analyzer: Analyzer, request: SearchRequest, query: FacetValueQuery, budget?: SearchBudget): FacetValueHit[] {
  const rule = typoBudgetRule(request.typoTolerance ?? TYPO_TOLERANCE_OFF, request.typos ?? 'auto');
  const typedWords = [...query.prefix.matchAll(WORD)].map(([word]) => word);
  const ordinals = globalOrdinals(views.map((view) => view.reader.field(query.field)));
  if (ordinals.size === 0) return [];
  const matched = matchingValues(ordinals, typedWords.map(foldTerm), typedWords.map((word) => typoBudget(word, rule)));
  const locals = localOrdinals(ordinals);
  const counts = new Uint32Array(ordinals.size);
  // Without words or a filter every live document counts; otherwise the search's matches, segment by segment.
  const everyDocument = request.q.trim() === '' && (request.filter ?? null) === null;
  const matchSets = everyDocument ? null : searchSegmentsMatches(views, analyzer, request, budget);
  views.forEach((view, segment) => {
    const index = ordinals.indexes[segment];
    const local = locals[segment];
    if (index === null || local === null) return;
    if (matchSets === null) countSegment(index, local, matched.globals, null, deletedDocs(view), counts);
    else if (matchSets[segment] !== null) countSegment(index, local, matched.globals, matchSets[segment], null, counts);
  });
  return topValues(ordinals, matched, counts, query.limit);
}

/** Per segment, the documents `request` matches (null where none). */
function searchSegmentsMatches(views: readonly SegmentView[], analyzer: Analyzer, request: SearchRequest, budget?: SearchBudget): (DocBitSet | null)[] {
  const sets: (DocBitSet | null)[] = views.map(() => null);
  searchSegments(views, analyzer, { ...request, offset: 0, limit: 1, hitFields: [], facets: [], sort: [], explain: false, suggest: false, trackTotal: true }, budget, (segment, matches) => {
    sets[segment] = matches;
  });
  return sets;
}
