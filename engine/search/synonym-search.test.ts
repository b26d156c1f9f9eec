// Synonyms in searches (issue 30 point 2), on an English collection: multi-way groups and one-way
// rules find documents by the other words, phrases work on either side, the words as typed rank
// above their synonyms, typos apply to the word as typed and never to its synonyms, a run of
// words that is an input is one unit, highlights and matched pages follow the synonym, explain
// names it, and a table of 10,000 entries hands a search only the rules its words can use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../analysis/index.ts';
import { textDocument, withSegments } from '../../test/helpers/engine-segments.ts';
import type { IndexDocument } from '../document.ts';
import { parseQuery } from '../query/query-parser.ts';
import { SynonymTable } from '../query/synonyms.ts';
import type { SynonymEntry } from '../query/synonyms.ts';
import type { ScoreExplanation, SearchRequest } from './search-types.ts';
import { searchSegments } from './searcher.ts';
import type { SegmentView } from './segment-view.ts';
import { DEFAULT_TYPO_TOLERANCE } from '../typo/typo-rules.ts';

const analyzer = Analyzer.for('english');

const doc = (id: string, text: string, pages: IndexDocument['pages'] = null): IndexDocument => textDocument(id, text, {}, null, pages);

const DOCS = [
  doc('laptop', 'A light laptop for travel.'),
  doc('notebook', 'A light notebook computer for travel.'),
  doc('nyc', 'Pizza in NYC is cheap.'),
  doc('new-york', 'Pizza in New York is cheap.'),
  doc('york', 'Old York has no new pizza.'),
  doc('couch', 'A soft couch by the window.'),
  doc('sofa', 'A soft sofa by the door.'),
];

const ENTRIES: SynonymEntry[] = [
  { words: ['laptop', 'notebook'] },
  { words: ['nyc', 'new york'] },
  { input: ['couch'], words: ['sofa'] },
];


const table = SynonymTable.build(ENTRIES, analyzer);

function search(views: SegmentView[], q: string, extra: Partial<SearchRequest> = {}) {
  const request: SearchRequest = { q, match: 'any', offset: 0, limit: 10, highlightTag: 'mark', typoTolerance: DEFAULT_TYPO_TOLERANCE, synonyms: table.rulesFor(q, analyzer), ...extra };
  return searchSegments(views, analyzer, request);
}

const ids = (result: { hits: { id: string }[] }): string[] => result.hits.map((hit) => hit.id);

function describes(explanation: ScoreExplanation, pattern: RegExp): boolean {
  return pattern.test(explanation.description) || explanation.details.some((detail) => describes(detail, pattern));
}

test('a multi-way group: each word finds the others, the word as typed ranks first', () => {
  withSegments(analyzer, [DOCS.slice(0, 3), DOCS.slice(3)], (views) => {
    assert.deepEqual(ids(search(views, 'laptop')), ['laptop', 'notebook']);
    assert.deepEqual(ids(search(views, 'notebook')), ['notebook', 'laptop']);
    assert.deepEqual(ids(search(views, 'Laptops')), ['laptop', 'notebook'], 'analyzed like the documents');
    assert.deepEqual(ids(search(views, 'laptop', { synonyms: undefined })), ['laptop'], 'without rules, no synonyms');
  });
});

test('one-way rules: the input finds the words, never the reverse', () => {
  withSegments(analyzer, [DOCS], (views) => {
    assert.deepEqual(ids(search(views, 'couch')), ['couch', 'sofa']);
    assert.deepEqual(ids(search(views, 'sofa')), ['sofa']);
  });
});

test('phrases on either side: "nyc" finds New York in a row, "new york" finds NYC', () => {
  withSegments(analyzer, [DOCS], (views) => {
    assert.deepEqual(ids(search(views, 'nyc')), ['nyc', 'new-york'], 'not "york" alone, where new and york stand apart');
    const newYork = search(views, 'new york');
    assert.deepEqual(ids(newYork).slice(0, 2), ['new-york', 'nyc']);
    assert.ok(!ids(newYork).includes('york'), 'the words of an input are one unit: in a row, or a synonym');
    assert.deepEqual(ids(search(views, 'new york', { match: 'all' })), ['new-york', 'nyc']);
    assert.deepEqual(ids(search(views, '"new york"')), ['new-york'], 'a quoted phrase is taken literally');
    assert.deepEqual(ids(search(views, 'pizza -nyc')).sort(), ['new-york', 'york'], 'an excluded word excludes itself only');
  });
});

test('highlights and explain follow the synonym that matched', () => {
  withSegments(analyzer, [DOCS], (views) => {
    const notebook = search(views, 'laptop', { explain: true }).hits.find((hit) => hit.id === 'notebook')!;
    assert.match(notebook.highlight!, /<mark>notebook<\/mark>/);
    assert.ok(describes(notebook.explain!, /synonym 'notebook' of 'laptop'/), JSON.stringify(notebook.explain));
    const york = search(views, 'nyc').hits.find((hit) => hit.id === 'new-york')!;
    assert.match(york.highlight!, /<mark>New<\/mark> <mark>York<\/mark>/);
  });
});

test('typos apply to the word as typed, never to its synonyms', () => {
  withSegments(analyzer, [[doc('a', 'a laptop bag'), doc('b', 'a notebok bag'), doc('c', 'a notebook bag')]], (views) => {
    // "notebok" is a typo of "notebook" in a document: the synonym of laptop is matched exactly.
    assert.deepEqual(ids(search(views, 'laptop')), ['a', 'c']);
    // A typo in the query word finds the word, not its synonyms (rules are looked up as typed).
    assert.deepEqual(ids(search(views, 'laptpo')), ['a']);
  });
});

test('a synonym ranks below the word as typed in a document like it, however rare the synonym is', () => {
  const docs = [doc('rare', 'notebook number 99'), ...Array.from({ length: 20 }, (_, i) => doc(`common-${i}`, `laptop number ${i}`))];
  withSegments(analyzer, [docs], (views) => {
    const hits = search(views, 'laptop', { limit: 21 }).hits;
    assert.equal(hits[hits.length - 1].id, 'rare');
  });
});

test('matched pages count a synonym on a page', () => {
  const pages = [{ number: 1, label: null, offset: 0 }, { number: 2, label: null, offset: 14 }];
  withSegments(analyzer, [[doc('paged', 'Nothing here.\nThe notebook is here.', pages)]], (views) => {
    const hit = search(views, 'laptop').hits[0];
    assert.equal(hit.page, 2);
    assert.deepEqual(hit.matchedPages, [2]);
  });
});

test('a table of 10,000 entries gives a search only the rules its words use', () => {
  const entries: SynonymEntry[] = Array.from({ length: 10_000 }, (_, i) => ({ words: [`word${i}a`, `word${i}b`] }));
  entries.push({ words: ['laptop', 'notebook'] }, { input: ['big apple'], words: ['new york'] });
  const big = SynonymTable.build(entries, analyzer);
  assert.equal(big.size, 20_003);
  assert.deepEqual(big.rulesFor('a laptop in the big apple', analyzer).map((rule) => rule.input.join(' ')).sort(), ['big appl', 'laptop']);
  assert.deepEqual(big.rulesFor('nothing to see', analyzer), []);
  const query = parseQuery('word77a big apple', 'any', analyzer, undefined, 'none', big.rulesFor('word77a big apple', analyzer));
  assert.deepEqual(
    query.clauses.map((clause) => (clause.kind === 'term' ? clause.term : clause.kind === 'phrase' ? clause.terms.join(' ') : clause.prefix)),
    ['word77a', 'big appl'],
  );
  assert.deepEqual(query.clauses[0].kind !== 'prefix' && query.clauses[0].synonyms?.map((synonym) => synonym.text), ['word77b']);
});
