// Property test of merging: random documents (titles, paged and unpaged text, typed metadata)
// written as several segments, with deletes and with documents replaced by later segments,
// are merged by mergeSegments; the result must equal, as read back, a naive reference — one
// segment written directly from the surviving documents as they were generated: the same
// terms, postings (tfs, positions, block bounds), lengths, stored documents and page starts,
// metadata columns, and search results (whose matches and facets the unmerged segments give
// too). Compared by document id, so the merged segment's doc order is free.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RoaringBitmap32 } from '../storage/index.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';
import { Analyzer } from './analysis/index.ts';
import type { IndexDocument, Metadata, PageInfo } from './document.ts';
import { parseFilter } from './filter/index.ts';
import { mergeOrder, mergeSegments } from './merge.ts';
import { SECTION, metadataSection } from './segment/segment-format.ts';
import { canMergeEncoded, mergeEncodedSegments } from './segment/segment-merger.ts';
import { searchSegments } from './search/searcher.ts';
import type { SearchRequest } from './search/search-types.ts';
import type { SegmentView } from './search/segment-view.ts';
import { SegmentReader } from './segment/segment-reader.ts';
import { writeSegment } from './segment/segment-writer.ts';

const analyzer = Analyzer.for('english');
/** Words that stem together, repeat often (long, block-spanning postings) or fold (accents). */
const VOCABULARY = [
  'run', 'running', 'runs', 'index', 'indexes', 'indexing', 'merge', 'merged', 'segment', 'segments',
  'quoll', 'wombat', 'numbat', 'café', 'Émile', 'naïve', 'data', 'search', 'searching', 'page',
  'alpha', 'beta', 'gamma', 'delta', 'x1', '2026', 'IL-6', 'e-mail', 'the', 'of',
];
const CATEGORIES = ['news', 'blog', 'paper', 'Émile', 'zeta', ''];
const TAGS = ['a', 'b', 'c', 'd'];
const FIELDS = ['category', 'year', 'price', 'tags', 'flag', 'mixed', 'scores', 'empty', 'absent'];
const QUERIES = [
  'run', 'merge segment', 'quoll wombat numbat', 'café', 'emile', '"alpha beta"', 'ind*', 'e-mail',
  'title:search', '-the data', '+page gamma', 'x1 2026', 'il-6', 'absentword',
];

function randomDocument(random: () => number, id: string): IndexDocument {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() ** 1.5 * values.length)];
  const words = (count: number): string => Array.from({ length: count }, () => pick(VOCABULARY)).join(' ');
  let text: string;
  let pages: PageInfo[] | null = null;
  if (random() < 0.3) {
    pages = [];
    const texts: string[] = [];
    let offset = 0;
    const count = 1 + Math.floor(random() * 5);
    for (let number = 1; number <= count; number++) {
      // Some pages are empty.
      const pageText = (random() < 0.15 ? '' : words(Math.floor(random() * 40))) + (number < count ? '\n\n' : '');
      pages.push({ number, label: random() < 0.5 ? null : random() < 0.5 ? String(number + 2) : `p-${number}`, offset });
      texts.push(pageText);
      offset += pageText.length;
    }
    text = texts.join('');
  } else {
    text = words(Math.floor(random() * 60));
  }
  const metadata: Metadata = {};
  if (random() < 0.9) metadata.category = pick(CATEGORIES);
  if (random() < 0.7) metadata.year = 1990 + Math.floor(random() * 40);
  if (random() < 0.5) metadata.price = Math.round((random() - 0.3) * 100000) / 100;
  if (random() < 0.6) metadata.tags = TAGS.filter(() => random() < 0.4);
  if (random() < 0.4) metadata.flag = random() < 0.5;
  if (random() < 0.4) metadata.mixed = random() < 0.5 ? Math.floor(random() * 4) : pick(['x', '3', 'ü']);
  if (random() < 0.3) metadata.scores = [Math.floor(random() * 10), random() * 1e6, -1];
  if (random() < 0.1) metadata.empty = [];
  return {
    id,
    title: random() < 0.2 ? null : words(1 + Math.floor(random() * 5)),
    text,
    pages,
    metadata,
    format: pages === null ? 'text' : pick(['pdf', 'docx', 'pptx']),
    bytes: Math.floor(random() * 1e7),
    indexedAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 1e10)).toISOString(),
  };
}

interface Corpus {
  views: SegmentView[];
  /** The live documents as generated, in segment then doc order. */
  survivors: IndexDocument[];
  /** Ids of deleted documents that no later segment brought back. */
  gone: string[];
}

/** Writes random segments as a collection would: deletes, and ids replaced by later segments. */
function randomCorpus(random: () => number, dir: string, seed: number, withDeletes = true, searchFields: string[] = []): Corpus {
  const segments: { docs: IndexDocument[]; deleted: Set<number> }[] = [];
  const live = new Map<string, { segment: number; doc: number }>();
  let nextId = 0;
  const segmentCount = 3 + Math.floor(random() * 2);
  for (let segment = 0; segment < segmentCount; segment++) {
    const docs: IndexDocument[] = [];
    const deleted = new Set<number>();
    segments.push({ docs, deleted });
    const count = 40 + Math.floor(random() * 200);
    for (let doc = 0; doc < count; doc++) {
      // One in ten replaces a live document of an earlier segment.
      const earlier = [...live].filter(([, at]) => at.segment < segment);
      let id = `d${seed}-${nextId++}`;
      if (withDeletes && random() < 0.1 && earlier.length > 0) {
        const [replaced, at] = earlier[Math.floor(random() * earlier.length)];
        segments[at.segment].deleted.add(at.doc);
        id = replaced;
      }
      docs.push(randomDocument(random, id));
      live.set(id, { segment, doc });
    }
    // Deletes: none in some segments, all in one, a share in the others.
    const rate = !withDeletes ? 0 : segment === 1 ? 1 : [0, 0.1, 0.3][Math.floor(random() * 3)];
    for (let doc = 0; doc < count; doc++) {
      if (random() < rate) {
        deleted.add(doc);
        live.delete(docs[doc].id);
      }
    }
  }
  const views: SegmentView[] = segments.map(({ docs, deleted }, segment) => {
    const path = join(dir, `${seed}-${segment}.fseg`);
    writeSegment(path, docs, analyzer, searchFields);
    return { reader: SegmentReader.open(path), deleted: deleted.size === 0 ? null : new RoaringBitmap32([...deleted]) };
  });
  const survivors = segments.flatMap(({ docs, deleted }) => docs.filter((_, doc) => !deleted.has(doc)));
  const all = new Set(segments.flatMap(({ docs }) => docs.map((doc) => doc.id)));
  return { views, survivors, gone: [...all].filter((id) => !live.has(id)) };
}

/** Everything a segment holds, keyed by document id so doc order does not matter. */
function contents(reader: SegmentReader): Record<string, unknown> {
  const ids = Array.from({ length: reader.docCount }, (_, doc) => reader.docId(doc));
  const byId = (entries: [string, unknown][]): [string, unknown][] => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const terms: Record<string, unknown> = {};
  for (let index = 0; index < reader.terms.size; index++) {
    const cursor = reader.postings(index);
    const postings: [string, unknown][] = [];
    for (let doc = cursor.next(); doc < reader.docCount; doc = cursor.next()) {
      postings.push([ids[doc], { titleTf: cursor.titleTf(), textTf: cursor.textTf(), positions: [...cursor.positions([])] }]);
    }
    terms[reader.terms.term(index)] = { docFreq: reader.terms.docFreq(index), bounds: reader.postings(index).termBounds(), postings: byId(postings) };
  }
  reader.recycleCursors();
  const documents = byId(ids.map((id, doc) => [
    id,
    { record: reader.storedRecord(doc), title: reader.title(doc), titleLength: reader.titleLengths[doc], textLength: reader.textLengths[doc], found: reader.findDoc(id) === doc },
  ]));
  const fields: Record<string, unknown> = {};
  for (const name of FIELDS) {
    const field = reader.field(name);
    if (field === null) {
      fields[name] = null;
      continue;
    }
    const values = Array.from({ length: field.distinct }, (_, ord) => field.value(ord));
    const docValues = byId(ids.map((id, doc) => [id, Array.from(field.docOrds.subarray(field.docStarts[doc], field.docStarts[doc + 1]), (ord) => values[ord])]));
    const docsOfValue = values.map((value, ord) => [value, Array.from(field.docsByValue.subarray(field.valueStarts[ord], field.valueStarts[ord + 1]), (doc) => ids[doc]).sort()]);
    fields[name] = { counts: [field.numberCount, field.stringCount, field.booleanCount], values, docValues, docsOfValue };
  }
  return {
    docCount: reader.docCount,
    sumTitleLength: reader.sumTitleLength,
    sumTextLength: reader.sumTextLength,
    idOrder: Array.from(reader.docsByIdOrder(), (doc) => ids[doc]),
    terms,
    documents,
    fields,
  };
}

/** The merge of `views`, and the reference: one segment written directly from the survivors. */
function mergeBesideReference(dir: string, seed: number, views: SegmentView[], survivors: IndexDocument[], searchFields: string[] = []): { merged: SegmentReader; reference: SegmentReader } {
  const mergedPath = join(dir, `${seed}-merged.fseg`);
  mergeSegments(mergedPath, views, analyzer, searchFields);
  const referencePath = join(dir, `${seed}-reference.fseg`);
  writeSegment(referencePath, survivors, analyzer, searchFields);
  return { merged: SegmentReader.open(mergedPath), reference: SegmentReader.open(referencePath) };
}

function randomRequest(random: () => number, q: string): SearchRequest {
  const request: SearchRequest = { q, match: random() < 0.3 ? 'all' : 'any', offset: Math.floor(random() * 5), limit: 5 + Math.floor(random() * 30), highlightTag: 'mark', explain: true };
  if (random() < 0.4) request.filter = parseFilter(random() < 0.5 ? { year: { gte: 2000 } } : { $or: [{ tags: 'a' }, { category: 'Émile' }] });
  if (random() < 0.5) request.facets = FIELDS.filter(() => random() < 0.4);
  if (random() < 0.3) request.sort = [random() < 0.5 ? { kind: 'field', field: 'price', direction: 'desc' } : { kind: 'title', direction: 'asc' }];
  return request;
}

test('a merge equals a segment written directly from the surviving documents', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-merge-'));
  try {
    for (const seed of [31, 32, 33]) {
      const random = seededRandom(seed);
      const { views, survivors, gone } = randomCorpus(random, dir, seed);
      assert.ok(gone.length > 0 && survivors.length > 100, `seed ${seed}: a corpus with deletes`);
      assert.ok(survivors.some((document) => document.pages !== null), `seed ${seed}: paged documents survive`);

      const { merged, reference } = mergeBesideReference(dir, seed, views, survivors);

      // The survivors come back exactly as they were generated, and nothing else does.
      assert.equal(merged.docCount, survivors.length, `seed ${seed}: live documents only`);
      for (const document of survivors) assert.deepEqual(merged.document(merged.findDoc(document.id)), document, `seed ${seed}: ${document.id}`);
      for (const id of gone) assert.equal(merged.findDoc(id), -1, `seed ${seed}: deleted ${id} is gone`);

      assert.deepEqual(contents(merged), contents(reference), `seed ${seed}: merged segment equals the reference`);

      // Searches over the merge equal searches over the reference, and over the segments.
      let matched = 0;
      for (const q of ['', ...QUERIES]) {
        const request = randomRequest(random, q);
        const label = `seed ${seed} ${JSON.stringify(request)}`;
        const expected = searchSegments([{ reader: reference, deleted: null }], analyzer, request);
        if (expected.hits.length > 0) matched++;
        assert.deepEqual(searchSegments([{ reader: merged, deleted: null }], analyzer, request), expected, label);
        // Before the merge the deleted documents still count in the BM25 statistics, so only
        // the matches (in id order) are the same.
        const byId: SearchRequest = { ...request, explain: false, offset: 0, limit: 100, sort: [{ kind: 'id', direction: 'asc' }] };
        const unmerged = searchSegments(views, analyzer, byId);
        const referenceById = searchSegments([{ reader: reference, deleted: null }], analyzer, byId);
        assert.equal(unmerged.total, expected.total, `${label}: total before the merge`);
        assert.deepEqual(unmerged.hits.map((hit) => hit.id), referenceById.hits.map((hit) => hit.id), `${label}: matches before the merge`);
        assert.deepEqual(unmerged.facets, expected.facets, `${label}: facets before the merge`);
      }
      assert.ok(matched >= QUERIES.length / 2, `seed ${seed}: most queries find documents (${matched})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('segments without deletes are merged from what they encode: every section as a direct write has it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-merge-encoded-'));
  try {
    for (const seed of [41, 42, 43, 44]) {
      const random = seededRandom(seed);
      // Seeds 43 and 44 index the words of metadata fields too (searchable fields).
      const searchFields = seed >= 43 ? ['category', 'mixed', 'tags'] : [];
      const { views, survivors } = randomCorpus(random, dir, seed, false, searchFields);
      assert.ok(canMergeEncoded(views, searchFields), `seed ${seed}: the encoded merge applies`);
      const { merged, reference } = mergeBesideReference(dir, seed, views, survivors, searchFields);

      // Byte for byte, but the stored blocks: they are copied whole, so their boundaries differ.
      const fieldCount = (JSON.parse(new TextDecoder().decode(reference.encodedSection(SECTION.metadataFields))) as string[]).length;
      const sections = [...Object.values(SECTION), ...Array.from({ length: fieldCount }, (_, index) => metadataSection(index))];
      for (const name of sections) {
        if (name === SECTION.storedBlocks || name === SECTION.storedIndex) continue;
        assert.deepEqual(merged.encodedSection(name), reference.encodedSection(name), `seed ${seed}: section ${name}`);
      }
      survivors.forEach((document, doc) => assert.deepEqual(merged.storedRecord(doc), reference.storedRecord(doc), `seed ${seed}: stored ${document.id}`));
      assert.deepEqual(contents(merged), contents(reference), `seed ${seed}: merged segment equals the reference`);
      for (const q of QUERIES) {
        const request = randomRequest(random, q);
        if (searchFields.length > 0) request.fieldWeights = { title: 3, text: 1, metadata: { category: 2, tags: 1, mixed: 0.5 } };
        assert.deepEqual(searchSegments([{ reader: merged, deleted: null }], analyzer, request), searchSegments([{ reader: reference, deleted: null }], analyzer, request), `seed ${seed} ${q}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a merge that spills its postings to files writes the same bytes as one that keeps them in memory, and leaves no file behind', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-merge-spill-'));
  try {
    for (const seed of [51, 52]) {
      const random = seededRandom(seed);
      const searchFields = seed === 52 ? ['category', 'tags'] : [];
      const { views } = randomCorpus(random, dir, seed, false, searchFields);
      const readers = views.map((view) => view.reader);
      const inMemory = join(dir, `${seed}-memory.fseg`);
      mergeEncodedSegments(inMemory, readers, Number.MAX_SAFE_INTEGER);
      // A spill every few hundred bytes: every section goes to its file many times, mid-term too.
      const spilled = join(dir, `${seed}-spilled.fseg`);
      mergeEncodedSegments(spilled, readers, 256);
      assert.deepEqual(readFileSync(spilled), readFileSync(inMemory), `seed ${seed}`);
      assert.deepEqual(readdirSync(dir).filter((name) => name.includes('.spill-')), [], `seed ${seed}: spill files removed`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('mergeOrder puts sources by their smallest id: segments of growing ids, merged, still follow id order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-merge-order-'));
  try {
    const doc = (n: number): IndexDocument => ({ id: `o${String(n).padStart(4, '0')}`, title: null, text: `word ${n}`, pages: null, metadata: {}, format: 'text', bytes: 1, indexedAt: 'now' });
    // Batches that came out of order (two clients importing at once): 200-299, then 0-99, then 100-199.
    const views: SegmentView[] = [200, 0, 100].map((first, i) => {
      const path = join(dir, `${i}.fseg`);
      writeSegment(path, Array.from({ length: 100 }, (_, k) => doc(first + k)), analyzer);
      return { reader: SegmentReader.open(path), deleted: null };
    });
    assert.deepEqual(mergeOrder(views), [1, 2, 0]);
    const inOrder = join(dir, 'ordered.fseg');
    mergeSegments(inOrder, mergeOrder(views).map((i) => views[i]), analyzer);
    const asGiven = join(dir, 'given.fseg');
    mergeSegments(asGiven, views, analyzer);
    const ordered = SegmentReader.open(inOrder);
    const given = SegmentReader.open(asGiven);
    assert.equal(ordered.idsAscending(), true);
    assert.equal(given.idsAscending(), false);
    assert.equal(ordered.docId(0), 'o0000');
    for (const reader of [ordered, given, ...views.map((view) => view.reader)]) reader.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
