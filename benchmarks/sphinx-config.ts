// The sphinx.conf of the Sphinx peer (benchmarks/peer-sphinx.ts): one tsvpipe source that runs
// benchmarks/peers/sphinx_tsv.mjs over the JSONL corpus (sequential id, title, text), one plain
// index with the English stemmer and one-letter words kept, the indexer's default memory
// limit, and a searchd that keeps every file of its own (pid, log) in the run's folder, listens
// on loopback only with the MySQL protocol (SphinxQL), has no binlog, no query log, no
// watchdog process, and serves each connection on a thread.

import { fileURLToPath } from 'node:url';

export const SPHINX_INDEX = 'docs';
const TSV_SCRIPT = fileURLToPath(new URL('./peers/sphinx_tsv.mjs', import.meta.url));

export interface SphinxConfigOptions {
  corpusFile: string;
  /** Documents to index; Infinity: all. */
  docs: number;
  /** The index's path prefix (its files are `<indexPath>.sp*`). */
  indexPath: string;
  port: number;
  pidFile: string;
  logFile: string;
}

/** A value sphinx.conf takes verbatim: no line breaks, comments or line continuations. */
function confValue(value: string): string {
  if (/[\r\n#]|\\$/.test(value)) throw new Error(`cannot put ${JSON.stringify(value)} in sphinx.conf`);
  return value;
}

/** `value` as one POSIX shell word (indexer runs tsvpipe_command through sh). */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function sphinxConfig(options: SphinxConfigOptions): string {
  const command = [process.execPath, TSV_SCRIPT, options.corpusFile, ...(Number.isFinite(options.docs) ? [String(options.docs)] : [])];
  return `source corpus
{
    type = tsvpipe
    tsvpipe_command = ${confValue(command.map(shellWord).join(' '))}
    tsvpipe_field = title
    tsvpipe_field = text
}

index ${SPHINX_INDEX}
{
    type = plain
    source = corpus
    path = ${confValue(options.indexPath)}
    morphology = stem_en
    min_word_len = 1
}

indexer
{
    mem_limit = 128M
}

searchd
{
    listen = 127.0.0.1:${options.port}:mysql41
    pid_file = ${confValue(options.pidFile)}
    log = ${confValue(options.logFile)}
    binlog_path =
    watchdog = 0
    workers = threads
}
`;
}
