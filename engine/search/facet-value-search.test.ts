// Facet value search (facet-value-search.ts): a value matches when each typed word starts one of
// its words (folded: case and accents), within the typos the collection's word sizes allow; counts
// are of the documents a search matches (its words and filter), deleted ones left out; fewer
// typos first, then the most frequent. The typo walk over sorted words (state reuse, skipping
// dead prefixes) finds exactly what checking every word with the automaton finds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RoaringBitmap32 } from '../../storage/index.ts';
import { Analyzer } from '../analysis/index.ts';
import { textDocument, withSegments } from '../../test/helpers/engine-segments.ts';
import { DEAD_STATE } from '../segment/term-automaton.ts';
import { DEFAULT_TYPO_TOLERANCE } from '../typo/typo-rules.ts';
import { LevenshteinAutomaton } from '../typo/levenshtein-automaton.ts';
import { seededRandom } from '../vectors/seeded-random.ts';
import { parseFilter } from '../filter/index.ts';
import { searchFacetValues } from './facet-value-search.ts';
import type { SearchRequest } from './search-types.ts';

const analyzer = Analyzer.for('english');
const request = (extra: Partial<SearchRequest> = {}): SearchRequest => ({ q: '', match: 'any', offset: 0, limit: 10, highlightTag: 'mark', typoTolerance: DEFAULT_TYPO_TOLERANCE, ...extra });

const AUTHORS = ['Donald Knuth', 'Donald Knuth', 'Donald Knuth', 'Kneale', 'Donna Kent', 'Kurt Gödel', 'Alan Turing', 'Ada Lovelace', 'Knuth'];

test('typed words start words of the value, folded, typo-tolerant; counts under the query and filter; deleted documents left out', () => {
  const docs = AUTHORS.map((author, i) => textDocument(`d${i}`, i % 2 === 0 ? 'algorithms in depth' : 'a short note', { author, year: 2000 + i }));
  withSegments(analyzer, [docs.slice(0, 5), docs.slice(5)], (views) => {
    const values = (prefix: string, extra: Partial<SearchRequest> = {}) =>
      searchFacetValues(views, analyzer, request(extra), { field: 'author', prefix, limit: 10 }).map(({ value, count, typos }) => [value, count, typos]);
    assert.deepEqual(values('kn'), [['Donald Knuth', 3, 0], ['Kneale', 1, 0], ['Knuth', 1, 0]]);
    assert.deepEqual(values('KN'), values('kn'), 'case folded');
    assert.deepEqual(values('god'), [['Kurt Gödel', 1, 0]], 'accents folded');
    assert.deepEqual(values('donald kn'), [['Donald Knuth', 3, 0]], 'every typed word must match');
    assert.deepEqual(values('kunth'), [['Donald Knuth', 3, 1], ['Knuth', 1, 1]], 'a swap is one typo');
    assert.deepEqual(values('nkuth'), [], 'a typo on the first letter counts two: more than 5 letters allow');
    assert.deepEqual(values('knuht'), [['Donald Knuth', 3, 1], ['Knuth', 1, 1]], 'a swap is one typo from 5 letters');
    assert.deepEqual(values('knut', { typos: 0 }), [['Donald Knuth', 3, 0], ['Knuth', 1, 0]]);
    assert.deepEqual(values('knu'), [['Donald Knuth', 3, 0], ['Knuth', 1, 0]], 'no typos under 5 letters (kn… only)');
    assert.deepEqual(values('lovelase'), [['Ada Lovelace', 1, 1]]);
    assert.deepEqual(values('lovelase', { typos: 0 }), []);
    assert.deepEqual(values('kn', { q: 'algorithms' }), [['Donald Knuth', 2, 0], ['Knuth', 1, 0]], 'counted among the search matches');
    assert.deepEqual(values('kn', { filter: parseFilter({ year: { gte: 2003 } }) }), [['Kneale', 1, 0], ['Knuth', 1, 0]]);
    assert.deepEqual(values('20'), [], 'numbers are values of another field');
    assert.equal(searchFacetValues(views, analyzer, request(), { field: 'author', prefix: '', limit: 2 }).length, 2, 'empty prefix: every value, limited');
    assert.deepEqual(searchFacetValues(views, analyzer, request(), { field: 'nothing', prefix: 'kn', limit: 10 }), []);
    // Deleted documents are not counted.
    const withDeletes = [{ ...views[0], deleted: new RoaringBitmap32([0, 1]) }, views[1]];
    const counted = searchFacetValues(withDeletes, analyzer, request(), { field: 'author', prefix: 'knuth', limit: 10 });
    assert.deepEqual(counted.map(({ value, count }) => [value, count]), [['Donald Knuth', 1], ['Knuth', 1]]);
  });
});

test('the typo walk over sorted words finds what the automaton finds word by word', () => {
  const random = seededRandom(5);
  const letters = 'abcdeéklmnoprstu';
  const word = (): string => Array.from({ length: 2 + Math.floor(random() * 9) }, () => letters[Math.floor(random() * letters.length)]).join('');
  const values = Array.from({ length: 3000 }, () => (random() < 0.3 ? `${word()} ${word()}` : word()));
  const docs = values.map((value, i) => textDocument(`v${i}`, 'x', { name: value }));
  withSegments(analyzer, [docs], (views) => {
    for (let trial = 0; trial < 40; trial++) {
      const typed = trial % 2 === 0 ? word() : values[Math.floor(random() * values.length)].split(' ')[0].slice(0, 6);
      const found = searchFacetValues(views, analyzer, request(), { field: 'name', prefix: typed, limit: 100_000 });
      const expected = new Map<string, number>();
      const budget = typed.length >= 9 ? 2 : typed.length >= 5 ? 1 : 0;
      const automaton = budget === 0 ? null : new LevenshteinAutomaton(typed.normalize('NFD').replace(/\p{M}/gu, ''), budget);
      for (const value of new Set(values)) {
        let best = Infinity;
        for (const part of value.split(' ').map((w) => w.normalize('NFD').replace(/\p{M}/gu, ''))) {
          if (part.startsWith(typed.normalize('NFD').replace(/\p{M}/gu, ''))) best = 0;
          if (automaton === null) continue;
          let state = automaton.start;
          if (automaton.accepts(state)) best = Math.min(best, automaton.typos(state));
          for (const char of part) {
            state = automaton.step(state, char.codePointAt(0)!);
            if (state === DEAD_STATE) break;
            if (automaton.accepts(state)) best = Math.min(best, automaton.typos(state));
          }
        }
        if (best <= budget) expected.set(value, best);
      }
      assert.deepEqual(new Map(found.map(({ value, typos }) => [value as string, typos])), expected, `typed ${typed}`);
    }
  });
});
