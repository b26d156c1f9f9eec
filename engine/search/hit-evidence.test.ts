// Tests of where a hit's query is satisfied (issue 14): a phrase only where its words stand
// together on one page, required words where they occur, excluded words never; the best page is
// the one satisfying the most (idf-weighted) clauses, required ones first, ties to the earlier
// page; highlights mark the satisfied occurrences only. Hand cases on findHitEvidence, a search
// with typo variants, then a property test through searchSegments comparing every hit's page,
// matched pages and marks with a naive oracle that scans the documents' token streams page by
// page.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Analyzer } from '../analysis/index.ts';
import type { IndexDocument, PageInfo } from '../document.ts';
import { parseQuery } from '../query/query-parser.ts';
import type { QueryClause } from '../query/query-types.ts';
import { SegmentReader } from '../segment/segment-reader.ts';
import { writeSegment } from '../segment/segment-writer.ts';
import { Bm25fWeight, bm25Idf } from './bm25.ts';
import { MAX_PREFIX_EXPANSIONS } from './clauses/index.ts';
import { findHitEvidence } from './hit-evidence.ts';
import type { EvidenceClause } from './hit-evidence.ts';
import { PROXIMITY_WEIGHT } from './page-ranking.ts';
import { searchSegments } from './searcher.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';

const analyzer = Analyzer.for('none');

/** Evidence for a document given as pages of words (text positions from `textStart`). */
function evidenceOf(clauses: EvidenceClause[], pages: string[][], textStart = 1, cap?: number) {
  const pageStarts: number[] = [];
  const tokens: string[] = [];
  for (const words of pages) {
    pageStarts.push(textStart + tokens.length);
    tokens.push(...words);
  }
  const positionsOf = (term: string): number[] | null => {
    const positions = tokens.flatMap((token, i) => (token === term ? [textStart + i] : []));
    return positions.length > 0 ? positions : null;
  };
  return findHitEvidence(clauses, { positionsOf, textStart, pageStarts }, cap);
}

const term = (word: string, idf = 1, required = false): EvidenceClause => ({ kind: 'terms', terms: [word], idfs: [idf], required });
const phrase = (words: string, idf = 2, required = false): EvidenceClause => ({ kind: 'phrase', terms: words.split(' '), idfs: [idf], required });
const words = (text: string): string[] => (text === '' ? [] : text.split(' '));

describe('findHitEvidence', () => {
  it('counts a phrase only on the pages where its words stand together', () => {
    const pages = ['set the logscale', 'logscale set', 'use set logscale here', 'nothing', 'set logscale'].map(words);
    const evidence = evidenceOf([phrase('set logscale')], pages);
    assert.deepEqual(evidence.matchedPages, [2, 4]);
    assert.equal(evidence.bestPage, 2, 'ties go to the earlier page');
    // Page 2 starts at position 1 + 3 + 2 = 6: "set logscale" at 7 and 8; nothing else marked.
    assert.deepEqual([...evidence.marks].sort((a, b) => a[0] - b[0]), [[7, 'set'], [8, 'logscale']]);
  });

  it('never counts a phrase across a page break', () => {
    const evidence = evidenceOf([phrase('log scaling')], [words('about log'), words('scaling now')]);
    assert.deepEqual(evidence.matchedPages, []);
    assert.equal(evidence.bestPage, 0);
    assert.equal(evidence.marks.size, 0);
  });

  it('prefers the page satisfying the most weight, and among equals the most occurrences', () => {
    const clauses = [term('alpha', 1), term('beta', 3)];
    assert.equal(evidenceOf(clauses, ['alpha alpha alpha', 'beta', 'alpha beta'].map(words)).bestPage, 2);
    assert.equal(evidenceOf(clauses, ['alpha alpha alpha', 'beta'].map(words)).bestPage, 1, 'beta weighs more');
    assert.equal(evidenceOf(clauses, ['beta', 'beta beta'].map(words)).bestPage, 1, 'more occurrences');
  });

  it('puts required clauses first, so with match=all a page with every clause wins', () => {
    const clauses = [term('must', 0.5, true), term('rare', 9)];
    assert.equal(evidenceOf(clauses, ['rare rare', 'must', 'rare'].map(words)).bestPage, 1);
    const all = [term('one', 1, true), term('two', 1, true), phrase('three four', 5, true)];
    const pages = ['three four', 'one two', 'one three four', 'one two three four', 'two'].map(words);
    const evidence = evidenceOf(all, pages);
    assert.equal(evidence.bestPage, 3);
    assert.deepEqual(evidence.matchedPages, [0, 1, 2, 3, 4], 'any clause makes a page matched');
  });

  it('weighs a prefix by its best expansion on the page', () => {
    const prefix: EvidenceClause = { kind: 'terms', terms: ['comp', 'compute', 'computer'], idfs: [1, 2, 4], required: false };
    const evidence = evidenceOf([prefix], ['compute comp', 'computer', 'other'].map(words));
    assert.equal(evidence.bestPage, 1);
    assert.deepEqual(evidence.matchedPages, [0, 1]);
    assert.deepEqual([...evidence.marks], [[3, 'computer']]);
  });

  it('places occurrences on the right page when pages are empty', () => {
    const evidence = evidenceOf([term('b')], ['a', '', '', 'b a b', '', 'b'].map(words));
    assert.deepEqual(evidence.matchedPages, [3, 5]);
    assert.equal(evidence.bestPage, 3);
    assert.deepEqual([...evidence.marks].sort((a, b) => a[0] - b[0]), [[2, 'b'], [4, 'b']]);
  });

  it('ignores title positions and marks the whole text of a document without pages', () => {
    const tokens = ['red', 'fox', '', 'the', 'red', 'hen', 'and', 'red', 'fox']; // title "red fox", gap, text
    const positionsOf = (t: string): number[] | null => {
      const found = tokens.flatMap((token, i) => (token === t ? [i] : []));
      return found.length > 0 ? found : null;
    };
    const evidence = findHitEvidence([phrase('red fox'), term('hen')], { positionsOf, textStart: 3, pageStarts: null });
    assert.deepEqual(evidence.matchedPages, []);
    assert.equal(evidence.bestPage, 0);
    assert.deepEqual([...evidence.marks].sort((a, b) => a[0] - b[0]), [[5, 'hen'], [7, 'red'], [8, 'fox']]);
  });

  it('looks at no more than the cap of positions, the earliest ones', () => {
    const pages = ['a a a', 'a b', 'b b b b'].map(words);
    const evidence = evidenceOf([term('a'), term('b')], pages, 1, 5);
    // Positions in order: a a a | a b | b…; the first five reach page 1 only.
    assert.deepEqual(evidence.matchedPages, [0, 1]);
    assert.equal(evidence.bestPage, 1);
  });

});

describe('hits through searchSegments', () => {
  it('count and mark a word\'s typo variants where they occur, and a phrase only where it stands', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-hit-evidence-'));
    try {
      const english = Analyzer.for('english');
      const pages = ['Intro page: histogram and style.', 'The histogram style draws bars.', 'Style, then a histogram.'];
      let text = '';
      const info: PageInfo[] = pages.map((page, i) => {
        if (i > 0) text += '\n\n';
        const offset = text.length;
        text += page;
        return { number: i + 1, label: null, offset };
      });
      const path = join(dir, 'typos.fseg');
      writeSegment(path, [{ id: 'm', title: 'Manual', text, pages: info, metadata: {}, format: 'pdf', bytes: 1, indexedAt: 'now' }], english);
      const views = [{ reader: SegmentReader.open(path), deleted: null }];
      const search = (q: string) => searchSegments(views, english, { q, match: 'any', offset: 0, limit: 1, highlightTag: 'mark', typos: 1 }).hits[0];
      // Each page has "histogram" once: the shortest page scores best (BM25 per page).
      const typo = search('histgram');
      assert.deepEqual([typo.page, typo.matchedPages], [3, [1, 2, 3]]);
      assert.equal(typo.highlight, 'Style, then a <mark>histogram</mark>.');
      const phrase = search('"histogram style"');
      assert.deepEqual([phrase.page, phrase.matchedPages], [2, [2]]);
      assert.equal(phrase.highlight, 'The <mark>histogram</mark> <mark>style</mark> draws bars.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The property test: random paged (and unpaged) documents, random queries.

const VOCABULARY = ['apple', 'apply', 'band', 'banana', 'cat', 'car', 'dog', 'emu'];

interface NaiveDoc {
  id: string;
  title: string[];
  /** The text's words, per page (one page for a document without pages). */
  pages: string[][];
  paged: boolean;
}

interface Expected {
  /** 1-based pages allowed as the hit's page (near-equal scores may go either way), or null. */
  pages: number[] | null;
  matchedPages: number[];
  /** Per page (index 0 for a document without pages): per word, whether it is marked. */
  marked: boolean[][];
}

/** What ranks pages: the collection's idf and the BM25F weight of a form with a page as the unit. */
interface NaiveScoring {
  idf: (term: string) => number;
  weight: (idf: number, field: QueryClause['field']) => Bm25fWeight;
}

/**
 * What a hit must say, found by scanning the document's words page by page: the best page has
 * the most idf of required clauses satisfied on it, then the highest BM25F score of the
 * document's title with that page's words (each clause by its best form there).
 */
function naiveEvidence(doc: NaiveDoc, clauses: QueryClause[], scoring: NaiveScoring, vocabulary: string[]): Expected {
  const { idf } = scoring;
  const positive = clauses.filter((c) => c.occur !== 'must_not');
  const count = (words: string[], terms: string[]): number => {
    let n = 0;
    for (let i = 0; i + terms.length <= words.length; i++) if (terms.every((t, j) => words[i + j] === t)) n++;
    return n;
  };
  const forms = (clause: QueryClause): { terms: string[]; idf: number }[] =>
    clause.kind === 'phrase'
      ? [{ terms: clause.terms, idf: clause.terms.reduce((sum, t) => sum + idf(t), 0) }]
      : (clause.kind === 'term' ? [clause.term] : vocabulary.filter((t) => t.startsWith(clause.prefix)).slice(0, MAX_PREFIX_EXPANSIONS)).map((t) => ({ terms: [t], idf: idf(t) }));
  const required: number[] = [];
  const scores: number[] = [];
  const matched: boolean[] = [];
  const marksPerPage: boolean[][] = [];
  doc.pages.forEach((words) => {
    const marked = words.map(() => false);
    let requiredWeight = 0;
    let score = 0;
    let any = false;
    for (const clause of positive) {
      let best = 0;
      let satisfiedIdf = -1;
      for (const form of forms(clause)) {
        const onPage = clause.field === 'title' ? 0 : count(words, form.terms);
        best = Math.max(best, scoring.weight(form.idf, clause.field).score(count(doc.title, form.terms), doc.title.length, onPage, words.length));
        if (onPage === 0) continue;
        satisfiedIdf = Math.max(satisfiedIdf, form.idf);
        for (let i = 0; i + form.terms.length <= words.length; i++) {
          if (form.terms.every((t, j) => words[i + j] === t)) for (let j = 0; j < form.terms.length; j++) marked[i + j] = true;
        }
      }
      score += best;
      if (satisfiedIdf < 0) continue;
      any = true;
      if (clause.occur === 'must') requiredWeight += satisfiedIdf;
    }
    // Proximity: consecutive word clauses, the rarer idf over their least distance on the page.
    const words2 = positive.filter((c): c is Extract<QueryClause, { kind: 'term' }> => c.kind === 'term' && c.field !== 'title');
    for (let w = 0; w + 1 < words2.length; w++) {
      const [a, b] = [words2[w].term, words2[w + 1].term];
      let least = Infinity;
      words.forEach((x, i) => words.forEach((y, j) => {
        if (x === a && y === b && i !== j) least = Math.min(least, Math.abs(i - j));
      }));
      if (least < Infinity) score += (PROXIMITY_WEIGHT * Math.min(idf(a), idf(b))) / least;
    }
    required.push(requiredWeight);
    scores.push(score);
    matched.push(any);
    marksPerPage.push(marked);
  });
  // With no page satisfying a text clause, the first page.
  let allowed = [0];
  if (matched.some(Boolean)) {
    const top = Math.max(...required);
    const topScore = Math.max(...scores.filter((_, p) => required[p] === top));
    allowed = scores.flatMap((score, p) => (required[p] === top && score >= topScore - 1e-9 * Math.max(1, topScore) ? [p] : []));
  }
  return {
    pages: doc.paged ? allowed.map((p) => p + 1) : null,
    matchedPages: doc.paged ? matched.flatMap((m, p) => (m ? [p + 1] : [])) : [],
    marked: marksPerPage,
  };
}

function randomQuery(random: () => number, word: () => string): string {
  const parts: string[] = [];
  const count = 1 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) {
    const r = random();
    let part =
      r < 0.35
        ? `"${Array.from({ length: 2 + Math.floor(random() * 2) }, word).join(' ')}"`
        : r < 0.45
          ? `${word().slice(0, 2 + Math.floor(random() * 2))}*`
          : word();
    if (random() < 0.1) part = `title:${part}`;
    const op = random();
    parts.push(op < 0.12 ? `-${part}` : op < 0.3 ? `+${part}` : part);
  }
  return parts.join(' ');
}

/** The words of a highlight of whole short text, each with whether it is marked. */
function markedWords(highlight: string): boolean[] {
  if (highlight === '') return [];
  return highlight.split(' ').map((token) => {
    const marked = /^<mark>[a-z]+<\/mark>$/.test(token);
    assert.ok(marked || /^[a-z]+$/.test(token), `unexpected highlight token ${token}`);
    return marked;
  });
}

describe('hits name the pages where the query is satisfied (property)', () => {
  it('page, matched pages and marks equal a naive scan of the pages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-hit-evidence-'));
    try {
      for (const seed of [21, 22, 23, 24]) {
        const random = seededRandom(seed);
        const word = (): string => VOCABULARY[Math.floor(random() ** 1.3 * VOCABULARY.length)];
        const naive: NaiveDoc[] = [];
        const docs: IndexDocument[] = [];
        for (let i = 0; i < 80; i++) {
          const id = `d${i}`;
          const title = random() < 0.4 ? [] : Array.from({ length: 1 + Math.floor(random() * 3) }, word);
          const paged = random() < 0.8;
          // Each page short enough that its whole text is the snippet (no page over ~170 characters).
          const pageWords = Array.from({ length: paged ? 1 + Math.floor(random() * 8) : 1 }, () =>
            Array.from({ length: random() < 0.1 ? 0 : Math.floor(random() * 22) }, word),
          );
          const pages: PageInfo[] = [];
          let text = '';
          pageWords.forEach((page, p) => {
            if (p > 0) text += '\n\n';
            pages.push({ number: p + 1, label: `p${p + 1}`, offset: text.length });
            text += page.join(' ');
          });
          docs.push({
            id,
            title: title.length > 0 ? title.join(' ') : null,
            text,
            pages: paged ? pages : null,
            metadata: {},
            format: paged ? 'pdf' : 'text',
            bytes: 1,
            indexedAt: 'now',
          });
          naive.push({ id, title, pages: pageWords, paged });
        }
        const path = join(dir, `${seed}.fseg`);
        writeSegment(path, docs, analyzer);
        const views = [{ reader: SegmentReader.open(path), deleted: null }];

        const docFreq = new Map<string, number>();
        for (const doc of naive) for (const t of new Set([...doc.title, ...doc.pages.flat()])) docFreq.set(t, (docFreq.get(t) ?? 0) + 1);
        const idf = (t: string): number => bm25Idf(naive.length, docFreq.get(t) ?? 0);
        // A page is the unit: the average text length per page (a document without pages is one).
        const pageStats = {
          docCount: naive.length,
          avgTitleLength: naive.reduce((sum, doc) => sum + doc.title.length, 0) / naive.length,
          avgTextLength: naive.reduce((sum, doc) => sum + doc.pages.flat().length, 0) / naive.reduce((sum, doc) => sum + doc.pages.length, 0),
        };
        const scoring: NaiveScoring = { idf, weight: (value, field) => new Bm25fWeight(value, pageStats, field) };
        const vocabulary = [...docFreq.keys()].sort();
        const byId = new Map(naive.map((doc) => [doc.id, doc]));

        let checked = 0;
        for (let q = 0; q < 80; q++) {
          const text = randomQuery(random, word);
          const match = random() < 0.3 ? 'all' : 'any';
          const result = searchSegments(views, analyzer, { q: text, match, offset: 0, limit: 100, highlightTag: 'mark' });
          const clauses = parseQuery(text, match, analyzer).clauses;
          for (const hit of result.hits) {
            const label = `seed ${seed} query ${JSON.stringify(text)} match=${match} doc ${hit.id}`;
            const doc = byId.get(hit.id)!;
            const expected = naiveEvidence(doc, clauses, scoring, vocabulary);
            assert.deepEqual(hit.matchedPages, expected.matchedPages, `matched pages for ${label}`);
            if (expected.pages === null) assert.equal(hit.page, null, `page for ${label}`);
            else assert.ok(typeof hit.page === 'number' && expected.pages.includes(hit.page), `page for ${label}: ${hit.page}, expected one of ${expected.pages}`);
            if (doc.paged) assert.equal(hit.pageLabel, `p${hit.page}`, `label for ${label}`);
            assert.deepEqual(markedWords(hit.highlight!), expected.marked[doc.paged ? hit.page! - 1 : 0], `marks for ${label}: ${hit.highlight}`);
            checked++;
          }
        }
        assert.ok(checked > 500, `enough hits checked (${checked})`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
