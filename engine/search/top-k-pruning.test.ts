// Skipping what cannot win changes nothing a caller sees: on random corpora (several segments,
// deleted docs, titles, skewed word frequencies and lengths) and random queries, a top-k search —
// its total counted without scoring, then ranked by block-max MaxScore or WAND over the blocks'
// impacts — answers the same hits, scores and total as exhaustive scoring: a search whose window
// holds every match, so nothing can be skipped. Also the impacts themselves: every doc of a
// block is beaten by one of its impacts, and each impact is a doc of the block. And a segment
// written before impacts existed (layout 5) answers the same, and a merge rewrites it with them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RoaringBitmap32, readSegmentFile, writeSegmentFile } from '../../storage/index.ts';
import { Analyzer } from '../analysis/index.ts';
import { parseFilter } from '../filter/index.ts';
import { DEFAULT_TYPO_TOLERANCE } from '../typo/typo-rules.ts';
import { TOTAL_EXACT_UP_TO } from './search-types.ts';
import type { IndexDocument } from '../document.ts';
import { mergeSegments } from '../merge.ts';
import { SECTION, SEGMENT_LAYOUT_VERSION } from '../segment/segment-format.ts';
import { IMPACT_WORDS, ImpactsWriter, MAX_BLOCK_IMPACTS, readImpacts } from '../segment/impacts.ts';
import { SegmentReader } from '../segment/segment-reader.ts';
import { writeSegment } from '../segment/segment-writer.ts';
import { prepareQuery, searchSegments } from './searcher.ts';
import { rankingScorers } from './clauses/index.ts';
import { collectMaxScore } from './max-score.ts';
import { RelevanceSink } from './relevance-sink.ts';
import { TopKCollector } from './top-k-collector.ts';
import { TypoVariantsScorer } from './scorers/typo-variants-scorer.ts';
import { SearchBudget } from './search-budget.ts';
import type { SearchRequest } from './search-types.ts';
import type { SegmentView } from './segment-view.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';

const analyzer = Analyzer.for('none');
const VOCABULARY = Array.from({ length: 40 }, (_, i) => `w${i}`);
/** Words one typo apart from many others (termai … termhm), so a query word has typo variants. */
const TYPO_VOCABULARY = Array.from({ length: 40 }, (_, i) => `term${'abcdefgh'[i % 8]}${'ijklm'[Math.floor(i / 8)]}`);
let vocabulary = VOCABULARY;

/** A word drawn with a Zipf-like skew: the first is in most docs, the last in few. */
function word(random: () => number): string {
  return vocabulary[Math.min(vocabulary.length - 1, Math.floor(vocabulary.length * random() ** 2.5))];
}

function randomDocs(random: () => number, first: number, count: number): IndexDocument[] {
  const docs: IndexDocument[] = [];
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    const length = 1 + Math.floor(random() ** 2 * 200);
    for (let w = 0; w < length; w++) words.push(random() < 0.1 ? word(random) + ' ' + word(random) : word(random));
    const title = random() < 0.5 ? Array.from({ length: 1 + Math.floor(random() * 6) }, () => word(random)).join(' ') : null;
    const n = first + i;
    docs.push({ id: `d${String(n).padStart(6, '0')}`, title, text: words.join(' '), pages: null, metadata: { shelf: n % 3 }, format: 'text', bytes: 1, indexedAt: 'now' });
  }
  return docs;
}

function withCorpus(seed: number, run: (views: SegmentView[], random: () => number) => void, maxSegmentDocs = 1_700): void {
  const dir = mkdtempSync(join(tmpdir(), 'folio-pruning-'));
  const random = seededRandom(seed);
  try {
    const views: SegmentView[] = [];
    let first = 0;
    const segments = 1 + Math.floor(random() * 3);
    for (let segment = 0; segment < segments; segment++) {
      const count = 200 + Math.floor(random() * (maxSegmentDocs - 200));
      const path = join(dir, `${segment}.fseg`);
      writeSegment(path, randomDocs(random, first, count), analyzer);
      first += count;
      const deleted = new RoaringBitmap32();
      if (random() < 0.5) for (let doc = 0; doc < count; doc++) if (random() < 0.1) deleted.add(doc);
      views.push({ reader: SegmentReader.open(path), deleted: deleted.size === 0 ? null : deleted });
    }
    run(views, random);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const search = (views: SegmentView[], q: string, more: Partial<SearchRequest>) =>
  searchSegments(views, analyzer, { q, match: 'any', offset: 0, limit: 10, highlightTag: 'mark', ...more });

/** Random queries over random corpora: pruned and exhaustive searches answer the same. */
function checkPruning(seeds: readonly number[], more: Partial<SearchRequest>, maxSegmentDocs?: number): void {
  for (const seed of seeds) {
    withCorpus(seed, (views, random) => {
      const docs = views.reduce((sum, view) => sum + view.reader.docCount, 0);
      for (let q = 0; q < 25; q++) {
        const words = Array.from({ length: 1 + Math.floor(random() * 4) }, () => word(random));
        const query = words.join(' ');
        const limit = [1, 3, 10, 25][Math.floor(random() * 4)];
        const filter = random() < 0.2 ? parseFilter({ shelf: 1 }) : undefined;
        const request: Partial<SearchRequest> = { ...more, limit, ...(filter !== undefined && { filter }) };
        const pruned = search(views, query, request);
        const exhaustive = search(views, query, { ...request, limit: docs });
        const label = `seed ${seed}, '${query}', limit ${limit}${filter === undefined ? '' : ', filtered'}`;
        // Past TOTAL_EXACT_UP_TO, a search that counts ahead says so; one that marks every match knows.
        const total = exhaustive.total >= TOTAL_EXACT_UP_TO && exhaustive.totalRelation === 'gte' ? [TOTAL_EXACT_UP_TO, 'gte'] : [exhaustive.total, 'eq'];
        assert.deepEqual([pruned.total, pruned.totalRelation], total, label);
        assert.deepEqual(
          pruned.hits.map((hit) => [hit.id, hit.score]),
          exhaustive.hits.slice(0, limit).map((hit) => [hit.id, hit.score]),
          label,
        );
        // A match set (trackTotal) ranks by WAND with the threshold from the start: the same again.
        const tracked = search(views, query, { ...request, trackTotal: true });
        assert.deepEqual(tracked.hits.map((hit) => [hit.id, hit.score]), pruned.hits.map((hit) => [hit.id, hit.score]), `${label}, trackTotal`);
        if (exhaustive.totalRelation === 'eq') assert.equal(tracked.total, exhaustive.total, `${label}, trackTotal`);
      }
    }, maxSegmentDocs);
  }
}

test('top k with pruning: the same hits, scores and total as scoring every match', () => {
  checkPruning([1, 2, 3, 4, 5, 6, 7, 8], {});
});

test('a window whose words are all required does not leap past its end into docs the next window would keep', () => {
  // `text:a` is no plain term (a field scope), so the window is walked doc by doc, not intersected.
  // Docs 0-127 hold a and b (the first window sets the threshold: a's and b's scores summed);
  // in 128-255 both are required by the blocks' bounds, and doc 255 has a alone, where b's next
  // doc is 400. Doc 300, a alone and short, is the best match: the next window's bound on a
  // alone reaches the threshold, so a lead that leapt from 255 to 400 would never see it.
  const filler = Array.from({ length: 18 }, (_, i) => `f${i}`).join(' ');
  const text = (n: number): string => {
    if (n === 300) return 'a a a';
    const a = n <= 255 ? 'a ' : '';
    const b = n <= 254 || (n >= 400 && n <= 450) ? 'b ' : '';
    return `${a}${b}${filler}${a === '' ? ' x' : ''}${b === '' ? ' y' : ''}`;
  };
  const dir = mkdtempSync(join(tmpdir(), 'folio-leap-'));
  try {
    const docs: IndexDocument[] = Array.from({ length: 460 }, (_, n) => ({ id: `d${String(n).padStart(3, '0')}`, title: null, text: text(n), pages: null, metadata: {}, format: 'text', bytes: 1, indexedAt: 'now' }));
    writeSegment(join(dir, 'leap.fseg'), docs, analyzer);
    const views: SegmentView[] = [{ reader: SegmentReader.open(join(dir, 'leap.fseg')), deleted: null }];
    const top = search(views, 'text:a b', { limit: 1 });
    const all = search(views, 'text:a b', { limit: 460 });
    assert.equal(all.hits[0].id, 'd300');
    assert.deepEqual(top.hits.map((hit) => [hit.id, hit.score]), [[all.hits[0].id, all.hits[0].score]]);
    views[0].reader.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('top k with pruning and typo variants: the same hits, scores and total as scoring every match', () => {
  vocabulary = TYPO_VOCABULARY;
  try {
    checkPruning([1, 2], { typoTolerance: DEFAULT_TYPO_TOLERANCE });
  } finally {
    vocabulary = VOCABULARY;
  }
});

test('ties: the lowest ids win, in segments whose ids ascend, interleave across segments, or do not ascend', () => {
  // Docs drawn from a few texts, so most scores are tied exactly; where a segment's doc numbers
  // follow id order, pruning skips docs tied with the worst kept hit once every later doc's id is
  // above its id (relevance-sink.ts tiesLoseFrom) — which must never drop a tied doc of lower id,
  // whether it sits later in the same segment or in another segment searched after.
  const texts = ['w1 w2 w3 x x', 'w1 w1 w2 x x x', 'w2 w3 x', 'w1 w3 w3 x x x x', 'w1 w2 w3 w4', 'w4 x x'];
  const dir = mkdtempSync(join(tmpdir(), 'folio-ties-'));
  try {
    for (const seed of [11, 12, 13, 14]) {
      const random = seededRandom(seed);
      const doc = (n: number): IndexDocument => ({ id: `t${String(n).padStart(5, '0')}`, title: null, text: texts[Math.floor(random() * texts.length)], pages: null, metadata: {}, format: 'text', bytes: 1, indexedAt: 'now' });
      // Segment 0: the upper half of the ids; 1: the even ids of the lower half; 2: the odd ones, in no order.
      const ranges = [
        Array.from({ length: 1500 }, (_, i) => 3000 + i),
        Array.from({ length: 1500 }, (_, i) => 2 * i),
        Array.from({ length: 1500 }, (_, i) => 2 * i + 1).sort(() => random() - 0.5),
      ];
      const views: SegmentView[] = ranges.map((ids, segment) => {
        const path = join(dir, `${seed}-${segment}.fseg`);
        writeSegment(path, ids.map(doc), analyzer);
        return { reader: SegmentReader.open(path), deleted: null };
      });
      assert.deepEqual(views.map((view) => view.reader.idsAscending()), [true, true, false]);
      for (const query of ['w1', 'w2 w3', 'w1 w4', 'w3 x', 'w1 w2 w3', 'x']) {
        for (const limit of [1, 10, 25]) {
          const pruned = search(views, query, { limit });
          const exhaustive = search(views, query, { limit: 4500 });
          assert.deepEqual(
            pruned.hits.map((hit) => [hit.id, hit.score]),
            exhaustive.hits.slice(0, limit).map((hit) => [hit.id, hit.score]),
            `seed ${seed}, '${query}', limit ${limit}`,
          );
        }
      }
      for (const view of views) view.reader.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('blocks whose best doc only ties the worst kept hit are skipped unread, once a later doc cannot win a tie', () => {
  // 100 blocks of the same doc: every score is tied, and with ids in doc order the first ten
  // docs are the top 10. The kept bounds are rounded up (float32s), so they sit just above the
  // threshold; weighed exactly, each block's bound equals it, and nothing past the first block is
  // read. The budget's clock is read once per 4,096 docs visited.
  const dir = mkdtempSync(join(tmpdir(), 'folio-tied-blocks-'));
  try {
    const docs: IndexDocument[] = Array.from({ length: 12_800 }, (_, n) => ({ id: `d${String(n).padStart(5, '0')}`, title: null, text: 'w1 x', pages: null, metadata: {}, format: 'text', bytes: 1, indexedAt: 'now' }));
    writeSegment(join(dir, 'tied.fseg'), docs, analyzer);
    const views: SegmentView[] = [{ reader: SegmentReader.open(join(dir, 'tied.fseg')), deleted: null }];
    let clockReads = 0;
    const budget = new SearchBudget(Number.MAX_VALUE, () => {
      clockReads++;
      return 0;
    });
    const result = searchSegments(views, analyzer, { q: 'w1', match: 'any', offset: 0, limit: 10, highlightTag: 'mark' }, budget);
    assert.deepEqual(result.hits.map((hit) => hit.id), docs.slice(0, 10).map((doc) => doc.id));
    assert.equal(result.total, TOTAL_EXACT_UP_TO);
    assert.equal(clockReads, 0, 'docs past the first blocks were visited');
    views[0].reader.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a block keeps, as its impacts, the docs no other beats on every tf and length', () => {
  const random = seededRandom(99);
  for (let block = 0; block < 300; block++) {
    const writer = new ImpactsWriter();
    const docs: number[][] = [];
    const count = 1 + Math.floor(random() * 128);
    for (let i = 0; i < count; i++) {
      const titleTf = random() < 0.6 ? 0 : 1 + Math.floor(random() * 4);
      const textTf = titleTf > 0 && random() < 0.3 ? 0 : 1 + Math.floor(random() ** 3 * 60);
      const doc = [titleTf, titleTf === 0 ? 0 : 1 + Math.floor(random() * 12), textTf, textTf === 0 ? 0 : textTf + Math.floor(random() * 400)];
      docs.push(doc);
      writer.addDoc(doc[0], doc[1], doc[2], doc[3]);
    }
    writer.finishBlock(0);
    const offsets = new Uint32Array((writer.offsetsSection() as Uint8Array).slice().buffer);
    const out = new Uint32Array(MAX_BLOCK_IMPACTS * IMPACT_WORDS);
    let impacts = readImpacts(writer.impactsSection() as Uint8Array, offsets, 0, out);
    const kept: number[][] = [];
    // 0: one impact, the block's extremes.
    if (impacts === 0) {
      kept.push([Math.max(...docs.map((d) => d[0])), Math.min(...docs.map((d) => (d[0] === 0 ? Infinity : d[1]))), Math.max(...docs.map((d) => d[2])), Math.min(...docs.map((d) => (d[2] === 0 ? Infinity : d[3])))]);
      impacts = 1;
    } else {
      for (let i = 0; i < impacts; i++) kept.push(Array.from(out.subarray(i * IMPACT_WORDS, (i + 1) * IMPACT_WORDS)));
    }
    const beats = (a: number[], b: number[]): boolean =>
      a[0] >= b[0] && (b[0] === 0 || a[1] <= b[1]) && a[2] >= b[2] && (b[2] === 0 || a[3] <= b[3]);
    for (const doc of docs) assert.ok(kept.some((impact) => beats(impact, doc)), `block ${block}: doc ${doc} beaten by no impact`);
    if (impacts > 1 && impacts < MAX_BLOCK_IMPACTS) {
      for (const impact of kept) assert.ok(docs.some((doc) => doc.every((v, i) => v === impact[i])), `block ${block}: impact ${impact} is no doc`);
      for (const a of kept) for (const b of kept) if (a !== b) assert.ok(!beats(a, b), `block ${block}: ${a} beats ${b}, both kept`);
    }
  }
});

/** Rewrites the segment at `path` as layout 5 wrote it: no impacts sections. */
function asLayoutFive(path: string, out: string): void {
  const file = readSegmentFile(path);
  const meta = JSON.parse(new TextDecoder().decode(file.section(SECTION.meta))) as { layoutVersion: number };
  meta.layoutVersion = 5;
  const sections = file
    .names()
    .filter((name) => name !== SECTION.impacts && name !== SECTION.impactOffsets)
    .map((name) => [name, name === SECTION.meta ? new TextEncoder().encode(JSON.stringify(meta)) : file.section(name)] as const);
  writeSegmentFile(out, sections);
}

test('a layout 5 segment (no impacts) answers the same, bounded by its skip entries; a merge writes it in the current layout', () => {
  withCorpus(5, (views, random) => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-layout5-'));
    try {
      const old: SegmentView[] = views.map((view, i) => {
        asLayoutFive(view.reader.path, join(dir, `${i}.fseg`));
        return { reader: SegmentReader.open(join(dir, `${i}.fseg`)), deleted: view.deleted };
      });
      assert.equal(old[0].reader.layoutVersion, 5);
      for (let q = 0; q < 20; q++) {
        const query = Array.from({ length: 1 + Math.floor(random() * 3) }, () => word(random)).join(' ');
        assert.deepEqual(search(old, query, {}), search(views, query, {}), query);
      }
      const merged = join(dir, 'merged.fseg');
      mergeSegments(merged, old.map((view) => ({ reader: view.reader, deleted: null })), analyzer);
      const reader = SegmentReader.open(merged);
      assert.equal(reader.layoutVersion, SEGMENT_LAYOUT_VERSION);
      const fresh = join(dir, 'fresh.fseg');
      mergeSegments(fresh, views.map((view) => ({ reader: view.reader, deleted: null })), analyzer);
      assert.deepEqual(readSegmentFile(merged).section(SECTION.impacts), readSegmentFile(fresh).section(SECTION.impacts));
      for (const view of old) view.reader.close();
      reader.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("a word's typo variants are not read where its exact form is required", () => {
  // 'termai' in the even docs, a little more often in each later doc (so every block has docs
  // that beat the threshold, and none is skipped whole); its one-typo variant 'termaj' once in
  // each odd doc. Once ten docs are kept, the variants (a quarter of a weaker score) cannot lift
  // a doc past the threshold without the exact word: the word is required, and a doc of it gains
  // nothing from its variants. Past the first window (scored before any threshold), they are
  // moved only to the end.
  const dir = mkdtempSync(join(tmpdir(), 'folio-variants-'));
  try {
    const docs: IndexDocument[] = Array.from({ length: 12_000 }, (_, n) => {
      const filler = Array.from({ length: 30 }, (_, i) => `f${i}`);
      if (n % 2 === 0) filler.fill('termai', 0, 1 + Math.floor(n / 600));
      else filler[0] = 'termaj';
      return { id: `d${String(n).padStart(5, '0')}`, title: null, text: filler.join(' '), pages: null, metadata: {}, format: 'text', bytes: 1, indexedAt: 'now' };
    });
    const path = join(dir, 'variants.fseg');
    writeSegment(path, docs, analyzer);
    const reader = SegmentReader.open(path);
    const views: SegmentView[] = [{ reader, deleted: null }];
    const request: SearchRequest = { q: 'termai', match: 'any', offset: 0, limit: 10, highlightTag: 'mark', typoTolerance: DEFAULT_TYPO_TOLERANCE };
    const { prepared } = prepareQuery(views, analyzer, request);
    const scorers = rankingScorers(prepared[0], reader);
    assert.equal(scorers.length, 2);
    const variants = scorers[1];
    assert.ok(variants instanceof TypoVariantsScorer);
    // Counted as they happen (the scorer itself still moves): each advance reads the variants' postings.
    let advances = 0;
    const advance = variants.advance.bind(variants);
    variants.advance = (target: number): number => {
      advances++;
      return advance(target);
    };
    const collector = new TopKCollector(10, (_a, docA, _b, docB) => docA - docB);
    const sink = new RelevanceSink(collector, 0, 10, false, 0, undefined, null, false);
    sink.counted(TOTAL_EXACT_UP_TO + 1);
    collectMaxScore(scorers, () => true, sink, SearchBudget.UNLIMITED);
    // The ten best: the first even docs with the most 'termai' (20 from doc 11,400 on; ties go to the lower doc).
    assert.deepEqual(collector.results().map((hit) => hit.doc).sort((a, b) => a - b), Array.from({ length: 10 }, (_, i) => 11_400 + 2 * i));
    // Before: moved to each of the 5,873 docs of the word that could still win, one by one.
    assert.ok(advances <= 2, `the variants were moved ${advances} times`);
    // And the search as a whole answers as scoring every match does.
    const pruned = search(views, 'termai', { typoTolerance: DEFAULT_TYPO_TOLERANCE });
    const exhaustive = search(views, 'termai', { typoTolerance: DEFAULT_TYPO_TOLERANCE, limit: docs.length });
    assert.deepEqual(pruned.hits.map((hit) => [hit.id, hit.score]), exhaustive.hits.slice(0, 10).map((hit) => [hit.id, hit.score]));
    reader.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
