// `folio index <collection> <paths…>`: uploads files and folders (recursively, hidden ones
// skipped) a few at a time, shows progress on standard error, and ends with a summary that
// names each failed file with its SPEC code and message; exit status 1 if any failed.
// Each document gets `metadata.path`, the file's path as walked, so results can show and
// filter by it. An error that would fail every remaining file too (bad key, no such
// collection, server gone) stops the run instead of being repeated for each file.

import { sep } from 'node:path';
import type { Command } from 'commander';
import type { FolioClient } from '../../clients/typescript/index.ts';
import { integerArgument } from '../arguments.ts';
import { connect } from '../connect.ts';
import { action, describeError, EXIT_FAILURE, errorLine, reportError } from '../errors.ts';
import { clean, note, say } from '../output.ts';
import { Progress } from '../progress.ts';
import { walkFiles } from '../walk-files.ts';

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 64;
/** Errors that no other file would escape: the run stops at the first of them. */
const FATAL_CODES = new Set(['unauthorized', 'forbidden', 'collection_not_found', 'network_error']);

interface IndexOptions {
  concurrency: number;
  refresh?: boolean;
}

interface Failure {
  path: string;
  /** `<code>: <message>`. */
  reason: string;
}

interface RunResult {
  indexed: number;
  failures: Failure[];
  /** The error that stopped the run early, if one did. */
  stoppedBy?: unknown;
  /** Files never tried because the run stopped. */
  skipped: number;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** A path as stored in `metadata.path`: forward slashes on every system. */
function portablePath(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** Uploads `files` with `concurrency` uploads in flight, counting each on `progress`. */
async function uploadAll(client: FolioClient, collection: string, files: string[], concurrency: number, progress: Progress): Promise<RunResult> {
  const result: RunResult = { indexed: 0, failures: [], skipped: 0 };
  let next = 0;
  const worker = async () => {
    while (result.stoppedBy === undefined && next < files.length) {
      const path = files[next++];
      try {
        await client.upload(collection, path, { metadata: { path: portablePath(path) } });
        result.indexed += 1;
        progress.advance(false);
      } catch (error) {
        if (FATAL_CODES.has(describeError(error).code)) {
          result.stoppedBy ??= error;
          result.skipped += 1;
        } else {
          result.failures.push({ path, reason: errorLine(error) });
          progress.advance(true);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  result.skipped += files.length - next;
  return result;
}

async function indexFiles(collection: string, paths: string[], options: IndexOptions): Promise<void> {
  const client = await connect();
  await client.getCollection(collection); // fails fast on a wrong name or key
  const { files, problems } = await walkFiles(paths);
  const started = Date.now();
  const progress = new Progress(files.length);
  if (files.length > 0) progress.start(`Indexing ${plural(files.length, 'file')} into ${collection}, ${options.concurrency} at a time…`);
  let run: RunResult;
  try {
    run = await uploadAll(client, collection, files, options.concurrency, progress);
  } finally {
    progress.stop();
  }
  const failures = [...problems.map((problem) => ({ path: problem.path, reason: `${problem.code}: ${problem.message}` })), ...run.failures];

  let searchable = '';
  if (options.refresh && run.indexed > 0 && run.stoppedBy === undefined) {
    await client.refresh(collection);
    searchable = ' They are searchable now.';
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  say(`Indexed ${run.indexed} of ${plural(files.length, 'file')} into ${collection} in ${seconds} s.${searchable}`);
  if (failures.length > 0) {
    note(`Failed: ${failures.length}`);
    for (const failure of failures) note(clean(`  ${failure.path}: ${failure.reason}`));
    process.exitCode = EXIT_FAILURE;
  }
  if (run.stoppedBy !== undefined) {
    reportError(run.stoppedBy);
    note(`Stopped: ${plural(run.skipped, 'file')} not indexed.`);
  }
}

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description('upload files and folders (recursively) into a collection')
    .argument('<collection>', 'the collection to index into')
    .argument('<paths...>', 'files and folders; hidden files and folders inside folders are skipped')
    .option('-c, --concurrency <n>', `uploads at a time (1-${MAX_CONCURRENCY})`, integerArgument(1, MAX_CONCURRENCY), DEFAULT_CONCURRENCY)
    .option('--refresh', 'at the end, wait until the new documents are searchable')
    .addHelpText(
      'after',
      '\nA file uploaded again replaces its document (its id is the SHA-256 of its bytes).\n' +
        'Each document gets metadata.path, e.g. --filter \'{"path":"docs/a.md"}\' in folio search.\n' +
        'Exit status 1 if any file failed; the summary lists each with its error code.',
    )
    .action(action(indexFiles));
}
