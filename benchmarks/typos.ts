// Typo robustness benchmark (`npm run bench:typos`, issue 14 point 8): starts a real Folio
// server, indexes SciFact (../shared/corpora/scifact) once over HTTP, then runs its test queries
// four ways and prints them side by side with the figures from before typo tolerance:
//  (a) clean queries, `typos` 0 (typo tolerance off);
//  (b) clean queries, `typos` left out (the default, `auto`);
//  (c) the queries with one typo in each word of 5+ letters (typo-queries.ts), `typos` 0;
//  (d) the same typo'd queries, default `typos`.
// Each gets nDCG@10 and Recall@100 (trec_eval's definitions, ir-metrics.ts) and its query time
// (client wall time per search over HTTP, hits and snippets included; search cache off), and
// the verdicts of the issue: typo'd + auto nDCG@10 ≥ 90 % of the clean figure; typo tolerance
// costs clean queries at most 0.005 nDCG@10.
// Options: --split test|train (test; tune on train, report test), --seed N (1: which typos),
// --passes P (timed passes over the four runs after the scored pass and a warm-up, orders
// rotated: 1; 0 times the scored pass), --examples N (typo'd queries printed: 8),
// --build LABEL=DIR (repeatable: also run another checkout's built server in the same run,
// before this checkout's; e.g. `git archive <commit> | tar -x -C DIR`, node_modules linked
// into DIR, `tsc -p tsconfig.build.json` there),
// --smoke (40 queries, no timed pass: seconds).

import { cpus, totalmem, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { meanOverQueries, ndcgAt, recallAt } from './ir-metrics.ts';
import type { Qrels, Run } from './ir-metrics.ts';
import { percentile } from './latency.ts';
import { markdownTable, ms } from './markdown-table.ts';
import { SCIFACT_DIR, indexScifact, jsonCaller, parseSplit, readScifact, scifactAvailable } from './scifact.ts';
import type { Scifact, ScifactDocument } from './scifact.ts';
import { startListeningProcess, startServerProcess } from './server-process.ts';
import { addTypos, TYPO_KINDS } from './typo-queries.ts';
import type { TypoQuery } from './typo-queries.ts';

const LIMIT = 100;
/** SciFact test figures before typo tolerance (benchmarks/README.md, 2026-11-21). */
const BEFORE_TYPO_TOLERANCE = { ndcg: 0.694, recall: 0.917 };

const { values: args } = parseArgs({
  options: {
    split: { type: 'string', default: 'test' },
    seed: { type: 'string', default: '1' },
    passes: { type: 'string' },
    examples: { type: 'string', default: '8' },
    smoke: { type: 'boolean', default: false },
    build: { type: 'string', multiple: true, default: [] },
  },
});
const split = parseSplit(args.split);
const SEED = Number(args.seed);
const PASSES = Number(args.passes ?? (args.smoke ? 0 : 1));
const EXAMPLES = Number(args.examples);
if (!Number.isInteger(SEED)) throw new Error('--seed expects a whole number');
if (!(Number.isInteger(PASSES) && PASSES >= 0)) throw new Error('--passes expects a whole number ≥ 0');
const SMOKE_QUERIES = 40;

interface Condition {
  key: string;
  name: string;
  typo: boolean;
  /** The `typos` parameter sent, or undefined: left out (the default, auto). */
  typos: 0 | undefined;
}

const CONDITIONS: Condition[] = [
  { key: 'a', name: 'clean, `typos=0`', typo: false, typos: 0 },
  { key: 'b', name: 'clean, default (`auto`)', typo: false, typos: undefined },
  { key: 'c', name: 'typo\'d, `typos=0`', typo: true, typos: 0 },
  { key: 'd', name: 'typo\'d, default (`auto`)', typo: true, typos: undefined },
];

function readCorpus(): Scifact {
  const corpus = readScifact(split);
  if (args.smoke) corpus.qrels = new Map([...corpus.qrels].slice(0, SMOKE_QUERIES));
  return corpus;
}

function typoStatistics(typoQueries: Map<string, TypoQuery>): string {
  const all = [...typoQueries.values()];
  const words = all.flatMap((q) => q.typos);
  const byKind = TYPO_KINDS.map((kind) => `${words.filter((w) => w.kind === kind).length} ${kind}s`).join(', ');
  const length = (s: string): number => [...s].length;
  // Under the default rules (one typo from 5 letters, two from 9, a first-letter typo counts as
  // two; counted on the word as typed), which typo'd words can be matched back at all.
  const firstLetter = words.filter((w) => [...w.typed][0]?.toLowerCase() !== [...w.word][0]?.toLowerCase());
  const noBudget = words.filter((w) => length(w.typed) < 5);
  const firstLetterShort = firstLetter.filter((w) => length(w.typed) >= 5 && length(w.typed) < 9);
  return (
    `${all.filter((q) => q.typos.length > 0).length} of ${all.length} queries changed; ${words.length} words with a typo ` +
    `(${byKind}). Out of reach of the default rules: ${noBudget.length} words left with 4 letters (no typo allowed), ` +
    `${firstLetterShort.length} words of 5–8 letters whose first letter changed (a first-letter typo counts as two).`
  );
}

interface ConditionResult {
  condition: Condition;
  ndcg: number;
  recall: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  samples: number;
  noHits: number;
}

interface Build {
  label: string;
  /** A checkout with its `dist/` built (and node_modules), or null: this checkout. */
  dir: string | null;
}

/** Indexes SciFact in a fresh server of `build` and runs the four conditions against it. */
async function runBuild(build: Build, docs: ScifactDocument[], qrels: Qrels, text: (id: string, typo: boolean) => string): Promise<ConditionResult[]> {
  const queryIds = [...qrels.keys()];
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-typos-'));
  const masterKey = 'folio_' + 't'.repeat(40);
  // Search cache off: every timed search runs (repeating a run would otherwise be answered from it).
  const serverArgs = ['serve', '--port', '0', '--data', dataDir, '--log-level', 'warn', '--search-cache-mb', '0'];
  const server =
    build.dir === null
      ? await startServerProcess(dataDir, masterKey, serverArgs.slice(5))
      : await startListeningProcess([join(build.dir, 'dist/cli/folio.js'), ...serverArgs], { ...process.env, FOLIO_MASTER_KEY: masterKey });
  const call = jsonCaller(server.url, masterKey);
  const search = async (q: string, typos: 0 | undefined, timing: number[]): Promise<string[]> => {
    const body = typos === undefined ? { q, limit: LIMIT } : { q, limit: LIMIT, typos };
    const started = performance.now();
    const result = await call('POST', '/v1/collections/scifact/search', body);
    timing.push(performance.now() - started);
    return result.hits.map((hit: { id: string }) => hit.id);
  };

  try {
    const indexMs = await indexScifact(call, 'scifact', docs);
    console.error(`[typos] ${build.label}: indexed over HTTP in ${(indexMs / 1000).toFixed(2)} s`);

    // The scored pass (a, b, c, d in order); then, when timing, a warm-up pass and the timed
    // passes, each with the order rotated so that no run always follows the same one. Without
    // timed passes the scored pass is timed (cold).
    const runs = new Map<string, Run>();
    const timings = new Map<string, number[]>(CONDITIONS.map((c) => [c.key, []]));
    const scratch: number[] = [];
    let changed = 0;
    for (let pass = 0; pass <= (PASSES > 0 ? PASSES + 1 : 0); pass++) {
      for (let k = 0; k < CONDITIONS.length; k++) {
        const condition = CONDITIONS[(k + pass) % CONDITIONS.length];
        const timed = PASSES === 0 || pass >= 2;
        const run: Run = new Map();
        for (const id of queryIds) run.set(id, await search(text(id, condition.typo), condition.typos, timed ? timings.get(condition.key)! : scratch));
        if (pass === 0) runs.set(condition.key, run);
        else for (const id of queryIds) if (run.get(id)!.join() !== runs.get(condition.key)!.get(id)!.join()) changed++;
      }
    }
    if (changed > 0) console.log(`\nWarning (${build.label}): ${changed} rankings differed between passes.`);

    return CONDITIONS.map((condition) => {
      const run = runs.get(condition.key)!;
      const timing = timings.get(condition.key)!;
      const sorted = Float64Array.from(timing).sort();
      return {
        condition,
        ndcg: meanOverQueries(qrels, run, (r, j) => ndcgAt(10, r, j)),
        recall: meanOverQueries(qrels, run, (r, j) => recallAt(LIMIT, r, j)),
        meanMs: timing.reduce((sum, v) => sum + v, 0) / timing.length,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        samples: timing.length,
        noHits: [...run.values()].filter((hits) => hits.length === 0).length,
      };
    });
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function verdicts(label: string, [a, b, c, d]: ConditionResult[]): string[][] {
  const clean = Math.max(a.ndcg, b.ndcg);
  const share = d.ndcg / clean;
  const cost = a.ndcg - b.ndcg;
  return [
    [
      label,
      'typo\'d queries, default typos: nDCG@10 ≥ 90 % of the clean figure',
      `${d.ndcg.toFixed(4)} = ${(share * 100).toFixed(1)} % of ${clean.toFixed(4)} (the better clean run; ${((d.ndcg / b.ndcg) * 100).toFixed(1)} % of (b)); without typo tolerance (c): ${((c.ndcg / clean) * 100).toFixed(1)} %`,
      share >= 0.9 ? '**met**' : `**missed** by ${((0.9 - share) * 100).toFixed(1)} points`,
    ],
    [
      label,
      'clean queries: typo tolerance costs at most 0.005 nDCG@10',
      `${a.ndcg.toFixed(4)} (a) − ${b.ndcg.toFixed(4)} (b) = ${cost >= 0 ? '' : '−'}${Math.abs(cost).toFixed(4)}`,
      cost <= 0.005 ? '**met**' : `**missed** by ${(cost - 0.005).toFixed(4)}`,
    ],
    [
      label,
      'typo expansion cost: query time, default vs `typos=0`',
      `clean ${ms(b.meanMs)} vs ${ms(a.meanMs)} ms (×${(b.meanMs / a.meanMs).toFixed(2)}); typo'd ${ms(d.meanMs)} vs ${ms(c.meanMs)} ms (×${(d.meanMs / c.meanMs).toFixed(2)})`,
      '(reported)',
    ],
  ];
}

async function main(): Promise<void> {
  if (!scifactAvailable()) {
    console.log(`SciFact not found at ${SCIFACT_DIR}; skipping the typo benchmark (it needs ../shared/corpora beside the checkout).`);
    return;
  }
  const { docs, queries, qrels } = readCorpus();
  const queryIds = [...qrels.keys()];
  const typoQueries = new Map(queryIds.map((id) => [id, addTypos(queries.get(id) ?? '', id, SEED)]));
  const text = (id: string, typo: boolean): string => (typo ? typoQueries.get(id)!.text : queries.get(id) ?? '');
  const builds: Build[] = [
    ...args.build.map((spec): Build => {
      const at = spec.indexOf('=');
      return at < 0 ? { label: spec, dir: resolve(spec) } : { label: spec.slice(0, at), dir: resolve(spec.slice(at + 1)) };
    }),
    { label: 'this checkout', dir: null },
  ];

  const cpu = cpus();
  console.log('# Typo robustness: SciFact with one typo in each word of 5+ letters');
  console.log('');
  console.log(
    `${new Date().toISOString().slice(0, 10)}; ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
      `${docs.length} documents indexed over HTTP, ${queryIds.length} ${split} queries${args.smoke ? ' (smoke)' : ''}, seed ${SEED}, \`limit\` ${LIMIT}.`,
  );
  console.log('');
  console.log(typoStatistics(typoQueries));

  const results: ConditionResult[][] = [];
  for (const build of builds) results.push(await runBuild(build, docs, qrels, text));
  const many = builds.length > 1;

  const timingNote = PASSES > 0 ? `time over ${PASSES} timed pass(es) after a warm-up` : 'time from the scored pass, cold';
  console.log(`\n## nDCG@10, Recall@100 and query time (${split}; ${timingNote}; ${results[0][0].samples} searches per run, \`limit\` ${LIMIT}, POST over HTTP, snippets included)\n`);
  const rows: string[][] = [];
  builds.forEach((build, i) => {
    for (const r of results[i]) {
      rows.push([
        ...(many ? [build.label] : []),
        `(${r.condition.key}) ${r.condition.name}`,
        r.ndcg.toFixed(4),
        r.recall.toFixed(4),
        String(r.noHits),
        ms(r.meanMs),
        ms(r.p50Ms),
        ms(r.p99Ms),
      ]);
    }
  });
  if (split === 'test' && !args.smoke) {
    rows.push([...(many ? ['README, 2026-11-21'] : []), 'before typo tolerance', BEFORE_TYPO_TOLERANCE.ndcg.toFixed(4), BEFORE_TYPO_TOLERANCE.recall.toFixed(4), '—', '—', '—', '—']);
  }
  console.log(markdownTable([...(many ? ['build'] : []), 'run', 'nDCG@10', 'Recall@100', 'queries with no hits', 'mean ms', 'p50 ms', 'p99 ms'], rows));

  console.log('\n## Verdicts (issue 14 point 8)\n');
  const verdictRows = builds.flatMap((build, i) => verdicts(build.label, results[i]).map((row) => (many ? row : row.slice(1))));
  console.log(markdownTable([...(many ? ['build'] : []), 'goal', 'measured', 'verdict'], verdictRows));
  if (args.smoke) console.log('\n(A smoke run: a few queries, the verdicts are for the whole split.)');

  if (EXAMPLES > 0) {
    console.log(`\n## The first ${EXAMPLES} typo'd queries\n`);
    const lines = queryIds.slice(0, EXAMPLES).map((id) => {
      const typo = typoQueries.get(id)!;
      return [id, queries.get(id) ?? '', typo.text, typo.typos.map((t) => `${t.word}→${t.typed} (${t.kind})`).join(', ')];
    });
    console.log(markdownTable(['query', 'clean', 'typo\'d', 'typos'], lines));
  }
}

await main();
