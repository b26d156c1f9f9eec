// Metadata benchmark (`npm run bench:metadata`; `npm run bench` runs it too): a generated
// collection of 1,000,000 documents with six metadata fields, written as four segments, is
// searched in process (the engine, no HTTP) with tinybench. Reports p50/p99 for a filter +
// 3 facets + sort query matching about half the collection, and for a single-value filter
// with the same facets.
// Options: --docs N (default 1,000,000), --time MS per task (default 3,000).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { RoaringBitmap32 } from '../storage/index.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';
import { Analyzer, SegmentReader, searchSegments, writeSegment } from '../engine/index.ts';
import type { IndexDocument, SearchRequest, SegmentView } from '../engine/index.ts';
import { parseFilter } from '../engine/filter/index.ts';
import { parseSort } from '../engine/sort/index.ts';

const { values: options } = parseArgs({
  options: { docs: { type: 'string', default: '1000000' }, time: { type: 'string', default: '3000' } },
});
const DOCS = Number(options.docs);
const SEGMENTS = 4;
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];

function generate(count: number, first: number, random: () => number): IndexDocument[] {
  return Array.from({ length: count }, (_, i) => {
    const n = first + i;
    const tags = ['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black', 'white'].filter(() => random() < 0.25);
    return {
      id: `doc-${n}`,
      title: `Item ${n}`,
      text: `${WORDS[n % 10]} ${WORDS[(n * 7) % 10]}`,
      pages: null,
      metadata: {
        category: `cat-${Math.floor(random() * 20)}`, // 20 values
        year: 2000 + Math.floor(random() * 24), // numeric, 24 values
        price: Math.round(random() * 100_000) / 100, // numeric, ~100k values
        brand: `brand-${Math.floor(random() ** 2 * 1000)}`, // 1,000 values, skewed
        in_stock: random() < 0.7, // boolean
        tags, // multi-valued
      },
      format: 'text',
      bytes: 100,
      indexedAt: '2026-11-21T00:00:00.000Z',
    };
  });
}

const dir = mkdtempSync(join(tmpdir(), 'folio-bench-meta-'));
try {
  const analyzer = Analyzer.for('english');
  const random = seededRandom(2026);
  const views: SegmentView[] = [];
  const started = performance.now();
  const perSegment = Math.ceil(DOCS / SEGMENTS);
  for (let s = 0; s < SEGMENTS; s++) {
    const docs = generate(Math.min(perSegment, DOCS - s * perSegment), s * perSegment, random);
    const path = join(dir, `seg-${s}.fseg`);
    writeSegment(path, docs, analyzer);
    // About 1 % of the docs deleted, as updates leave them.
    const deleted = new RoaringBitmap32();
    for (let d = 0; d < docs.length; d += 97) deleted.add(d);
    views.push({ reader: SegmentReader.open(path), deleted });
  }
  const buildSeconds = (performance.now() - started) / 1000;

  const base: SearchRequest = { q: '', match: 'any', offset: 0, limit: 10, highlightTag: 'mark' };
  const facets = ['category', 'brand', 'tags'];
  const queries: { name: string; request: SearchRequest }[] = [
    {
      name: 'filter (year ≥ 2012, in stock or blue) + 3 facets + sort price:desc',
      request: {
        ...base,
        filter: parseFilter({ year: { gte: 2012 }, $or: [{ in_stock: true }, { tags: 'blue' }] }),
        facets,
        sort: parseSort('price:desc'),
      },
    },
    {
      name: 'filter (year ≥ 2012) + 3 facets + sort price:desc',
      request: { ...base, filter: parseFilter({ year: { gte: 2012 } }), facets, sort: parseSort('price:desc') },
    },
    { name: 'single-value filter (category) + 3 facets', request: { ...base, filter: parseFilter({ category: 'cat-7' }), facets } },
    {
      name: 'text query + filter + 3 facets (relevance)',
      request: { ...base, q: 'gamma', filter: parseFilter({ year: { gte: 2012 } }), facets },
    },
  ];
  const bench = new Bench({ time: Number(options.time), warmupTime: 500 });
  const totals = new Map<string, number>();
  for (const { name, request } of queries) {
    totals.set(name, searchSegments(views, analyzer, request).total);
    bench.add(name, () => {
      searchSegments(views, analyzer, request);
    });
  }
  await bench.run();

  console.log(`${DOCS.toLocaleString('en')} documents in ${SEGMENTS} segments, built in ${buildSeconds.toFixed(1)} s`);
  console.log(`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
  console.log('| query | matches | p50 ms | p99 ms | runs |');
  console.log('|---|---|---|---|---|');
  for (const task of bench.tasks) {
    const latency = task.result && 'latency' in task.result ? task.result.latency : undefined;
    if (!latency) throw new Error(`no result for ${task.name}`);
    console.log(`| ${task.name} | ${totals.get(task.name)!.toLocaleString('en')} | ${latency.p50.toFixed(2)} | ${latency.p99.toFixed(2)} | ${latency.samplesCount} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
