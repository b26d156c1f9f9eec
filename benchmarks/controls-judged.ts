// A judged set where the search controls matter (`npm run bench:judged`, issue 30): "A judged
// set where the new controls matter, built from real data (… a public product … dataset from
// Debian or npm packages): nDCG@10 before and after using them."
//
// Data: Debian bookworm main amd64's package list as apt keeps it on this machine
// (/var/lib/apt/lists/…_Packages.lz4, read with `lz4cat`). Each package is a product: title =
// the package name, text = its one-line Description, metadata = `section` (string), `tags` (its
// debtags, e.g. "game::strategy", curated by the debtags team; absent when it has none) and
// `size` (Installed-Size, KiB). A name seen twice keeps its first stanza.
// Judgments: Debian's virtual packages. A package's `Provides: www-browser` says "I am a www
// browser"; the virtual name is a user's need and the packages providing it are the relevant
// answers (grade 1). Queries: every name in some Provides (version constraints stripped) that at
// least 3 packages provide, except library / ABI / language-module names (a digit; starting with
// lib, python, perl, ruby, node-, golang, php, r-cran, haskell, ocaml, octave, rust, fonts-;
// ending in -perl, -abi, -dev, -api) and names that are real packages too. The query text is the
// name with `-` and `_` turned into spaces ("mail transport agent"). Sorted by name: even
// indexes are train, odd ones test. The Provides field is the answer key and is never indexed.
//
// A real server process (search cache off) on a temporary data directory; every query is sent
// (POST …/search, limit 100, fields id) under these configurations, nDCG@10 and Recall@100 with
// trec_eval's definitions (ir-metrics.ts), train and test:
//  1. defaults (title 3, text 1);
//  2. `searchable_fields` + `metadata.tags`: PATCH adds it (a background re-index, waited for
//     until the record's `reindexing` is null), its weight tuned on train with per-search
//     `search_fields` (0.5 to 20), then set with PATCH (weights only: no re-index) and
//     measured through the collection setting, which must give the same rankings;
//  3. + `metadata.section`, likewise (0.5, 1, 2, 3, 5), kept only if it raises train nDCG@10
//     (otherwise removed again with PATCH: another re-index);
//  4. a `boost` on `metadata.size` (log1p, factors 0.00001 to 10 tuned on train), kept only if it
//     helps train;
//  5. WordNet synonyms (/usr/share/wordnet, Debian's wordnet-base): every synset of two or more
//     words that holds a query word becomes a group, as bench:synonyms builds them (wordnet.ts);
//     kept only if it helps train.
// Every choice is made on train; test is the verdict. `--smoke`: the first 5,000 packages and the
// queries with a relevant package among them (to check that it runs). Without the Packages file
// or `lz4cat`: a message, exit 0.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { meanOverQueries, ndcgAt, recallAt } from './ir-metrics.ts';
import type { Qrels, Run } from './ir-metrics.ts';
import { markdownTable } from './markdown-table.ts';
import { jsonCaller } from './scifact.ts';
import type { JsonCall } from './scifact.ts';
import { startServerProcess } from './server-process.ts';
import { WORDNET_DIR, readSynsets, wordnetAvailable } from './wordnet.ts';

const PACKAGES_FILE = '/var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4';
const COLLECTION = 'debian';
const BATCH = 1000;
const SMOKE_PACKAGES = 5000;
const MIN_PROVIDERS = 3;
const TAG_WEIGHTS = [0.5, 1, 2, 3, 5, 8, 13, 20];
const SECTION_WEIGHTS = [0.5, 1, 2, 3, 5];
/** log1p(factor × KiB): the larger the factor, the smaller the ratio between two sizes' multipliers. */
const SIZE_FACTORS = [0.00001, 0.0001, 0.001, 0.01, 0.1, 1, 10];
const REINDEX_LIMIT_MS = 15 * 60_000;
const EXCLUDED_QUERY = /\d|^(lib|python|perl|ruby|node-|golang|php|r-cran|haskell|ocaml|octave|rust|fonts-)|(-perl|-abi|-dev|-api)$/;

const { values: args } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });

interface Package {
  name: string;
  description: string;
  section: string;
  tags: string[];
  size: number | null;
  provides: string[];
}

interface Query {
  name: string;
  text: string;
  split: 'train' | 'test';
  /** Names of the packages that provide it. */
  relevant: string[];
}

function lz4catAvailable(): boolean {
  const result = spawnSync('lz4cat', ['--version'], { stdio: 'ignore' });
  return result.error === undefined;
}

/** The list's stanzas as field → value (continuation lines joined with a space). */
function readStanzas(): Record<string, string>[] {
  const text = execFileSync('lz4cat', [PACKAGES_FILE], { maxBuffer: 512 * 1024 * 1024 }).toString('utf8');
  const stanzas: Record<string, string>[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    if (block.trim() === '') continue;
    const fields: Record<string, string> = {};
    let key: string | null = null;
    for (const line of block.split('\n')) {
      if (line.startsWith(' ') || line.startsWith('\t')) {
        if (key !== null) fields[key] += ' ' + line.trim();
        continue;
      }
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      key = line.slice(0, colon);
      fields[key] = line.slice(colon + 1).trim();
    }
    if (fields.Package) stanzas.push(fields);
  }
  return stanzas;
}

function commaList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

/** Every stanza as a package, the first stanza of a name only. */
function toPackages(stanzas: Record<string, string>[]): Package[] {
  const seen = new Set<string>();
  const packages: Package[] = [];
  for (const fields of stanzas) {
    if (seen.has(fields.Package)) continue;
    seen.add(fields.Package);
    const size = Number(fields['Installed-Size']);
    packages.push({
      name: fields.Package,
      description: fields.Description ?? '',
      section: fields.Section ?? '',
      tags: commaList(fields.Tag),
      size: fields['Installed-Size'] !== undefined && Number.isFinite(size) ? size : null,
      provides: commaList(fields.Provides).map((item) => item.replace(/\s*\(.*\)\s*$/, '').trim()).filter(Boolean),
    });
  }
  return packages;
}

/** The virtual names provided by at least MIN_PROVIDERS packages, filtered, sorted, split. */
function buildQueries(packages: readonly Package[]): Query[] {
  const realNames = new Set(packages.map((p) => p.name));
  const providers = new Map<string, Set<string>>();
  for (const p of packages) {
    for (const virtual of p.provides) {
      let set = providers.get(virtual);
      if (!set) providers.set(virtual, (set = new Set()));
      set.add(p.name);
    }
  }
  return [...providers]
    .filter(([name, set]) => set.size >= MIN_PROVIDERS && !EXCLUDED_QUERY.test(name) && !realNames.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, set], i) => ({ name, text: name.replace(/[-_]+/g, ' '), split: i % 2 === 0 ? 'train' : 'test', relevant: [...set].sort() }));
}

/** Debian names are [a-z0-9+.-]; ids may not hold `+`, and `_` never occurs in a name, so `+` → `_plus_` is one-to-one. */
function idMap(packages: readonly Package[]): Map<string, string> {
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const p of packages) {
    const id = p.name.replaceAll('+', '_plus_');
    if (!/^[A-Za-z0-9_.:-]{1,256}$/.test(id)) throw new Error(`package ${p.name}: id ${id} is not a valid document id`);
    if (taken.has(id)) throw new Error(`package ${p.name}: id ${id} is taken`);
    taken.add(id);
    ids.set(p.name, id);
  }
  return ids;
}

interface Scores {
  ndcg: number;
  recall: number;
}

interface Measured {
  train: Scores;
  test: Scores;
  run: Run;
}

interface Row {
  config: string;
  setting: string;
  result: Measured;
  note: string;
}

function sameRuns(a: Run, b: Run): string[] {
  const differing: string[] = [];
  for (const [query, ids] of a) {
    const other = b.get(query) ?? [];
    if (ids.length !== other.length || ids.some((id, i) => id !== other[i])) differing.push(query);
  }
  return differing;
}

async function waitForReindex(call: JsonCall): Promise<{ ms: number; polls: number; maxTotal: number }> {
  const started = performance.now();
  let polls = 0;
  let maxTotal = 0;
  for (;;) {
    const record = await call('GET', `/v1/collections/${COLLECTION}`);
    polls++;
    if (record.reindexing === null || record.reindexing === undefined) return { ms: performance.now() - started, polls, maxTotal };
    maxTotal = Math.max(maxTotal, record.reindexing.documents_total ?? 0);
    if (performance.now() - started > REINDEX_LIMIT_MS) throw new Error(`re-index not done after ${REINDEX_LIMIT_MS / 1000} s: ${JSON.stringify(record.reindexing)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Per test query, a metric of `run` against `base`: queries better / worse, and a two-sided paired randomization (sign-flip) test's p on the mean difference. */
function pairedOnTest(qrels: Qrels, base: Run, run: Run, metric: (ranked: readonly string[], judged: ReadonlyMap<string, number>) => number): { better: number; worse: number; p: number } {
  const diffs = [...qrels].map(([query, judged]) => metric(run.get(query) ?? [], judged) - metric(base.get(query) ?? [], judged));
  const observed = Math.abs(diffs.reduce((sum, d) => sum + d, 0));
  let seed = 0x9e3779b9;
  const random = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rounds = 10_000;
  let atLeast = 0;
  for (let i = 0; i < rounds; i++) {
    let sum = 0;
    for (const d of diffs) sum += random() < 0.5 ? d : -d;
    if (Math.abs(sum) >= observed - 1e-12) atLeast++;
  }
  return { better: diffs.filter((d) => d > 1e-12).length, worse: diffs.filter((d) => d < -1e-12).length, p: (atLeast + 1) / (rounds + 1) };
}

function fmt(value: number): string {
  return value.toFixed(4);
}

async function main(): Promise<void> {
  if (!existsSync(PACKAGES_FILE)) {
    console.log(`Debian's package list not found at ${PACKAGES_FILE} (apt-get update on Debian bookworm): skipped.`);
    return;
  }
  if (!lz4catAvailable()) {
    console.log('lz4cat not found (apt-get install lz4): skipped.');
    return;
  }
  const smoke = args.smoke ?? false;
  const stanzas = readStanzas();
  const allPackages = toPackages(stanzas);
  const allQueries = buildQueries(allPackages);
  const packages = smoke ? toPackages(stanzas.slice(0, SMOKE_PACKAGES)) : allPackages;
  const ids = idMap(packages);
  const inCorpus = new Set(packages.map((p) => p.name));

  const queries = allQueries
    .map((q) => ({ ...q, relevant: q.relevant.filter((name) => inCorpus.has(name)) }))
    .filter((q) => q.relevant.length > 0);
  const qrelsOf = (split: 'train' | 'test'): Qrels =>
    new Map(queries.filter((q) => q.split === split).map((q) => [q.name, new Map(q.relevant.map((name) => [ids.get(name)!, 1]))]));
  const trainQrels = qrelsOf('train');
  const testQrels = qrelsOf('test');

  const date = new Date().toISOString().slice(0, 10);
  console.log(`# Judged set where the controls matter: Debian packages (issue 30)${smoke ? ' — SMOKE' : ''}\n`);
  console.log(`Machine: ${cpus()[0]?.model ?? 'CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}; ${date}`);
  console.log(`Corpus: ${packages.length.toLocaleString('en')} packages (${stanzas.length.toLocaleString('en')} stanzas in the list${smoke ? `, the first ${SMOKE_PACKAGES.toLocaleString('en')} used` : ''}; ` +
    `${packages.filter((p) => p.tags.length > 0).length.toLocaleString('en')} with debtags)`);
  console.log(`Queries: ${allQueries.length} virtual names provided by ≥ ${MIN_PROVIDERS} packages; ${queries.length} with a relevant package in the corpus: ` +
    `${trainQrels.size} train, ${testQrels.size} test; ${queries.reduce((sum, q) => sum + q.relevant.length, 0).toLocaleString('en')} judgments\n`);
  for (const q of queries) console.log(`  ${q.split === 'train' ? 'train' : 'test '} ${q.name} (${q.relevant.length}): "${q.text}"`);

  const dataDir = mkdtempSync(join(tmpdir(), 'folio-judged-'));
  const server = await startServerProcess(dataDir, 'folio_' + 'j'.repeat(40), ['--search-cache-mb', '0']);
  const call = jsonCaller(server.url, server.masterKey);
  const notes: string[] = [];
  try {
    await call('POST', '/v1/collections', { name: COLLECTION, language: 'english' });
    const importStarted = performance.now();
    for (let i = 0; i < packages.length; i += BATCH) {
      const last = i + BATCH >= packages.length;
      const ndjson = packages
        .slice(i, i + BATCH)
        .map((p) => {
          const metadata: Record<string, unknown> = { section: p.section };
          if (p.tags.length > 0) metadata.tags = p.tags;
          if (p.size !== null) metadata.size = p.size;
          return JSON.stringify({ id: ids.get(p.name), title: p.name, text: p.description, metadata });
        })
        .join('\n');
      await call('POST', `/v1/collections/${COLLECTION}/documents${last ? '?refresh=wait_for' : ''}`, ndjson, 'application/x-ndjson');
    }
    const importMs = performance.now() - importStarted;
    const record = await call('GET', `/v1/collections/${COLLECTION}`);
    if (record.documents !== packages.length) throw new Error(`expected ${packages.length} documents, the server has ${record.documents}`);
    console.log(`Imported ${packages.length.toLocaleString('en')} packages in ${(importMs / 1000).toFixed(1)} s (batches of ${BATCH}, refresh=wait_for on the last)\n`);

    const measure = async (extra: Record<string, unknown>): Promise<Measured> => {
      const run: Run = new Map();
      for (const q of queries) {
        const result = await call('POST', `/v1/collections/${COLLECTION}/search`, { q: q.text, limit: 100, fields: ['id'], ...extra });
        if (result.warnings) notes.push(`${q.name} ${JSON.stringify(extra)}: warnings ${JSON.stringify(result.warnings)}`);
        run.set(q.name, result.hits.map((hit: { id: string }) => hit.id));
      }
      const scores = (qrels: Qrels): Scores => ({
        ndcg: meanOverQueries(qrels, run, (r, j) => ndcgAt(10, r, j)),
        recall: meanOverQueries(qrels, run, (r, j) => recallAt(100, r, j)),
      });
      return { train: scores(trainQrels), test: scores(testQrels), run };
    };
    const patch = async (body: Record<string, unknown>, label: string): Promise<void> => {
      const answer = await call('PATCH', `/v1/collections/${COLLECTION}`, body);
      const wait = await waitForReindex(call);
      const inAnswer = answer.reindexing ? `re-index ${JSON.stringify(answer.reindexing.fields)} over ${answer.reindexing.documents_total} docs` : 'no re-index';
      console.log(`PATCH ${label}: ${inAnswer}; reindexing null after ${(wait.ms / 1000).toFixed(1)} s (${wait.polls} polls)`);
    };
    const check = (label: string, a: Run, b: Run): void => {
      const differing = sameRuns(a, b);
      const line = differing.length === 0 ? `${label}: identical rankings for all ${a.size} queries` : `${label}: rankings DIFFER for ${differing.length} of ${a.size} queries (${differing.slice(0, 8).join(', ')})`;
      console.log(line);
      if (differing.length > 0) notes.push(line);
    };

    const rows: Row[] = [];
    const tuning: string[][] = [];
    // 1. Defaults.
    const defaults = await measure({});
    rows.push({ config: '1. defaults', setting: 'title 3, text 1', result: defaults, note: '' });
    let chosen: Measured = defaults;
    const chosenParts: string[] = [];

    // 2. + metadata.tags.
    await patch({ searchable_fields: [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }, { field: 'metadata.tags', weight: 1 }] }, 'searchable_fields + metadata.tags');
    check('search_fields title^3,text with metadata.tags searchable vs defaults', (await measure({ search_fields: 'title^3,text' })).run, defaults.run);
    let bestTags: { weight: number; result: Measured } | null = null;
    for (const weight of TAG_WEIGHTS) {
      const result = await measure({ search_fields: `title^3,text,metadata.tags^${weight}` });
      tuning.push(['metadata.tags', String(weight), fmt(result.train.ndcg), fmt(result.train.recall)]);
      if (bestTags === null || result.train.ndcg > bestTags.result.train.ndcg) bestTags = { weight, result };
    }
    const tagsWeight = bestTags!.weight;
    const tagsFields = [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }, { field: 'metadata.tags', weight: tagsWeight }];
    await patch({ searchable_fields: tagsFields }, `metadata.tags weight ${tagsWeight}`);
    const tags = await measure({});
    check('collection setting vs the same per-search search_fields', tags.run, (await measure({ search_fields: `title^3,text,metadata.tags^${tagsWeight}` })).run);
    const tagsHelps = tags.train.ndcg > chosen.train.ndcg;
    rows.push({ config: '2. + searchable `metadata.tags`', setting: `weight ${tagsWeight} (of ${TAG_WEIGHTS.join(', ')})`, result: tags, note: tagsHelps ? 'kept' : 'not kept: no train gain' });
    let baseFields = tagsHelps ? tagsFields : tagsFields.slice(0, 2);
    if (tagsHelps) {
      chosen = tags;
      chosenParts.push(`metadata.tags ${tagsWeight}`);
    }

    // 3. + metadata.section.
    await patch({ searchable_fields: [...tagsFields, { field: 'metadata.section', weight: 1 }] }, 'searchable_fields + metadata.section');
    const fieldsString = (fields: { field: string; weight: number }[]): string => fields.map((f) => `${f.field}^${f.weight}`).join(',');
    let bestSection = { weight: 0, result: chosen };
    let bestSectionAny: { weight: number; result: Measured } | null = null;
    for (const weight of SECTION_WEIGHTS) {
      const result = await measure({ search_fields: `${fieldsString(baseFields)},metadata.section^${weight}` });
      tuning.push(['metadata.section', String(weight), fmt(result.train.ndcg), fmt(result.train.recall)]);
      if (bestSectionAny === null || result.train.ndcg > bestSectionAny.result.train.ndcg) bestSectionAny = { weight, result };
      if (result.train.ndcg > bestSection.result.train.ndcg) bestSection = { weight, result };
    }
    if (bestSection.weight > 0) {
      baseFields = [...baseFields, { field: 'metadata.section', weight: bestSection.weight }];
      await patch({ searchable_fields: baseFields }, `metadata.section weight ${bestSection.weight}`);
      const section = await measure({});
      check('collection setting vs the same per-search search_fields', section.run, bestSection.result.run);
      rows.push({ config: '3. + searchable `metadata.section`', setting: `weight ${bestSection.weight} (of ${SECTION_WEIGHTS.join(', ')})`, result: section, note: 'kept' });
      chosen = section;
      chosenParts.push(`metadata.section ${bestSection.weight}`);
    } else {
      rows.push({ config: '3. + searchable `metadata.section`', setting: `best on train: weight ${bestSectionAny!.weight} (per-search \`search_fields\`)`, result: bestSectionAny!.result, note: 'not kept: no train gain' });
      await patch({ searchable_fields: baseFields }, 'back without metadata.section');
      check('after removing metadata.section vs before adding it', (await measure({})).run, chosen.run);
    }

    // 4. Boost by installed size.
    let bestBoost = { factor: 0, result: chosen };
    let bestBoostAny: { factor: number; result: Measured } | null = null;
    for (const factor of SIZE_FACTORS) {
      const result = await measure({ boost: [{ field: 'metadata.size', modifier: 'log1p', factor }] });
      tuning.push(['boost metadata.size log1p', String(factor), fmt(result.train.ndcg), fmt(result.train.recall)]);
      if (bestBoostAny === null || result.train.ndcg > bestBoostAny.result.train.ndcg) bestBoostAny = { factor, result };
      if (result.train.ndcg > bestBoost.result.train.ndcg) bestBoost = { factor, result };
    }
    const boostKept = bestBoost.factor > 0;
    const boostShown = boostKept ? bestBoost : bestBoostAny!;
    rows.push({ config: '4. + `boost` on `metadata.size` (log1p)', setting: `factor ${boostShown.factor} (of ${SIZE_FACTORS.join(', ')})`, result: boostShown.result, note: boostKept ? 'kept' : 'not kept: no train gain' });
    const boost = boostKept ? [{ field: 'metadata.size', modifier: 'log1p', factor: bestBoost.factor }] : [];
    if (boostKept) {
      await patch({ ranking: { boost } }, `ranking.boost size factor ${bestBoost.factor}`);
      const viaSetting = await measure({});
      check('ranking.boost setting vs the same per-search boost', viaSetting.run, bestBoost.result.run);
      chosen = viaSetting;
      chosenParts.push(`boost log1p(${bestBoost.factor} × size)`);
    }

    // 5. WordNet synonyms.
    if (wordnetAvailable()) {
      const queryWords = new Set(queries.flatMap((q) => q.text.toLowerCase().split(/[^a-z0-9+]+/)).filter(Boolean));
      const groups = readSynsets()
        .filter((words) => words.some((word) => queryWords.has(word) || word.split(' ').every((part) => queryWords.has(part))))
        .map((words) => ({ words }));
      await patch({ synonyms: groups }, `synonyms: ${groups.length} WordNet groups`);
      const off = await measure({ synonyms: false });
      check('synonyms=false with synonyms configured vs the chosen configuration', off.run, chosen.run);
      const on = await measure({});
      const synonymsKept = on.train.ndcg > chosen.train.ndcg;
      rows.push({ config: '5. + WordNet synonyms', setting: `${groups.length.toLocaleString('en')} groups holding a query word`, result: on, note: synonymsKept ? 'kept' : 'not kept: no train gain' });
      if (synonymsKept) {
        chosen = on;
        chosenParts.push(`${groups.length} WordNet synonym groups`);
      }
    } else {
      console.log(`WordNet not found at ${WORDNET_DIR} (apt-get install wordnet-base): configuration 5 skipped.`);
    }

    rows.push({ config: '**chosen on train**', setting: chosenParts.length === 0 ? 'defaults' : chosenParts.join(' + '), result: chosen, note: 'the verdict is its test column' });

    console.log('\n## Tuning on train (nDCG@10, Recall@100)\n');
    console.log(markdownTable(['control', 'value', 'train nDCG@10', 'train R@100'], tuning));
    console.log(`\n## Results (${trainQrels.size} train, ${testQrels.size} test queries; ${packages.length.toLocaleString('en')} packages)\n`);
    console.log(markdownTable(
      ['configuration', 'setting', 'train nDCG@10', 'train R@100', 'test nDCG@10', 'test R@100', 'test +/− (p): nDCG@10; R@100', 'choice'],
      rows.map((r) => {
        const paired = (metric: (ranked: readonly string[], judged: ReadonlyMap<string, number>) => number): string => {
          const { better, worse, p } = pairedOnTest(testQrels, defaults.run, r.result.run, metric);
          return `${better}/${worse} (${p.toFixed(2)})`;
        };
        const vsDefaults = r.result === defaults ? '' : `${paired((x, j) => ndcgAt(10, x, j))}; ${paired((x, j) => recallAt(100, x, j))}`;
        return [r.config, r.setting, fmt(r.result.train.ndcg), fmt(r.result.train.recall), fmt(r.result.test.ndcg), fmt(r.result.test.recall), vsDefaults, r.note];
      }),
    ));
    console.log('\n+/−: test queries whose nDCG@10 (then Recall@100) rose / fell against the defaults; p: two-sided paired randomization test (10,000 sign flips) on the mean difference.');
    console.log(`\nVerdict (test): nDCG@10 ${fmt(defaults.test.ndcg)} with the defaults → ${fmt(chosen.test.ndcg)} with ${chosenParts.join(' + ') || 'the defaults'}; ` +
      `Recall@100 ${fmt(defaults.test.recall)} → ${fmt(chosen.test.recall)}.`);

    console.log('\n## Per query: nDCG@10, defaults → chosen\n');
    for (const q of queries) {
      const judged = new Map(q.relevant.map((name) => [ids.get(name)!, 1]));
      const before = ndcgAt(10, defaults.run.get(q.name) ?? [], judged);
      const after = ndcgAt(10, chosen.run.get(q.name) ?? [], judged);
      console.log(`  ${q.split === 'train' ? 'train' : 'test '} ${q.name.padEnd(32)} ${fmt(before)} → ${fmt(after)}${after > before ? ' +' : after < before ? ' −' : ''}`);
    }
    if (notes.length > 0) console.log(`\nNotes:\n${notes.map((n) => `- ${n}`).join('\n')}`);
    if (smoke && !(defaults.train.ndcg > 0 || defaults.test.ndcg > 0)) throw new Error('smoke: every query scored 0 with the defaults');
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
