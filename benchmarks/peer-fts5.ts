// Throughput peer: SQLite FTS5 through better-sqlite3, run as a child by benchmarks/gcide.ts
// and benchmarks/scale.ts (peer-process.ts). Streams the corpus into a file database,
// `fts5(title, text, tokenize='porter unicode61')`, in one transaction, and times that build
// (reading and parsing the JSONL included). Then searches each query with bm25 ranking,
// `ORDER BY rank LIMIT 10`. Queries become `"term" OR "term"`: every term quoted, so FTS5
// syntax characters in the text cannot error, and OR to match Folio's default `match=any`.
// With `indexDir` (the peer cache) a database built on an earlier run is opened instead.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readQueryTexts, streamCorpusDocs } from './jsonl-corpus.ts';
import { measureSequential } from './latency.ts';
import { prepareIndexDir, readBuildRecord, writeBuildRecord } from './peer-cache.ts';
import { peerInputFromArgv, reportPeerResult } from './peer-process.ts';
import { peakRssBytes } from './proc-memory.ts';

const ENGINE = 'SQLite FTS5';

/** `lowell dating` → `"lowell" OR "dating"`; null when there is no term. */
function fts5MatchExpression(query: string): string | null {
  const terms = query.split(/\s+/).filter((term) => term !== '');
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

const input = peerInputFromArgv();
const cacheDir = input.indexDir ?? null;
const cached = cacheDir === null ? null : readBuildRecord(cacheDir);
const file = join(cacheDir ?? input.dir, 'fts5.sqlite');
let db: Database.Database;
let docs: number;
let buildMs: number;
if (cached !== null) {
  db = new Database(file, { readonly: true });
  docs = cached.docs;
  buildMs = cached.buildMs;
} else {
  if (cacheDir !== null) prepareIndexDir(cacheDir);
  const started = performance.now();
  db = new Database(file);
  db.exec(`CREATE VIRTUAL TABLE docs USING fts5(title, text, tokenize='porter unicode61')`);
  const insert = db.prepare('INSERT INTO docs (title, text) VALUES (?, ?)');
  docs = 0;
  db.exec('BEGIN');
  for await (const doc of streamCorpusDocs(input.corpusFile, input.docs)) {
    insert.run(doc.title, doc.text);
    docs++;
  }
  db.exec('COMMIT');
  buildMs = performance.now() - started;
  if (cacheDir !== null) {
    writeBuildRecord(cacheDir, { engine: ENGINE, docs, buildMs, peakRssBytes: peakRssBytes('self'), builtAt: new Date().toISOString() });
  }
}

const search = db.prepare('SELECT rowid, title FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10');
const expressions = readQueryTexts(input.queriesFile, input.queries)
  .map(fts5MatchExpression)
  .filter((expression): expression is string => expression !== null);
// A query FTS5 refuses is counted and left out of the timing.
const runnable = expressions.filter((expression) => {
  try {
    search.all(expression);
    return true;
  } catch {
    return false;
  }
});
const failedQueries = expressions.length - runnable.length;
const latency = await measureSequential(runnable, input.passes, (expression) => search.all(expression));
db.close();
const peakRss = peakRssBytes('self');
reportPeerResult({
  engine: ENGINE,
  docs,
  buildMs,
  indexBytes: statSync(file).size,
  indexBytesNote: 'database file',
  peakRssBytes: cached?.peakRssBytes != null && peakRss !== null ? Math.max(cached.peakRssBytes, peakRss) : peakRss,
  latency,
  failedQueries,
  builtAt: cached?.builtAt ?? null,
});
