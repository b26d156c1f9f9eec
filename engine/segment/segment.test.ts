// The segment round trip: documents written by writeSegment come back from SegmentReader with
// the same terms, postings (checked with next/advance against a naive inverted index, a
// property test over random corpora), positions, lengths, ids and stored fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analyzer } from '../analysis/index.ts';
import type { IndexDocument } from '../document.ts';
import { CorruptFileError, mapSegmentFile, writeSegmentFile } from '../../storage/index.ts';
import { NO_MORE_DOCS } from './postings-cursor.ts';
import { SegmentReader } from './segment-reader.ts';
import { writeSegment } from './segment-writer.ts';
import { SECTION, TITLE_TEXT_GAP } from './segment-format.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { parseQuery } from '../query/query-parser.ts';

const analyzer = Analyzer.for('none');

function makeDoc(id: string, title: string | null, text: string): IndexDocument {
  return { id, title, text, pages: null, metadata: { n: 1 }, format: 'text', bytes: text.length, indexedAt: '2026-01-01T00:00:00.000Z' };
}

/** Random corpus over a small vocabulary so terms have long, block-spanning postings. */
function randomCorpus(random: () => number, count: number): IndexDocument[] {
  const vocabulary = Array.from({ length: 40 }, (_, i) => `w${i.toString(36)}${'x'.repeat(i % 3)}`);
  const pick = (): string => vocabulary[Math.floor(random() ** 2 * vocabulary.length)];
  return Array.from({ length: count }, (_, i) => {
    const words = (n: number): string => Array.from({ length: n }, pick).join(' ');
    const title = random() < 0.2 ? null : words(1 + Math.floor(random() * 4));
    return makeDoc(`doc-${i}`, title, words(Math.floor(random() * 30)));
  });
}

interface NaivePosting {
  doc: number;
  titleTf: number;
  textTf: number;
  positions: number[];
}

function naiveIndex(docs: IndexDocument[]): Map<string, NaivePosting[]> {
  const index = new Map<string, NaivePosting[]>();
  docs.forEach((document, doc) => {
    const titleTokens = document.title ? analyzer.tokenize(document.title) : [];
    const base = titleTokens.length + TITLE_TEXT_GAP;
    const all = [
      ...titleTokens.map((t) => ({ term: t.term, position: t.position, title: true })),
      ...analyzer.tokenize(document.text).map((t) => ({ term: t.term, position: base + t.position, title: false })),
    ];
    for (const { term, position, title } of all) {
      let list = index.get(term);
      if (!list) index.set(term, (list = []));
      let last = list[list.length - 1];
      if (!last || last.doc !== doc) list.push((last = { doc, titleTf: 0, textTf: 0, positions: [] }));
      if (title) last.titleTf++;
      else last.textTf++;
      last.positions.push(position);
    }
  });
  return index;
}

test('postings iterate, skip and decode exactly like a naive inverted index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-seg-'));
  try {
    for (const seed of [1, 2, 3]) {
      const random = seededRandom(seed);
      const docs = randomCorpus(random, 300 + Math.floor(random() * 900));
      const path = join(dir, `s${seed}.fseg`);
      writeSegment(path, docs, analyzer);
      const reader = SegmentReader.open(path);
      const naive = naiveIndex(docs);
      assert.equal(reader.terms.size, naive.size);
      for (const [term, expected] of naive) {
        const index = reader.terms.find(term);
        assert.ok(index >= 0, `term ${term} is in the dictionary`);
        assert.equal(reader.terms.term(index), term);
        assert.equal(reader.terms.docFreq(index), expected.length);
        // Full iteration with tfs and positions.
        const cursor = reader.postings(index);
        const positions: number[] = [];
        for (const posting of expected) {
          assert.equal(cursor.next(), posting.doc);
          assert.equal(cursor.titleTf(), posting.titleTf);
          assert.equal(cursor.textTf(), posting.textTf);
          if (random() < 0.5) assert.deepEqual(cursor.positions(positions), posting.positions);
        }
        assert.equal(cursor.next(), NO_MORE_DOCS);
        // Random advances agree with a linear search.
        const skipper = reader.postings(index);
        let target = 0;
        while (target < docs.length + 5) {
          target += 1 + Math.floor(random() * 60);
          const want = expected.find((p) => p.doc >= target);
          const got = skipper.advance(target);
          assert.equal(got, want ? want.doc : NO_MORE_DOCS, `advance(${target}) for ${term}`);
          if (want) {
            assert.equal(skipper.textTf(), want.textTf);
            assert.deepEqual(skipper.positions(positions), want.positions);
          } else break;
        }
        // Block bounds really bound the block's postings.
        const bounds = reader.postings(index).termBounds();
        assert.equal(bounds.maxTitleTf, Math.max(...expected.map((p) => p.titleTf)));
        assert.equal(bounds.maxTextTf, Math.max(...expected.map((p) => p.textTf)));
      }
      assert.equal(reader.terms.find('absent-term'), -1);
      assert.deepEqual(
        reader.terms.withPrefix('w1', 100).map((i) => reader.terms.term(i)),
        [...naive.keys()].filter((t) => t.startsWith('w1')).sort(),
      );
      // Ids, lengths and stored fields.
      for (let doc = 0; doc < docs.length; doc += 37) {
        assert.equal(reader.findDoc(docs[doc].id), doc);
        assert.equal(reader.docId(doc), docs[doc].id);
        assert.deepEqual(reader.document(doc), docs[doc]);
        assert.equal(reader.textLengths[doc], analyzer.tokenize(docs[doc].text).length);
      }
      assert.equal(reader.findDoc('nope'), -1);
      reader.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('paged documents record the first token position of every page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-seg-'));
  try {
    const text = 'alpha beta\n\ngamma\n\n\n\ndelta epsilon';
    const doc: IndexDocument = {
      ...makeDoc('p', 'Title words', text),
      pages: [
        { number: 1, label: 'i', offset: 0 },
        { number: 2, label: 'ii', offset: 12 },
        { number: 3, label: null, offset: 19 }, // an empty page
        { number: 4, label: '1', offset: 21 },
      ],
    };
    const path = join(dir, 'p.fseg');
    writeSegment(path, [makeDoc('plain', null, 'no pages here'), doc, makeDoc('plain-2', 'x', 'y')], analyzer);
    const reader = SegmentReader.open(path);
    const record = reader.storedRecord(1);
    const base = 2 + TITLE_TEXT_GAP;
    const starts = [base + 0, base + 2, base + 3, base + 3];
    assert.deepEqual(record.pageStarts, starts);
    assert.deepEqual(record.document, doc);
    // The pages.starts section gives the same boundaries without the stored record.
    assert.deepEqual([...reader.pageStarts(1)!], starts);
    assert.equal(reader.pageStarts(0), null);
    assert.equal(reader.pageStarts(2), null);
    assert.deepEqual([reader.hasPages, reader.pageCount, reader.pagedDocCount], [true, 4, 1]);

    // A layout 3 segment (before pages.starts) still opens; its pages come from the stored records.
    const file = mapSegmentFile(path);
    const sections = file.names().filter((name) => name !== SECTION.pageStarts).map((name): [string, Uint8Array] => {
      if (name !== SECTION.meta) return [name, file.section(name)];
      const meta = JSON.parse(new TextDecoder().decode(file.section(name)));
      return [name, new TextEncoder().encode(JSON.stringify({ ...meta, layoutVersion: 3 }))];
    });
    const oldPath = join(dir, 'old.fseg');
    writeSegmentFile(oldPath, sections);
    const old = SegmentReader.open(oldPath);
    assert.deepEqual([...old.pageStarts(1)!], starts);
    assert.equal(old.pageStarts(0), null);
    assert.equal(old.hasPages, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a damaged segment is reported with its path, never served', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-seg-'));
  try {
    const path = join(dir, 'bad.fseg');
    writeSegment(path, [makeDoc('a', 'hello', 'world')], analyzer);
    const bytes = readFileSync(path);
    bytes[40] ^= 0xff;
    writeFileSync(path, bytes);
    assert.throws(() => SegmentReader.open(path), (error: unknown) => error instanceof CorruptFileError && error.message.includes(path));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('duplicate ids in one segment are refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-seg-'));
  try {
    assert.throws(() => writeSegment(join(dir, 'd.fseg'), [makeDoc('a', null, 'x'), makeDoc('a', null, 'y')], analyzer), /duplicate/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a recycled postings cursor reads its new term exactly like a fresh one', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-cursor-reuse-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const docs = randomCorpus(seededRandom(11), 900);
  const path = join(dir, 'seg.fseg');
  writeSegment(path, docs, analyzer);
  const reader = SegmentReader.open(path);
  const expected = naiveIndex(docs);
  const terms = [...expected.keys()];
  const read = (term: string, skipTo: number): NaivePosting[] => {
    const cursor = reader.postings(reader.terms.find(term));
    const out: NaivePosting[] = [];
    for (let doc = cursor.advance(skipTo); doc !== NO_MORE_DOCS; doc = cursor.next()) {
      out.push({ doc, titleTf: cursor.titleTf(), textTf: cursor.textTf(), positions: [...cursor.positions([])] });
    }
    return out;
  };
  for (let round = 0; round < 3; round++) {
    for (const [i, term] of terms.entries()) {
      // Leave some cursors half read, mid-block, before they are recycled.
      const partial = reader.postings(reader.terms.find(terms[(i + 7) % terms.length]));
      partial.advance(300 + round);
      if (partial.doc !== NO_MORE_DOCS) partial.positions([]);
      assert.deepEqual(read(term, 0), expected.get(term), `term ${term}, round ${round}`);
      assert.deepEqual(read(term, 450), expected.get(term)!.filter((p) => p.doc >= 450));
      reader.recycleCursors();
    }
  }
});

test('the words behind stemmed terms are kept where a prefix needs them (surface forms)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-seg-'));
  try {
    const path = join(dir, 's.fseg');
    const english = Analyzer.for('english');
    const texts = ['Running', 'Runners run; Computers compute.', 'RUNNING again, naïvely', 'happiness and generously nationalized dogs'];
    writeSegment(path, [makeDoc('a', texts[0], texts[1]), makeDoc('b', null, texts[2]), makeDoc('c', null, texts[3])], english);
    const reader = SegmentReader.open(path);
    const surfaceTerms = (prefix: string): string[] => reader.surfaces!.termsOfWordsWithPrefix(prefix, 64).map((index) => reader.terms.term(index));
    // "running" (runn… is no prefix of "run") is kept; "dogs" (dogs* is cut back to dog*) is not.
    assert.deepEqual(surfaceTerms('runn'), ['run']);
    assert.deepEqual(surfaceTerms('dogs'), []);
    // Every prefix of every word reaches the word's term: through the dictionary (the prefix
    // cut back as the query parser does) or through the kept words.
    for (const word of texts.join(' ').split(/[^\p{L}]+/u).filter(Boolean)) {
      const folded = english.fold(word);
      const term = english.analyzeWord(word)[0];
      for (let length = 1; length <= folded.length; length++) {
        const [clause] = parseQuery(`${folded.slice(0, length)}*`, 'any', english).clauses;
        assert.equal(clause.kind, 'prefix');
        if (clause.kind !== 'prefix') continue;
        const reached = new Set([
          ...reader.terms.withPrefix(clause.prefix, 64).map((index) => reader.terms.term(index)),
          ...surfaceTerms(clause.word ?? clause.prefix),
        ]);
        assert.ok(reached.has(term), `${folded.slice(0, length)}* reaches ${term} (from ${word})`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
