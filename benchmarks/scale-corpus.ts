// The synthetic scaling corpus of `npm run bench:scale`: ../shared/corpora/synthetic's
// generator (gen-synthetic.mjs) writes N documents `{id, title, text, metadata: {category,
// year, price, rating, tags, in_stock, author}}`, 1,000 queries `{_id, text, source_doc}` and
// a manifest. Same arguments give byte-identical files, so a corpus already generated in
// DIR/nN is reused (it counts once its manifest is there: the generator writes it last).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SYNTHETIC_DIR = fileURLToPath(new URL('../../shared/corpora/synthetic/', import.meta.url));
export const GENERATOR = join(SYNTHETIC_DIR, 'gen-synthetic.mjs');

export interface SyntheticCorpus {
  docs: number;
  dir: string;
  corpusFile: string;
  queriesFile: string;
  manifestFile: string;
  /** Milliseconds spent generating it in this run; null when it was already there. */
  generatedMs: number | null;
}

export function generatorAvailable(): boolean {
  return existsSync(GENERATOR);
}

/** Where the corpus of `docs` documents lives under `root`: `root/n<docs>`. */
export function corpusDir(root: string, docs: number): string {
  return resolve(root, `n${docs}`);
}

function files(dir: string): Pick<SyntheticCorpus, 'corpusFile' | 'queriesFile' | 'manifestFile'> {
  return { corpusFile: join(dir, 'corpus.jsonl'), queriesFile: join(dir, 'queries.jsonl'), manifestFile: join(dir, 'manifest.json') };
}

export function corpusExists(dir: string): boolean {
  const { corpusFile, manifestFile } = files(dir);
  return existsSync(corpusFile) && existsSync(manifestFile);
}

/** The corpus in `dir`, generated first when it is not there (the generator must be). */
export function ensureCorpus(docs: number, dir: string): SyntheticCorpus {
  let generatedMs: number | null = null;
  if (!corpusExists(dir)) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [GENERATOR, '--n', String(docs), '--out', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.status !== 0) throw new Error(`gen-synthetic.mjs --n ${docs} --out ${dir} failed (${result.status ?? result.signal})`);
    generatedMs = performance.now() - started;
  }
  const paths = files(dir);
  const manifest = JSON.parse(readFileSync(paths.manifestFile, 'utf8')) as { n: number };
  if (manifest.n !== docs) throw new Error(`${paths.manifestFile} is for ${manifest.n} documents, not ${docs}`);
  return { docs, dir, ...paths, generatedMs };
}
