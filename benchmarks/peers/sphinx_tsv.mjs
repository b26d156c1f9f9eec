// The tsvpipe_command of the Sphinx peer (benchmarks/peer-sphinx.ts): `node sphinx_tsv.mjs
// <corpus.jsonl> [limit]` prints the first `limit` documents (all without it) of a JSONL corpus
// `{id, title, text, …}` as TSV for Sphinx's indexer: a sequential document id from 1, the
// title, the text. Tabs, carriage returns and newlines in title and text become spaces (the
// TSV has no quoting). Plain Node, no TypeScript, so the pipe starts without tsx.

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const [corpusFile, limitArg] = process.argv.slice(2);
if (corpusFile === undefined) {
  process.stderr.write('usage: node sphinx_tsv.mjs <corpus.jsonl> [limit]\n');
  process.exit(2);
}
const limit = limitArg === undefined ? Infinity : Number(limitArg);
const FLUSH_CHARS = 1 << 16;

const clean = (value) => String(value ?? '').replace(/[\t\r\n]/g, ' ');

/** Writes `chunk`, waiting for the pipe to drain when it is full. */
function write(chunk) {
  if (process.stdout.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => process.stdout.once('drain', resolve));
}

const lines = createInterface({ input: createReadStream(corpusFile), crlfDelay: Infinity });
let id = 0;
let buffer = '';
for await (const line of lines) {
  if (id >= limit) break;
  if (line === '') continue;
  const doc = JSON.parse(line);
  id++;
  buffer += `${id}\t${clean(doc.title)}\t${clean(doc.text)}\n`;
  if (buffer.length >= FLUSH_CHARS) {
    await write(buffer);
    buffer = '';
  }
}
lines.close();
await write(buffer);
