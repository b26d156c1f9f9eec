// Typo tolerance in searches (issue 14 point 4), on an English collection: misspelled words find
// their documents, exact words outrank typo variants, phrases, prefixes and numbers stay exact,
// fields can be kept exact, expansions are capped, explain names the typo, and a search that
// finds nothing suggests queries that would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../analysis/index.ts';
import { textDocument, withSegments } from '../../test/helpers/engine-segments.ts';
import type { IndexDocument } from '../document.ts';
import type { ScoreExplanation, SearchRequest } from './search-types.ts';
import { searchSegments } from './searcher.ts';
import type { SegmentView } from './segment-view.ts';
import { MAX_TYPO_EXPANSIONS, typoVariants } from './typo-expansions.ts';
import { DEFAULT_TYPO_TOLERANCE } from '../typo/typo-rules.ts';
import type { TypoTolerance } from '../typo/typo-rules.ts';

const analyzer = Analyzer.for('english');

const doc = (id: string, title: string | null, text: string): IndexDocument => textDocument(id, text, {}, title);

const DOCS = [
  doc('gnuplot', 'Gnuplot manual', 'Plotting a histogram with gnuplot: set logscale y, then plot with boxes.'),
  doc('mail', 'Mail guide', 'How to receive mail and forward it. Messages you receive are kept.'),
  doc('typo-only', 'Histograms everywhere', 'histograms histograms histograms of data, histograms again.'),
  doc('year', 'Annual report', 'The report of 2024 and of 12345.'),
  doc('deceive', 'Tricks', 'Magicians deceive the eye.'),
];


function search(views: SegmentView[], q: string, extra: Partial<SearchRequest> = {}, tolerance: TypoTolerance = DEFAULT_TYPO_TOLERANCE) {
  return searchSegments(views, analyzer, { q, match: 'any', offset: 0, limit: 10, highlightTag: 'mark', typoTolerance: tolerance, ...extra });
}

const ids = (result: { hits: { id: string }[] }): string[] => result.hits.map((hit) => hit.id);

test('misspelled words find their documents: a missing letter, a swap, across segments', () => {
  withSegments(analyzer, [DOCS.slice(0, 2), DOCS.slice(2)], (views) => {
    assert.deepEqual(ids(search(views, 'histgram')).sort(), ['gnuplot', 'typo-only']);
    assert.deepEqual(ids(search(views, 'recieve')), ['mail']);
    assert.deepEqual(ids(search(views, 'gnuplto logscael')), ['gnuplot']);
  });
});

test('a document with the exact word outranks one with only a typo variant, even a richer one', () => {
  // "receive" once in a long text, against "recieve" (one typo) in a short title and text, five times.
  const long = 'word '.repeat(200);
  const docs = [
    doc('exact', null, `${long} receive ${long}`),
    doc('variant', 'Recieve recieve', 'recieve recieve recieve'),
  ];
  withSegments(analyzer, [docs], (views) => {
    const result = search(views, 'receive');
    assert.deepEqual(ids(result), ['exact', 'variant']);
    assert.ok(result.hits[0].score > result.hits[1].score);
  });
});

test('typos=0 turns typos off; typos=1 caps a long word at one; short words and numbers stay exact', () => {
  withSegments(analyzer, [DOCS], (views) => {
    assert.deepEqual(ids(search(views, 'histgram', { typos: 0 })), []);
    assert.deepEqual(ids(search(views, 'recieve', {}, { ...DEFAULT_TYPO_TOLERANCE, enabled: false })), []);
    // "hystogrum" is two typos from "histogram": found with auto (9 letters), not with typos=1.
    assert.deepEqual(ids(search(views, 'hystogrum')).sort(), ['gnuplot', 'typo-only']);
    assert.deepEqual(ids(search(views, 'hystogrum', { typos: 1 })), []);
    // Under 5 letters: no typos ("gnuplt" is 6, "mial" 4).
    assert.deepEqual(ids(search(views, 'mial')), []);
    // A number never gets a typo: 12346 does not find 12345.
    assert.deepEqual(ids(search(views, '12346')), []);
    assert.deepEqual(ids(search(views, '12346', {}, { ...DEFAULT_TYPO_TOLERANCE, disableOnNumbers: false })), ['year']);
  });
});

test('a word some document contains gets one typo at most; a missing word of 9+ letters gets two', () => {
  // zanzibara is one typo from zanzibaro, zanzibxra two; zanzibaru (in no document) is one typo
  // from the first two and two from the third.
  const docs = [doc('typed', null, 'zanzibaro'), doc('one-typo', null, 'zanzibara'), doc('two-typos', null, 'zanzibxra')];
  withSegments(analyzer, [docs.slice(0, 2), docs.slice(2)], (views) => {
    assert.deepEqual(ids(search(views, 'zanzibaro')), ['typed', 'one-typo']);
    assert.deepEqual(ids(search(views, 'zanzibaru')).sort(), ['one-typo', 'two-typos', 'typed']);
    // An explicit typos=2 is "at most two": a word in the collection still gets one.
    assert.deepEqual(ids(search(views, 'zanzibaro', { typos: 2 })), ['typed', 'one-typo']);
  });
});

test('ranking with typo variants split from the exact word (WAND) equals the best-of scoring', () => {
  // Many documents with the exact word and many with variants only, across two segments: the
  // top hits and their scores must be those of scoring every document exhaustively.
  const docs: IndexDocument[] = [];
  for (let i = 0; i < 60; i++) {
    const filler = 'filler '.repeat(i % 7);
    if (i % 3 === 0) docs.push(doc(`exact-${i}`, null, `${filler}histogram data`));
    else if (i % 3 === 1) docs.push(doc(`variant-${i}`, i % 2 === 0 ? 'histograms histogram' : null, `${filler}histogran histogran ${i % 4 === 0 ? 'data' : ''}`));
    else docs.push(doc(`both-${i}`, null, `${filler}histogram histogrum histogrum histogrum data`));
  }
  withSegments(analyzer, [docs.slice(0, 30), docs.slice(30)], (views) => {
    for (const q of ['histogram', 'histogram data', 'histogran data']) {
      const top = search(views, q, { limit: 10 });
      const all = search(views, q, { limit: 100 });
      assert.equal(top.total, all.total);
      assert.deepEqual(top.hits.map((hit) => [hit.id, hit.score]), all.hits.slice(0, 10).map((hit) => [hit.id, hit.score]), q);
      // Exhaustive: every matching document, ranked by its score.
      const scores = all.hits.map((hit) => hit.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    }
    // A required word is scored as one best-of scorer (no WAND): the same scores, to rounding.
    const ranked = search(views, 'histogram', { limit: 100 }).hits;
    const required = search(views, '+histogram', { limit: 100 }).hits;
    assert.deepEqual(required.map((hit) => hit.id).sort(), ranked.map((hit) => hit.id).sort());
    const requiredScore = new Map(required.map((hit) => [hit.id, hit.score]));
    for (const hit of ranked) assert.ok(Math.abs(hit.score - requiredScore.get(hit.id)!) < 1e-9, `${hit.id}: ${hit.score} vs ${requiredScore.get(hit.id)}`);
  });
});

test('phrase words and prefixes are never typo-tolerant', () => {
  withSegments(analyzer, [DOCS], (views) => {
    assert.deepEqual(ids(search(views, '"recieve mail"')), []);
    assert.deepEqual(ids(search(views, '"receive mail"')), ['mail']);
    assert.deepEqual(ids(search(views, 'recie*')), []);
  });
});

test('disable_on_fields keeps typo matches out of a field', () => {
  const docs = [doc('title-only', 'Histogram', 'nothing here'), doc('text-only', 'Nothing', 'a histogram')];
  withSegments(analyzer, [docs], (views) => {
    assert.deepEqual(ids(search(views, 'histgram')).sort(), ['text-only', 'title-only']);
    assert.deepEqual(ids(search(views, 'histgram', {}, { ...DEFAULT_TYPO_TOLERANCE, disableOnFields: ['title'] })), ['text-only']);
    assert.deepEqual(ids(search(views, 'histgram', {}, { ...DEFAULT_TYPO_TOLERANCE, disableOnFields: ['text'] })), ['title-only']);
    assert.deepEqual(ids(search(views, 'histgram', {}, { ...DEFAULT_TYPO_TOLERANCE, disableOnFields: ['title', 'text'] })), []);
    // An explicit title: scope with the title disabled gets no typos; exact words still match.
    assert.deepEqual(ids(search(views, 'title:histgram', {}, { ...DEFAULT_TYPO_TOLERANCE, disableOnFields: ['title'] })), []);
    assert.deepEqual(ids(search(views, 'title:histogram', {}, { ...DEFAULT_TYPO_TOLERANCE, disableOnFields: ['title'] })), ['title-only']);
  });
});

test('explain shows the typo expansion and its penalty: 0.25 per typo, 0.75 for a word no document has', () => {
  const flatten = (e: ScoreExplanation): ScoreExplanation[] => [e, ...e.details.flatMap(flatten)];
  // No document has "recieve": its variants are all it can mean.
  withSegments(analyzer, [DOCS], (views) => {
    const hit = search(views, 'recieve', { explain: true }).hits[0];
    const text = JSON.stringify(hit.explain);
    assert.match(text, /weight\(receiv\)/);
    assert.match(text, /1 typo from 'reciev', 0\.75 per typo/);
    assert.ok(flatten(hit.explain!).some((e) => e.value === 0.75 && e.description.startsWith('boost')));
  });
  // One document has it as typed: the others' "receive" ranks below it.
  withSegments(analyzer, [[...DOCS, doc('misspelt', 'Notes', 'Where I recieve letters.')]], (views) => {
    const result = search(views, 'recieve', { explain: true });
    assert.deepEqual(ids(result), ['misspelt', 'mail']);
    const text = JSON.stringify(result.hits[1].explain);
    assert.match(text, /1 typo from 'reciev', 0\.25 per typo/);
    assert.ok(flatten(result.hits[1].explain!).some((e) => e.value === 0.25 && e.description.startsWith('boost')));
  });
});

test('expansions are capped: fewest typos first, then the most frequent', () => {
  // 80 one-typo variants of "abcdef": the ones kept are the most frequent.
  const letters = 'ghijklmnopqrstuvwxyz0123456789';
  const variants: string[] = [];
  for (let i = 0; i < 80; i++) variants.push(`abcde${letters[i % letters.length]}${i >= letters.length ? letters[Math.floor(i / letters.length)] : ''}`);
  const docs = variants.map((v, i) => doc(`d${i}`, null, Array.from({ length: 1 + (i % 5) }, () => v).join(' ')));
  // Make some variants occur in more documents.
  docs.push(doc('extra-1', null, 'abcdeg abcdeh'), doc('extra-2', null, 'abcdeg'));
  withSegments(analyzer, [docs], (views) => {
    const found = typoVariants('abcdef', 2, views);
    assert.equal(found.length, MAX_TYPO_EXPANSIONS);
    assert.deepEqual(found.slice(0, 2).map((v) => [v.term, v.docFreq]), [['abcdeg', 3], ['abcdeh', 2]]);
    for (let i = 1; i < found.length; i++) {
      const [a, b] = [found[i - 1], found[i]];
      assert.ok(a.typos < b.typos || (a.typos === b.typos && a.docFreq >= b.docFreq));
    }
  });
});

test('a search that finds nothing suggests queries that would, from the collection', () => {
  withSegments(analyzer, [DOCS.slice(0, 2), DOCS.slice(2)], (views) => {
    // Typos off: the words are corrected to words documents really contain (not stems).
    assert.deepEqual(search(views, 'recieve', { typos: 0 }).suggestions, [{ text: 'receive' }]);
    assert.deepEqual(search(views, 'gnuplto logscael', { typos: 0 }).suggestions?.[0], { text: 'gnuplot logscale' });
    // Operators and known words are kept as typed.
    assert.deepEqual(search(views, '+mail "histgram"', { typos: 0, match: 'all' }).suggestions?.[0], { text: '+mail "histogram"' });
    // Too short for a search to allow a typo, long enough for a suggestion.
    assert.deepEqual(search(views, 'mial').suggestions, [{ text: 'mail' }]);
    // Hits: no suggestions at all; nothing to correct: none.
    assert.equal(search(views, 'receive').suggestions, undefined);
    assert.deepEqual(search(views, 'zzzzzzzz').suggestions, []);
    assert.ok(search(views, 'recieve', { typos: 0 }).suggestions!.length <= 3);
  });
});
