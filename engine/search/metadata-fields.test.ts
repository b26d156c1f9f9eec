// Searchable metadata fields (issue 30 point 1): a field's words are indexed as its own terms, so
// a search weighing it finds them (words, phrases, prefixes, typos, `author:word`), ranks them by
// the field's weight and length, highlights them in the hit's metadata, and leaves them out where
// a segment does not index the field yet; merges keep them, or index them from stored documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analyzer } from '../analysis/index.ts';
import { mergeSegments } from '../merge.ts';
import { DEFAULT_TYPO_TOLERANCE } from '../typo/typo-rules.ts';
import { SegmentReader } from '../segment/segment-reader.ts';
import { writeSegment } from '../segment/segment-writer.ts';
import { textDocument, withSegments } from '../../test/helpers/engine-segments.ts';
import type { SearchRequest } from './search-types.ts';
import { searchSegments } from './searcher.ts';
import type { SegmentView } from './segment-view.ts';

const analyzer = Analyzer.for('english');

const DOCS = [
  textDocument('taocp', 'Fundamental algorithms, sorting and searching.', { author: 'Donald E. Knuth', tags: ['algorithms', 'classic'] }, 'The Art of Computer Programming'),
  textDocument('about-knuth', 'A biography: Knuth wrote TeX.', { author: 'Someone Else' }, 'A life'),
  textDocument('sicp', 'Programs as data.', { author: ['Harold Abelson', 'Gerald Jay Sussman'], year: 1985 }, 'Structure and Interpretation'),
  textDocument('nothing', 'Nothing to see.', { author: 42 as unknown as string }, 'Other'),
];

const WEIGHTS = { title: 3, text: 1, metadata: { author: 2, tags: 1 } };

function search(views: SegmentView[], q: string, extra: Partial<SearchRequest> = {}) {
  return searchSegments(views, analyzer, { q, match: 'any', offset: 0, limit: 10, highlightTag: 'mark', fieldWeights: WEIGHTS, ...extra });
}
const ids = (result: { hits: { id: string }[] }): string[] => result.hits.map((hit) => hit.id);

test('a searchable metadata field is searched with its weight; title and text as before', () => {
  withSegments(
    analyzer,
    [DOCS],
    (views) => {
      assert.deepEqual(ids(search(views, 'knuth')).sort(), ['about-knuth', 'taocp']);
      assert.deepEqual(ids(search(views, 'knuth', { fieldWeights: { title: 3, text: 1 } })), ['about-knuth'], 'without the field in the weights it is not searched');
      assert.deepEqual(ids(search(views, 'knuth', { fieldWeights: { title: 3, text: 1, metadata: { author: 0 } } })), ['about-knuth'], 'weight 0: not searched');
      // Weighed heavily, the author match outranks the text match; lightly, the other way round.
      assert.deepEqual(ids(search(views, 'knuth', { fieldWeights: { title: 3, text: 1, metadata: { author: 20 } } })), ['taocp', 'about-knuth']);
      assert.deepEqual(ids(search(views, 'knuth', { fieldWeights: { title: 3, text: 1, metadata: { author: 0.05 } } })), ['about-knuth', 'taocp']);
      // Title (not text) and the metadata field: the word is looked for in both.
      assert.deepEqual(ids(search(views, 'knuth', { fieldWeights: { title: 1, text: 0, metadata: { author: 2 } } })), ['taocp']);
      // Only the metadata field.
      assert.deepEqual(ids(search(views, 'knuth', { fieldWeights: { title: 0, text: 0, metadata: { author: 1 } } })), ['taocp']);
      // Arrays of strings, and a number is not text.
      assert.deepEqual(ids(search(views, 'sussman')), ['sicp']);
      assert.deepEqual(ids(search(views, 'classic')), ['taocp']);
      assert.deepEqual(ids(search(views, '42')), []);
    },
    ['author', 'tags'],
  );
});

test('BM25F: a word in a metadata field and in the text counts more than in one, less than twice', () => {
  const docs = [
    textDocument('both', 'Wombat facts.', { author: 'Wombat Society' }, 'T'),
    textDocument('text-only', 'Wombat facts.', { author: 'Other Society' }, 'T'),
    textDocument('author-only', 'Other facts.', { author: 'Wombat Society' }, 'T'),
    textDocument('filler', 'Nothing.', { author: 'Nobody' }, 'T'),
  ];
  withSegments(
    analyzer,
    [docs],
    (views) => {
      const hits = search(views, 'wombat', { fieldWeights: { title: 3, text: 1, metadata: { author: 1 } }, explain: true }).hits;
      const score = (id: string): number => hits.find((hit) => hit.id === id)!.score;
      assert.equal(hits[0].id, 'both');
      assert.ok(score('both') < score('text-only') + score('author-only'), 'saturated once, not summed');
      assert.ok(Math.abs(score('text-only') - score('author-only')) < 1e-9, 'same weight, same length: same score');
      assert.match(JSON.stringify(hits[0].explain), /BM25F over its fields/);
    },
    ['author'],
  );
});

test('author:word, phrases within one value, prefixes and typos work in a metadata field', () => {
  withSegments(
    analyzer,
    [DOCS],
    (views) => {
      assert.deepEqual(ids(search(views, 'author:knuth')), ['taocp'], 'scoped to the field');
      assert.deepEqual(ids(search(views, 'metadata.author:knuth')), ['taocp']);
      assert.deepEqual(ids(search(views, 'author:knuth', { fieldWeights: { title: 3, text: 1, metadata: { author: 0 } } })), ['taocp'], 'a field the search leaves out can still be named');
      assert.deepEqual(ids(search(views, 'text:knuth')), ['about-knuth']);
      assert.deepEqual(ids(search(views, '-author:knuth')).sort(), ['about-knuth', 'nothing', 'sicp']);
      assert.deepEqual(ids(search(views, '"gerald jay sussman"')), ['sicp'], 'a phrase within one value');
      assert.deepEqual(ids(search(views, '"abelson gerald"')), [], 'no phrase across two values of an array');
      assert.deepEqual(ids(search(views, 'sussm*')), ['sicp'], 'a prefix of a word only the field has');
      assert.deepEqual(ids(search(views, 'susman', { typoTolerance: DEFAULT_TYPO_TOLERANCE })), ['sicp'], 'a typo of a word only the field has');
      assert.deepEqual(ids(search(views, 'susman', { typoTolerance: { ...DEFAULT_TYPO_TOLERANCE, disableOnFields: ['text'] } })), [], 'no typos where text has none');
      assert.ok(!ids(search(views, 'author:knuth', { fieldWeights: undefined })).includes('taocp'), 'no field weights: metadata fields are not searched, author: is plain text');
    },
    ['author', 'tags'],
  );
});

test('hits highlight the metadata values the query matched in, escaped', () => {
  const docs = [textDocument('a', 'Body.', { author: 'Knuth <script>', tags: ['x', 'knuth & co'] }, 'T')];
  withSegments(
    analyzer,
    [docs],
    (views) => {
      const hit = search(views, 'knuth').hits[0];
      assert.deepEqual(hit.metadataHighlights, { author: '<mark>Knuth</mark> &lt;script&gt;', tags: ['x', '<mark>knuth</mark> &amp; co'] });
      assert.equal(search(views, 'body').hits[0].metadataHighlights, undefined, 'no match in a field: nothing');
      const explain = JSON.stringify(search(views, 'knuth', { explain: true }).hits[0].explain);
      assert.match(explain, /in metadata\.author \(weight 2/);
    },
    ['author', 'tags'],
  );
});

test('a field some segment does not index yet is not searched at all', () => {
  withSegments(
    analyzer,
    [DOCS.slice(0, 2), DOCS.slice(2)],
    (views) => {
      assert.deepEqual(ids(search(views, 'sussman')), [], 'the second segment lacks author: the field waits');
      assert.deepEqual(ids(search(views, 'author:knuth')), [], 'author:word matches nothing until then (it is not text)');
      assert.deepEqual(ids(search(views, 'knuth')), ['about-knuth']);
    },
    [['author'], []],
  );
});

test('merges keep a field\'s words, or index them from the stored documents when the fields differ', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-field-merge-'));
  try {
    const a = join(dir, 'a.fseg');
    const b = join(dir, 'b.fseg');
    writeSegment(a, DOCS.slice(0, 2), analyzer, ['author']);
    writeSegment(b, DOCS.slice(2), analyzer, ['author']);
    const sources = [a, b].map((path) => ({ reader: SegmentReader.open(path), deleted: null }));
    const encoded = join(dir, 'encoded.fseg');
    mergeSegments(encoded, sources, analyzer, ['author']);
    const rebuilt = join(dir, 'rebuilt.fseg');
    writeSegment(rebuilt, DOCS, analyzer, ['author']);
    const reindexed = join(dir, 'reindexed.fseg');
    mergeSegments(reindexed, sources, analyzer, ['author', 'tags']);
    const dropped = join(dir, 'dropped.fseg');
    mergeSegments(dropped, sources, analyzer, []);
    for (const source of sources) source.reader.close();
    const open = (path: string): SegmentView[] => [{ reader: SegmentReader.open(path), deleted: null }];
    const [mergedViews, rebuiltViews, reindexedViews, droppedViews] = [encoded, rebuilt, reindexed, dropped].map(open);
    assert.deepEqual(mergedViews[0].reader.searchFields, ['author']);
    const scores = (views: SegmentView[], q: string) => search(views, q).hits.map((hit) => [hit.id, hit.score]);
    assert.deepEqual(scores(mergedViews, 'knuth sussman'), scores(rebuiltViews, 'knuth sussman'), 'an encoded merge scores as a fresh build');
    assert.deepEqual(reindexedViews[0].reader.searchFields, ['author', 'tags']);
    assert.deepEqual(ids(search(reindexedViews, 'classic')), ['taocp']);
    assert.deepEqual(droppedViews[0].reader.searchFields, []);
    assert.deepEqual(ids(search(droppedViews, 'sussman')), []);
    for (const views of [mergedViews, rebuiltViews, reindexedViews, droppedViews]) views[0].reader.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
