// Property tests of filters, facets and sorting: over random metadata in several segments with
// deleted docs, searchSegments must agree with a naive evaluation of every document (filters
// by matchesFilter, facets by counting, sorting by comparing values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RoaringBitmap32 } from '../../storage/index.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { Analyzer } from '../analysis/index.ts';
import type { IndexDocument, Metadata, MetadataValue } from '../document.ts';
import { matchesFilter, parseFilter } from '../filter/index.ts';
import { SegmentReader } from '../segment/segment-reader.ts';
import { writeSegment } from '../segment/segment-writer.ts';
import type { SortKey } from '../sort/sort-types.ts';
import { compareFacetValues } from './facet-counter.ts';
import { searchSegments } from './searcher.ts';
import type { SegmentView } from './segment-view.ts';

const analyzer = Analyzer.for('english');
const CATEGORIES = ['news', 'blog', 'paper', 'note', 'Émile', 'zeta'];
const TAGS = ['a', 'b', 'c', 'd', 'e'];

function randomMetadata(random: () => number): Metadata {
  const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
  const metadata: Metadata = {};
  if (random() < 0.9) metadata.category = pick(CATEGORIES);
  if (random() < 0.8) metadata.year = 2000 + Math.floor(random() * 25);
  if (random() < 0.7) metadata.tags = TAGS.filter(() => random() < 0.3);
  if (random() < 0.6) metadata.price = Math.round(random() * 10000) / 100;
  if (random() < 0.5) metadata.flag = random() < 0.5;
  if (random() < 0.4) metadata.mixed = random() < 0.5 ? Math.floor(random() * 5) : pick(['x', 'y', '3']);
  if (random() < 0.3) metadata.scores = [Math.floor(random() * 10), Math.floor(random() * 10)];
  return metadata;
}

function randomFilter(random: () => number, depth = 0): Record<string, unknown> {
  const r = random();
  if (depth < 2 && r < 0.15) return { $or: [randomFilter(random, depth + 1), randomFilter(random, depth + 1)] };
  if (depth < 2 && r < 0.25) return { $not: randomFilter(random, depth + 1) };
  const leaves: Record<string, unknown>[] = [
    { category: CATEGORIES[Math.floor(random() * CATEGORIES.length)] },
    { category: [CATEGORIES[0], CATEGORIES[Math.floor(random() * CATEGORIES.length)]] },
    { year: { gte: 2000 + Math.floor(random() * 25), lt: 2005 + Math.floor(random() * 25) } },
    { year: { gt: 2010 } },
    { price: { lte: Math.round(random() * 10000) / 100 } },
    { tags: TAGS[Math.floor(random() * TAGS.length)] },
    { flag: random() < 0.5 },
    { mixed: random() < 0.5 ? 3 : '3' },
    { mixed: { gte: 'x' } },
    { category: { gte: 'c', lt: 'p' } },
    { scores: { gte: 5 } },
    { absent: 'x' },
  ];
  const leaf = leaves[Math.floor(random() * leaves.length)];
  if (random() < 0.3) return { ...leaf, ...leaves[Math.floor(random() * leaves.length)] };
  return leaf;
}

const FIELDS = ['category', 'year', 'tags', 'price', 'flag', 'mixed', 'scores', 'absent'];

function sortValue(metadata: Metadata, field: string, direction: 'asc' | 'desc'): MetadataValue | null {
  const value = metadata[field];
  if (value === undefined) return null;
  const values = (Array.isArray(value) ? [...value] : [value]) as (string | number | boolean)[];
  if (values.length === 0) return null;
  values.sort(compareFacetValues);
  return direction === 'asc' ? values[0] : values[values.length - 1];
}

test('filters, facets and sorting equal a naive evaluation over segments with deletions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-meta-'));
  try {
    for (const seed of [5, 6, 7]) {
      const random = seededRandom(seed);
      const views: SegmentView[] = [];
      const live: { doc: IndexDocument; segment: number }[] = [];
      for (let segment = 0; segment < 3; segment++) {
        const docs: IndexDocument[] = Array.from({ length: 150 + Math.floor(random() * 300) }, (_, i) => ({
          id: `s${segment}-${String(i).padStart(4, '0')}`,
          title: random() < 0.2 ? null : `Title ${Math.floor(random() * 50)}`,
          text: random() < 0.5 ? 'common words here' : 'other words',
          pages: null,
          metadata: randomMetadata(random),
          format: 'text',
          bytes: 1,
          indexedAt: 'now',
        }));
        const path = join(dir, `${seed}-${segment}.fseg`);
        writeSegment(path, docs, analyzer);
        const deleted = new RoaringBitmap32();
        docs.forEach((doc, n) => {
          if (random() < 0.1) deleted.add(n);
          else live.push({ doc, segment });
        });
        views.push({ reader: SegmentReader.open(path), deleted });
      }

      for (let round = 0; round < 80; round++) {
        const filterJson = round === 0 ? {} : randomFilter(random);
        const filter = parseFilter(filterJson);
        const q = random() < 0.3 ? 'common' : '';
        const facets = FIELDS.filter(() => random() < 0.4);
        const facetLimit = 1 + Math.floor(random() * 6);
        const sortFields = ['category', 'year', 'price', 'tags', 'mixed', 'flag', 'scores', 'title', '_id'];
        const sort: SortKey[] = Array.from({ length: Math.floor(random() * 3) }, (): SortKey => {
          const name = sortFields[Math.floor(random() * sortFields.length)];
          const direction = random() < 0.5 ? 'asc' : 'desc';
          if (name === 'title') return { kind: 'title', direction };
          if (name === '_id') return { kind: 'id', direction };
          return { kind: 'field', field: name, direction };
        }).filter((key, i, all) => all.findIndex((k) => JSON.stringify(k) === JSON.stringify(key)) === i);
        const offset = Math.floor(random() * 20);
        const limit = 1 + Math.floor(random() * 30);
        const label = `seed ${seed} round ${round} filter ${JSON.stringify(filterJson)} q=${q} sort ${JSON.stringify(sort)}`;

        const result = searchSegments(views, analyzer, { q, match: 'any', offset, limit, highlightTag: 'mark', filter, facets, facetLimit, sort });

        const matching = live.filter(({ doc }) => matchesFilter(filter, doc.metadata) && (q === '' || doc.text.includes(q)));
        assert.equal(result.total, matching.length, `total for ${label}`);

        for (const field of facets) {
          const counts = new Map<string, { value: string | number | boolean; count: number }>();
          let min = Infinity;
          let max = -Infinity;
          for (const { doc } of matching) {
            const value = doc.metadata[field];
            if (value === undefined) continue;
            for (const element of new Set(Array.isArray(value) ? value : [value])) {
              const entry = counts.get(String(element)) ?? { value: element, count: 0 };
              entry.count++;
              counts.set(String(element), entry);
              if (typeof element === 'number') {
                min = Math.min(min, element);
                max = Math.max(max, element);
              }
            }
          }
          const expected = [...counts].sort(([, a], [, b]) => b.count - a.count || compareFacetValues(a.value, b.value)).slice(0, facetLimit);
          assert.deepEqual(
            Object.entries(result.facets[field]).sort(),
            expected.map(([key, { count }]) => [key, count]).sort(),
            `facet ${field} for ${label}`,
          );
          assert.deepEqual(result.facetStats[field], min <= max ? { min, max } : undefined, `facet_stats ${field} for ${label}`);
        }

        // Sorting: by the keys, then (all scores being 0 without q) by id.
        const byKeys = (a: IndexDocument, b: IndexDocument): number => {
          for (const key of sort) {
            const value = (doc: IndexDocument): MetadataValue | null =>
              key.kind === 'field' ? sortValue(doc.metadata, key.field, key.direction) : key.kind === 'title' ? doc.title : key.kind === 'id' ? doc.id : null;
            const x = value(a);
            const y = value(b);
            if (x === y) continue;
            if (x === null) return 1;
            if (y === null) return -1;
            const order = compareFacetValues(x as string | number | boolean, y as string | number | boolean);
            if (order !== 0) return key.direction === 'asc' ? order : -order;
          }
          return 0;
        };
        const page = result.hits.map((hit) => live.find((l) => l.doc.id === hit.id)!.doc);
        if (q === '') {
          const expected = matching.map(({ doc }) => doc).sort((a, b) => byKeys(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
          assert.deepEqual(page.map((doc) => doc.id), expected.slice(offset, offset + limit).map((doc) => doc.id), `page for ${label}`);
        } else {
          assert.equal(page.length, Math.max(0, Math.min(limit, matching.length - offset)), `page size for ${label}`);
          for (let i = 1; i < page.length; i++) assert.ok(byKeys(page[i - 1], page[i]) <= 0, `page order for ${label}`);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
