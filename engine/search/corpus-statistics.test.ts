// Several collections searched as one (corpus-statistics.ts): with the statistics of all of them
// added, each collection scores its documents exactly as one collection holding every document
// would — for words, typos, prefixes, phrases, searched metadata fields and documents with pages
// — and without them the scores differ (the test can fail).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../analysis/index.ts';
import { textDocument, withSegments } from '../../test/helpers/engine-segments.ts';
import type { IndexDocument } from '../document.ts';
import { seededRandom } from '../vectors/seeded-random.ts';
import { corpusStatistics } from './corpus-statistics-pass.ts';
import { addCorpusStatistics } from './corpus-statistics.ts';
import type { SearchRequest } from './search-types.ts';
import { searchSegments } from './searcher.ts';
import type { SegmentView } from './segment-view.ts';

const analyzer = Analyzer.for('english');
const WORDS = ['gnuplot', 'histogram', 'plotting', 'axis', 'label', 'legend', 'colour', 'terminal', 'output', 'scale', 'matrix', 'vector', 'curve', 'fitting', 'data'];

function corpus(): IndexDocument[] {
  const random = seededRandom(7);
  const pick = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(random() * random() * WORDS.length)]).join(' ');
  const docs = Array.from({ length: 60 }, (_, i) => textDocument(`d${i}`, pick(3 + Math.floor(random() * 30)), { author: pick(2) }, pick(1 + Math.floor(random() * 3))));
  // A document with pages: page-level ranking weighs pages with the corpus's page statistics.
  const first = pick(20);
  docs.push(textDocument('paged', `${first} ${pick(25)}`, {}, 'Manual', [
    { number: 1, label: null, offset: 0 },
    { number: 2, label: null, offset: first.length + 1 },
  ]));
  return docs;
}

const base = (q: string, extra: Partial<SearchRequest>): SearchRequest => ({ q, match: 'any', offset: 0, limit: 100, highlightTag: 'mark', hitFields: [], ...extra });
const QUERIES: [string, Partial<SearchRequest>][] = [
  ['gnuplot histogram', {}],
  ['colour axis label', { match: 'all' }],
  ['histgram', { typos: 1, typoTolerance: { enabled: true, minWordSize: { oneTypo: 5, twoTypos: 9 }, disableOnNumbers: true, disableOnFields: [] } }],
  ['plot', { prefix: 'last' }],
  ['"gnuplot gnuplot" histogram', {}],
  ['matrix vector', { fieldWeights: { title: 2, text: 1, metadata: { author: 1 } } }],
];

function scoresOf(views: readonly SegmentView[], request: SearchRequest): Map<string, number> {
  return new Map(searchSegments(views, analyzer, request).hits.map((hit) => [hit.id, hit.score]));
}

test('collections searched with their added statistics score as one collection', () => {
  const docs = corpus();
  const random = seededRandom(11);
  const parts: IndexDocument[][] = [[], [], []];
  for (const doc of docs) parts[Math.floor(random() * 3)].push(doc);
  withSegments(analyzer, [docs, ...parts], (views) => {
    const single = views.slice(0, 1);
    const collections = [views.slice(1, 2), views.slice(2, 3), views.slice(3, 4)];
    let differedWithout = 0;
    for (const [q, extra] of QUERIES) {
      const request = base(q, extra);
      const expected = scoresOf(single, request);
      assert.ok(expected.size > 1, `${q}: matches several documents`);
      const corpus = addCorpusStatistics(collections.map((views) => corpusStatistics(views, analyzer, request)));
      const federated = new Map<string, number>();
      const alone = new Map<string, number>();
      for (const views of collections) {
        for (const [id, score] of scoresOf(views, { ...request, corpus })) federated.set(id, score);
        for (const [id, score] of scoresOf(views, request)) alone.set(id, score);
      }
      assert.deepEqual([...federated.keys()].sort(), [...expected.keys()].sort(), `${q}: the same documents match`);
      for (const [id, score] of expected) assert.ok(Math.abs(federated.get(id)! - score) < 1e-9 * score, `${q}: ${id} scores ${federated.get(id)} federated, ${score} in one collection`);
      if ([...expected].some(([id, score]) => Math.abs(alone.get(id)! - score) > 1e-6 * score)) differedWithout++;
    }
    assert.equal(differedWithout, QUERIES.length, 'each collection alone scores differently');
  }, ['author']);
});
