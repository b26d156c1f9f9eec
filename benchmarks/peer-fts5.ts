// GCIDE peer: SQLite FTS5 through better-sqlite3, run as a child by benchmarks/gcide.ts
// (peer-process.ts). Streams the corpus into a file database, `fts5(title, text,
// tokenize='porter unicode61')`, in one transaction, and times that build (reading and parsing
// the JSONL included). Then searches each query with bm25 ranking, `ORDER BY rank LIMIT 10`.
// Queries become `"term" OR "term"`: every term quoted, so FTS5 syntax characters in the text
// cannot error, and OR to match Folio's default `match=any`.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readGcideQueries, streamGcideDocs } from './gcide-corpus.ts';
import { measureSequential } from './latency.ts';
import { peerInputFromArgv, reportPeerResult } from './peer-process.ts';
import { peakRssBytes } from './proc-memory.ts';

/** `lowell dating` → `"lowell" OR "dating"`; null when there is no term. */
function fts5MatchExpression(query: string): string | null {
  const terms = query.split(/\s+/).filter((term) => term !== '');
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

const input = peerInputFromArgv();
const file = join(input.dir, 'gcide-fts5.sqlite');
const started = performance.now();
const db = new Database(file);
db.exec(`CREATE VIRTUAL TABLE docs USING fts5(title, text, tokenize='porter unicode61')`);
const insert = db.prepare('INSERT INTO docs (title, text) VALUES (?, ?)');
let docs = 0;
db.exec('BEGIN');
for await (const doc of streamGcideDocs(input.docs)) {
  insert.run(doc.title, doc.text);
  docs++;
}
db.exec('COMMIT');
const buildMs = performance.now() - started;

const search = db.prepare('SELECT rowid, title FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10');
const expressions = readGcideQueries(input.queries)
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
reportPeerResult({
  engine: 'SQLite FTS5',
  docs,
  buildMs,
  indexBytes: statSync(file).size,
  indexBytesNote: 'database file',
  peakRssBytes: peakRssBytes('self'),
  latency,
  failedQueries,
});
