// Search by meaning in the engine: passages never cross pages; vector files round-trip and
// merge without re-embedding; semantic search (filters and deletes applied before ranking)
// returns exactly what a brute-force scan of every live, admissible passage returns; hybrid
// fusion puts a document found by both sides first; semantic hits name their passage's page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RoaringBitmap32 } from '../../storage/index.ts';
import { Analyzer } from '../analysis/index.ts';
import type { IndexDocument } from '../document.ts';
import { parseFilter } from '../filter/index.ts';
import { matchesFilter } from '../filter/index.ts';
import { searchSegments } from '../search/searcher.ts';
import type { SegmentView } from '../search/segment-view.ts';
import { SegmentReader } from '../segment/segment-reader.ts';
import { writeSegment } from '../segment/segment-writer.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { PASSAGE_OVERLAP_WORDS, PASSAGE_WORDS, cutPassages, passageText } from './passages.ts';
import { normalizeVector } from './quantization.ts';
import { GRAPH_MIN_PASSAGES, VectorReader, mergeVectorFiles, writeVectorFile } from './vector-file.ts';
import type { EmbeddedPassage } from './vector-file.ts';
import { semanticSearch } from '../search/semantic-search.ts';
import { fuseRankings } from '../search/hybrid-fusion.ts';

const analyzer = Analyzer.for('english');
const DIMS = 16;

function doc(id: string, text: string, metadata: IndexDocument['metadata'] = {}, pages: IndexDocument['pages'] = null): IndexDocument {
  return { id, title: null, text, pages, metadata, format: 'text', bytes: text.length, indexedAt: '2026-11-24T00:00:00Z' };
}

function randomVector(random: () => number): number[] {
  return Array.from({ length: DIMS }, () => random() * 2 - 1);
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

test('passages: about PASSAGE_WORDS words, overlapping, never across a page', () => {
  const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
  const page1 = words(450, 'a');
  const page2 = words(30, 'b');
  const text = `${page1}\n${page2}`;
  const passages = cutPassages({ text, pages: [{ number: 1, label: null, offset: 0 }, { number: 2, label: 'ii', offset: page1.length + 1 }] });
  const onPage = (page: number) => passages.filter((p) => p.page === page);
  assert.equal(onPage(0).length, 3);
  assert.equal(onPage(1).length, 1);
  for (const passage of passages) {
    const slice = text.slice(passage.start, passage.end);
    assert.ok(slice.split(/\s+/).length <= PASSAGE_WORDS);
    assert.ok(!slice.includes('\n'), 'a passage never crosses a page');
  }
  const second = text.slice(passages[1].start, passages[1].end).split(' ');
  assert.equal(second[0], `a${PASSAGE_WORDS - PASSAGE_OVERLAP_WORDS}`);
  assert.deepEqual(cutPassages({ text: '', pages: null }), [{ page: -1, start: 0, end: 0 }]);
  assert.equal(
    passageText('{{title}} | {{metadata.tag}} | {{text}} {{unknown}}', { title: 'T', text: 'hello world', metadata: { tag: ['x', 'y'] } }, { page: -1, start: 6, end: 11 }),
    'T | x, y | world',
  );
});

test('semantic search equals a brute-force scan of live, admissible passages; merges keep vectors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-vectors-'));
  try {
    const random = seededRandom(7);
    const segments: { reader: SegmentReader; vectors: VectorReader; deleted: RoaringBitmap32 | null; docs: IndexDocument[]; passageVectors: number[][][] }[] = [];
    for (let s = 0; s < 3; s++) {
      const docs = Array.from({ length: 60 }, (_, i) => doc(`s${s}d${String(i).padStart(2, '0')}`, `document ${i} of segment ${s}`, { group: i % 5, tag: i % 2 === 0 ? 'even' : 'odd' }));
      const path = join(dir, `seg-${s}.fseg`);
      writeSegment(path, docs, analyzer);
      const passageVectors = docs.map(() => Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomVector(random)));
      const passages: EmbeddedPassage[] = [];
      passageVectors.forEach((vectors, d) => vectors.forEach((vector, p) => passages.push({ doc: d, page: -1, start: p, end: p + 1, vector })));
      writeVectorFile(join(dir, `seg-${s}.vec`), { embedder: 'e', model: 'test', dims: DIMS, docCount: docs.length, passages });
      const deleted = s === 1 ? RoaringBitmap32.from([0, 3, 4, 10, 59]) : null;
      segments.push({ reader: SegmentReader.open(path), vectors: VectorReader.open(join(dir, `seg-${s}.vec`)), deleted, docs, passageVectors });
    }
    const views: SegmentView[] = segments.map(({ reader, vectors, deleted }) => ({ reader, deleted, vectors: new Map([['e', vectors]]) }));
    for (const filterText of [null, '{"group": 2}', '{"$or": [{"tag": "even"}, {"group": {"gte": 4}}]}']) {
      const filter = filterText === null ? null : parseFilter(JSON.parse(filterText));
      for (let q = 0; q < 5; q++) {
        const query = normalizeVector(randomVector(random));
        const k = 10;
        const expected: { id: string; score: number }[] = [];
        segments.forEach(({ docs, deleted, passageVectors }) => {
          docs.forEach((d, i) => {
            if (deleted?.has(i) || (filter !== null && !matchesFilter(filter, d.metadata))) return;
            const best = Math.max(...passageVectors[i].map((v) => dot(query, normalizeVector(v))));
            expected.push({ id: d.id, score: best });
          });
        });
        expected.sort((a, b) => b.score - a.score);
        const result = semanticSearch(views, 'e', query, k, filter);
        assert.equal(result.candidates, expected.length);
        const ids = result.hits.map((hit) => views[hit.segment].reader.docId(hit.doc));
        assert.deepEqual(ids, expected.slice(0, k).map((e) => e.id), `filter ${filterText}, query ${q}`);
        result.hits.forEach((hit, i) => assert.ok(Math.abs(hit.score - expected[i].score) < 1e-5));
      }
    }

    // A merge of segments 0 and 1 (with its deletes) carries their vectors over to the new doc numbers.
    const merged = join(dir, 'merged.vec');
    const sources = [0, 1].map((s) => ({ vectors: segments[s].vectors, docCount: 60, isDeleted: (d: number) => segments[s].deleted?.has(d) ?? false }));
    assert.equal(mergeVectorFiles(merged, 'e', sources), true);
    const mergedReader = VectorReader.open(merged);
    assert.equal(mergedReader.docCount, 115);
    // Doc 60 of the merged segment is segment 1's doc 1 (doc 0 was deleted).
    const [first] = mergedReader.passagesOf(60);
    const [sourceFirst] = segments[1].vectors.passagesOf(1);
    assert.deepEqual([...mergedReader.vector(first)], [...segments[1].vectors.vector(sourceFirst)]);
    assert.equal(mergeVectorFiles(join(dir, 'none.vec'), 'e', [{ vectors: null, docCount: 1, isDeleted: () => false }]), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a segment with a graph: filtered, deleted docs never returned; high recall; a selective filter scans exactly', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-vectors-'));
  try {
    const random = seededRandom(11);
    const count = GRAPH_MIN_PASSAGES + 1_000;
    const centroids = Array.from({ length: 20 }, () => randomVector(random));
    const docs = Array.from({ length: count }, (_, i) => doc(`g${String(i).padStart(5, '0')}`, `doc ${i}`, { group: i % 10 }));
    const vectors = docs.map((_, i) => centroids[i % 20].map((value) => value + (random() - 0.5) * 0.6));
    writeSegment(join(dir, 'g.fseg'), docs, analyzer);
    writeVectorFile(join(dir, 'g.vec'), { embedder: 'e', model: 'test', dims: DIMS, docCount: count, passages: vectors.map((vector, d) => ({ doc: d, page: -1, start: 0, end: 1, vector })) });
    const reader = VectorReader.open(join(dir, 'g.vec'));
    assert.ok(reader.graph !== null, 'a file this large has a graph');
    const deleted = RoaringBitmap32.from(Array.from({ length: 300 }, (_, i) => i * 7));
    const views: SegmentView[] = [{ reader: SegmentReader.open(join(dir, 'g.fseg')), deleted, vectors: new Map([['e', reader]]) }];
    let found = 0;
    let wanted = 0;
    // `group: 3` admits under 10 % of the docs (some are deleted): scanned, so exactly the brute-force answer.
    for (const [filterText, exact] of [[null, false], ['{"group": {"lt": 4}}', false], ['{"group": 3}', true]] as const) {
      const filter = filterText === null ? null : parseFilter(JSON.parse(filterText));
      for (let q = 0; q < 10; q++) {
        const query = normalizeVector(centroids[q % 20].map((value) => value + (random() - 0.5) * 0.6));
        const expected = docs
          .map((d, i) => ({ id: d.id, i, score: dot(query, normalizeVector(vectors[i])) }))
          .filter(({ i }) => !deleted.has(i) && (filter === null || matchesFilter(filter, docs[i].metadata)))
          .sort((a, b) => b.score - a.score)
          .slice(0, 10);
        const result = semanticSearch(views, 'e', query, 10, filter);
        const ids = result.hits.map((hit) => views[0].reader.docId(hit.doc));
        for (const hit of result.hits) {
          assert.ok(!deleted.has(hit.doc), 'a deleted doc is never returned');
          assert.ok(filter === null || matchesFilter(filter, docs[hit.doc].metadata), 'a filtered-out doc is never returned');
          assert.ok(Math.abs(hit.score - dot(query, normalizeVector(vectors[hit.doc]))) < 1e-5, 'scores are exact');
        }
        const expectedIds = new Set(expected.map((e) => e.id));
        found += ids.filter((id) => expectedIds.has(id)).length;
        wanted += expected.length;
        if (exact) assert.deepEqual(ids, expected.map((e) => e.id));
      }
    }
    assert.ok(found / wanted >= 0.95, `recall@10 ${found / wanted}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('semantic and hybrid searches over a segment: passage pages, snippets, fusion and coverage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-vectors-'));
  try {
    const pages = [{ number: 1, label: 'i', offset: 0 }, { number: 2, label: null, offset: 25 }];
    const docs = [
      doc('cats', 'The cat sat on the mat..\nIt purred all afternoon long in the sun.', {}, pages),
      doc('stocks', 'Markets fell sharply on Monday.'),
      doc('bread', 'Bake the bread with flour and water.'),
    ];
    writeSegment(join(dir, 'a.fseg'), docs, analyzer);
    writeSegment(join(dir, 'b.fseg'), [doc('unembedded', 'The cat again')], analyzer);
    // Hand-made "embeddings": one axis per topic.
    const axis = (i: number) => Array.from({ length: 4 }, (_, j) => (j === i ? 1 : 0.05));
    writeVectorFile(join(dir, 'a.vec'), {
      embedder: 'e',
      model: 'test',
      dims: 4,
      docCount: 3,
      passages: [
        { doc: 0, page: 0, start: 0, end: 24, vector: axis(3) },
        { doc: 0, page: 1, start: 25, end: 66, vector: axis(0) },
        { doc: 1, page: -1, start: 0, end: 31, vector: axis(1) },
        { doc: 2, page: -1, start: 0, end: 36, vector: axis(2) },
      ],
    });
    const views: SegmentView[] = [
      { reader: SegmentReader.open(join(dir, 'a.fseg')), deleted: null, vectors: new Map([['e', VectorReader.open(join(dir, 'a.vec'))]]) },
      { reader: SegmentReader.open(join(dir, 'b.fseg')), deleted: null },
    ];
    const base = { match: 'any' as const, offset: 0, limit: 10, highlightTag: 'mark' };
    const semantic = searchSegments(views, analyzer, { ...base, q: 'anything', mode: 'semantic', semantic: { embedder: 'e', vector: axis(0), ratio: 1 } });
    assert.equal(semantic.hits[0].id, 'cats');
    assert.equal(semantic.hits[0].page, 2, 'the page of the best passage');
    assert.equal(semantic.hits[0].pageLabel, null);
    assert.deepEqual(semantic.hits[0].matchedPages, [2]);
    assert.match(semantic.hits[0].snippet!, /purred/);
    assert.equal(semantic.total, 3);
    assert.equal(semantic.semanticCoverage, 0.75);

    // Hybrid: "bread" matches by keyword, "stocks" by meaning; both sides rank them.
    const hybrid = searchSegments(views, analyzer, { ...base, q: 'bread', mode: 'hybrid', explain: true, semantic: { embedder: 'e', vector: axis(1), ratio: 0.5 } });
    assert.deepEqual(hybrid.hits.slice(0, 2).map((hit) => hit.id).sort(), ['bread', 'stocks']);
    assert.match(hybrid.hits.find((hit) => hit.id === 'bread')!.highlight!, /<mark>bread<\/mark>/);
    assert.match(hybrid.hits[0].explain!.description, /convex fusion/);
    const keywordOnly = searchSegments(views, analyzer, { ...base, q: 'bread', mode: 'hybrid', semantic: { embedder: 'e', vector: axis(1), ratio: 0 } });
    assert.equal(keywordOnly.hits[0].id, 'bread');
    const meaningOnly = searchSegments(views, analyzer, { ...base, q: 'bread', mode: 'hybrid', semantic: { embedder: 'e', vector: axis(1), ratio: 1 } });
    assert.equal(meaningOnly.hits[0].id, 'stocks');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fusion: convex combination of scores divided by each side’s best, and RRF', () => {
  const keyword = [{ segment: 0, doc: 1, score: 10 }, { segment: 0, doc: 2, score: 5 }, { segment: 0, doc: 3, score: 1 }];
  const semantic = [{ segment: 0, doc: 3, score: 0.9 }, { segment: 0, doc: 2, score: 0.72 }, { segment: 0, doc: 4, score: -0.1 }];
  const convex = fuseRankings(keyword, semantic, 0.5, 'convex');
  assert.deepEqual(convex.map((d) => d.doc), [2, 3, 1, 4]);
  assert.ok(Math.abs(convex[0].score - (0.5 * 0.5 + 0.5 * 0.8)) < 1e-9);
  // The last keyword candidate keeps its share (min-max would make it 0, like an absent doc).
  assert.ok(Math.abs(convex.find((d) => d.doc === 3)!.score - (0.5 * 0.1 + 0.5 * 1)) < 1e-9);
  // A negative cosine counts 0, never below a doc the semantic side did not return.
  assert.equal(convex.find((d) => d.doc === 4)!.score, 0);
  const rrf = fuseRankings(keyword, semantic, 0.5, 'rrf');
  // 0.5/63 + 0.5/61 (ranks 3 and 1) edges out 0.5/62 + 0.5/62 (ranks 2 and 2).
  assert.deepEqual(rrf.map((d) => d.doc), [3, 2, 1, 4]);
  assert.deepEqual(fuseRankings(keyword, semantic, 0, 'convex').map((d) => d.doc).slice(0, 3), [1, 2, 3]);
});
