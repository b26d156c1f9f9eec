// What `npm run bench:scale` prints and draws: Markdown tables for each corpus size (import
// and index, one-connection search, load), the curve over all sizes, the chart's series, and
// issue 15's goals at the largest size with met or missed.

import { FIELDS_ID_UNSUPPORTED } from './fields-id.ts';
import { atMost, goalsTable, ratioGoal } from './goals.ts';
import type { Goal } from './goals.ts';
import type { CeilingResult } from './http-ceiling.ts';
import type { LatencySummary } from './latency.ts';
import { IMPORT_HEADER, LATENCY_HEADER, LOAD_HEADER, MIB, count, latencyCells, loadCells, markdownTable, mib, ms, peerImportCells, seconds } from './markdown-table.ts';
import { SLOW_REQUEST_MS } from './ndjson-import.ts';
import { peerLabel } from './peer-process.ts';
import type { PeerResult } from './peer-process.ts';
import type { ScaleChart } from './scale-chart.ts';
import type { SyntheticCorpus } from './scale-corpus.ts';
import { SCALE_FACETS, SCALE_FILTER } from './scale-folio.ts';
import { servingGoals } from './serving-goals.ts';
import type { ScaleFolioResult } from './scale-folio.ts';

export interface SizeResult {
  size: number;
  corpus: SyntheticCorpus;
  /** Distinct queries timed. */
  queries: number;
  folio: ScaleFolioResult;
  engine: PeerResult | null;
  fts5: PeerResult | null;
  xapian: PeerResult | null;
  lucene: PeerResult | null;
  sphinx: PeerResult | null;
}

export interface LoadSetting {
  connections: number;
  seconds: number;
  batch: number;
}

const GIB = 1024 * MIB;
/** The size issue 15's goals are stated for. */
const GOAL_SIZE = 1_000_000;

function idsLatency(folio: ScaleFolioResult): LatencySummary | null {
  return typeof folio.ids === 'string' ? null : folio.ids;
}

function peerNote(peer: PeerResult): string {
  const cached = peer.builtAt ? `build measured when the index was built, ${peer.builtAt.slice(0, 10)} (peer cache); peak RSS: the larger of that build's and this run's` : 'peak RSS: VmHWM of its own child process';
  return `index: ${peer.indexBytesNote}; ${cached}`;
}

function peers(result: SizeResult): PeerResult[] {
  return [result.fts5, result.xapian, result.lucene, result.sphinx].filter((peer): peer is PeerResult => peer !== null);
}

export function printSizeTables(result: SizeResult, ceiling: CeilingResult, setting: LoadSetting): void {
  const { folio } = result;
  const generated = result.corpus.generatedMs === null ? 'reused' : `generated in ${seconds(result.corpus.generatedMs)} s`;
  console.log(`\n## ${count(result.size)} documents\n`);
  console.log(`Corpus ${result.corpus.dir} (${generated}); ${count(result.queries)} distinct queries.\n`);
  console.log('### Import and index\n');
  const { imported, probe } = folio;
  console.log(markdownTable(
    IMPORT_HEADER,
    [
      [
        '**Folio** (HTTP, NDJSON)',
        count(folio.docs),
        seconds(folio.importMs),
        mib(folio.files.total),
        mib(folio.peakRssImport),
        `until \`POST …/refresh\` answered; ${count(imported.batches)} requests of up to ${count(setting.batch)} docs, longest ${seconds(imported.maxRequestMs)} s ` +
          `(${imported.slowRequests} over ${SLOW_REQUEST_MS / 1000} s); ${imported.retries} retries after 429/503 (${seconds(imported.retryWaitMs)} s waited); ` +
          `search probe every 200 ms during the import: ${count(probe.requests)} probes, slowest ${ms(probe.maxMs, 1)} ms, ${probe.failures} failed; ` +
          `merges settled ${seconds(folio.settleMs)} s later: ${folio.files.segmentCount} segment(s), segments ${mib(folio.files.segments)}, WAL ${mib(folio.files.wal)} MiB; ` +
          `peak RSS column: VmHWM when the refresh answered (${mib(folio.rssBeforeImport)} MiB before the import, ${mib(folio.peakRss)} MiB over the whole run); ` +
          `anonymous (RssAnon) ${mib(folio.anonRssImport)} MiB when the refresh answered, ${mib(folio.peakAnonRssImport)} MiB at most during the import`,
      ],
      ...peers(result).map((peer) => peerImportCells(peer, peerNote(peer))),
    ],
  ));

  const ids = idsLatency(folio);
  console.log(`\n### Sequential search, one connection (${count(folio.full.count)} timed queries each, \`limit\` 10, search cache off)\n`);
  console.log(markdownTable(LATENCY_HEADER, [
    ids === null
      ? ['**Folio** over HTTP, `fields=id&typos=0`', '—', '—', '—', '—', FIELDS_ID_UNSUPPORTED]
      : latencyCells('**Folio** over HTTP, `fields=id&typos=0`', ids, 'ids and scores, exact words (as the peers)'),
    latencyCells('**Folio** over HTTP, full hits', folio.full, 'snippets, highlights, metadata'),
    latencyCells('**Folio** over HTTP, filter + 3 facets', folio.filtered, `full hits, \`filter=${SCALE_FILTER}&facets=${SCALE_FACETS}\``),
    latencyCells('empty Fastify route (HTTP floor)', ceiling.latency, 'same client; measured once per run'),
    ...(result.engine === null ? [] : [latencyCells(result.engine.engine, result.engine.latency, 'full hits, over the server\'s segments')]),
    ...(result.engine?.idsLatency === undefined ? [] : [latencyCells(`${result.engine.engine}, \`fields=id&typos=0\``, result.engine.idsLatency, 'ids and scores only, passes alternating with the row above')]),
    ...peers(result).map((peer) => latencyCells(peerLabel(peer), peer.latency, peer.failedQueries > 0 ? `${peer.failedQueries} queries refused` : 'top 10 ids')),
  ]));
  console.log('\nThe three Folio rows ran alternating: a warm-up pass of each, then each timed pass in turn.');

  if (folio.load !== null) {
    console.log(`\n### Concurrent load: ${setting.connections} connections, ${setting.seconds} s, distinct queries (Folio: autocannon)\n`);
    console.log(markdownTable(LOAD_HEADER, [
      loadCells('**Folio** search, cache off', folio.load),
      ...(folio.idsLoad === null ? [] : [loadCells('**Folio** search, `fields=id&typos=0`, cache off', folio.idsLoad)]),
      ...(result.sphinx?.load === undefined ? [] : [loadCells(`${result.sphinx.engine}: ids, a mysql2 client`, result.sphinx.load)]),
      ...(ceiling.load === null ? [] : [loadCells('empty Fastify route (HTTP ceiling; measured once per run)', ceiling.load)]),
    ]));
  }
}

/** "a / b / c" of the figures, "—" where one is missing. */
function trio(values: (number | null | undefined)[], format: (value: number) => string): string {
  return values.map((value) => (value === null || value === undefined ? '—' : format(value))).join(' / ');
}

export function printScaleCurve(results: SizeResult[]): void {
  console.log('\n## The curve: Folio / SQLite FTS5 / Xapian\n');
  console.log('Folio is the server over HTTP (one connection, search cache off) with `fields=id&typos=0`; FTS5 and Xapian run in process. ' +
    'Build s is Folio\'s import until searchable; its peak RSS is the server\'s at the end of the import.\n');
  console.log(markdownTable(
    ['docs', 'build s', 'index MiB', 'peak RSS MiB', 'QPS', 'p50 ms', 'p99 ms', 'Folio full hits QPS', 'Folio filter + facets QPS', 'Folio engine QPS, `fields=id` / full', 'Folio load req/s'],
    results.map((r) => {
      const ids = idsLatency(r.folio);
      return [
        count(r.size),
        trio([r.folio.importMs, r.fts5?.buildMs, r.xapian?.buildMs], seconds),
        trio([r.folio.files.total, r.fts5?.indexBytes, r.xapian?.indexBytes], mib),
        trio([r.folio.peakRssImport, r.fts5?.peakRssBytes, r.xapian?.peakRssBytes], mib),
        trio([ids?.qps, r.fts5?.latency.qps, r.xapian?.latency.qps], count),
        trio([ids?.p50Ms, r.fts5?.latency.p50Ms, r.xapian?.latency.p50Ms], (v) => ms(v, 2)),
        trio([ids?.p99Ms, r.fts5?.latency.p99Ms, r.xapian?.latency.p99Ms], (v) => ms(v, 2)),
        count(r.folio.full.qps),
        count(r.folio.filtered.qps),
        r.engine === null ? '—' : trio([r.engine.idsLatency?.qps, r.engine.latency.qps], count),
        r.folio.load === null ? '—' : count(r.folio.load.requestsPerSecond),
      ];
    }),
  ));
  if (results.some((r) => idsLatency(r.folio) === null)) console.log(`\n(${FIELDS_ID_UNSUPPORTED}: Folio's QPS and latency columns are "—".)`);
  if (results.some((r) => r.fts5?.builtAt || r.xapian?.builtAt)) console.log('\n(Some peer indexes came from the peer cache: their build figures are from the run that built them.)');
}

const FOLIO_SERIES = 'Folio (server over HTTP)';

/** The chart's two panels: QPS (Folio `fields=id`, or full hits where unsupported) and build time. */
export function scaleChart(results: SizeResult[], subtitle: string): ScaleChart {
  const allIds = results.every((r) => idsLatency(r.folio) !== null);
  const colours = { folio: '#1f6fb4', fts5: '#2a9d3a', xapian: '#d1342b' };
  return {
    title: 'Folio beside SQLite FTS5 and Xapian: synthetic corpus',
    subtitle,
    sizes: results.map((r) => r.size),
    panels: [
      {
        title: `QPS, one connection (Folio: ${allIds ? 'fields=id, typos=0' : 'full hits'})`,
        yLabel: 'queries per second (log scale)',
        series: [
          { name: FOLIO_SERIES, colour: colours.folio, values: results.map((r) => (allIds ? idsLatency(r.folio)!.qps : r.folio.full.qps)) },
          { name: 'SQLite FTS5 (in process)', colour: colours.fts5, values: results.map((r) => r.fts5?.latency.qps ?? null) },
          { name: 'Xapian (in process)', colour: colours.xapian, values: results.map((r) => r.xapian?.latency.qps ?? null) },
        ],
      },
      {
        title: 'Import / build time',
        yLabel: 'seconds (log scale)',
        series: [
          { name: FOLIO_SERIES, colour: colours.folio, values: results.map((r) => r.folio.importMs / 1000) },
          { name: 'SQLite FTS5 (in process)', colour: colours.fts5, values: results.map((r) => (r.fts5?.buildMs == null ? null : r.fts5.buildMs / 1000)) },
          { name: 'Xapian (in process)', colour: colours.xapian, values: results.map((r) => (r.xapian?.buildMs == null ? null : r.xapian.buildMs / 1000)) },
        ],
      },
    ],
  };
}

function cachedNote(peer: PeerResult | null): string {
  return peer?.builtAt ? `, cached from ${peer.builtAt.slice(0, 10)}` : '';
}

export function printScaleGoals(result: SizeResult, setting: LoadSetting): void {
  const { folio, fts5, xapian } = result;
  const ids = idsLatency(folio);
  const noXapian = 'no Xapian peer in this run';
  console.log(`\n## Goals (issue 15) at ${count(result.size)} documents\n`);
  if (result.size !== GOAL_SIZE) console.log(`(The goals are stated for ${count(GOAL_SIZE)} documents; this run's largest size is ${count(result.size)}.)\n`);
  const goals: Goal[] = [
    ratioGoal({
      what: 'import over HTTP until searchable', value: folio.importMs, reference: fts5?.buildMs ?? null,
      referenceName: `FTS5's build time${cachedNote(fts5)}`, factor: 1.5, better: 'lower', format: (v) => `${seconds(v)} s`, missing: 'no FTS5 peer in this run',
    }),
    {
      what: 'server peak RSS during the import', target: '≤ 1 GiB', measured: `${mib(folio.peakRssImport)} MiB`,
      verdict: folio.peakRssImport === null ? 'not measured' : atMost(folio.peakRssImport / GIB, 1, 'GiB'),
    },
    {
      what: 'longest single import request', target: `≤ ${SLOW_REQUEST_MS / 1000} s`, measured: `${seconds(folio.imported.maxRequestMs)} s (${folio.imported.retries} retries)`,
      verdict: atMost(folio.imported.maxRequestMs / 1000, SLOW_REQUEST_MS / 1000, 's'),
    },
    ratioGoal({
      what: 'one connection over HTTP, `fields=id&typos=0`: QPS', value: ids?.qps ?? null, reference: xapian?.latency.qps ?? null,
      referenceName: "Xapian's QPS (in process)", factor: 1.0, better: 'higher', format: (v) => `${count(v)} QPS`, missing: ids === null ? FIELDS_ID_UNSUPPORTED : noXapian,
    }),
    ratioGoal({
      what: 'one connection over HTTP, `fields=id&typos=0`: p99', value: ids?.p99Ms ?? null, reference: xapian?.latency.p99Ms ?? null,
      referenceName: "Xapian's p99", factor: 1.5, better: 'lower', format: (v) => `${ms(v, 2)} ms`, missing: ids === null ? FIELDS_ID_UNSUPPORTED : noXapian,
    }),
  ];
  console.log(goalsTable(goals));

  console.log(`\n## Goals (issue 32) at ${count(result.size)} documents: beside Sphinx searchd and Lucene\n`);
  if (result.size !== GOAL_SIZE) console.log(`(The goals are stated for ${count(GOAL_SIZE)} documents; this run's largest size is ${count(result.size)}.)\n`);
  console.log(goalsTable(servingGoals({
    connections: setting.connections,
    ids,
    idsLoad: folio.idsLoad,
    full: folio.full,
    fullLoad: folio.load,
    engine: result.engine,
    sphinx: result.sphinx,
    lucene: result.lucene,
    importMs: folio.importMs,
    importReference: { name: `FTS5${cachedNote(fts5)}`, buildMs: fts5?.buildMs ?? null, factor: 1.2 },
    peakRss: folio.peakRss,
    idsLoadP99LimitMs: 100,
  })));

  console.log(`\n## Goals (issue 43) at ${count(result.size)} documents: the import\n`);
  if (result.size !== GOAL_SIZE) console.log(`(The goals are stated for ${count(GOAL_SIZE)} documents; this run's largest size is ${count(result.size)}.)\n`);
  const lucene = result.lucene;
  console.log(goalsTable([
    ratioGoal({
      what: 'import over HTTP until searchable', value: folio.importMs, reference: lucene?.buildMs ?? null,
      referenceName: `Lucene's build${cachedNote(lucene)}`, factor: 1.0, better: 'lower', format: (v) => `${seconds(v)} s`, missing: 'no Lucene peer in this run',
    }),
    {
      what: 'server anonymous memory (RssAnon) when the import is searchable', target: '≤ 600 MiB', measured: `${mib(folio.anonRssImport)} MiB (${mib(folio.peakAnonRssImport)} MiB at most during it)`,
      verdict: folio.anonRssImport === null ? 'not measured' : atMost(folio.anonRssImport / 2 ** 20, 600, 'MiB'),
    },
  ]));
}
