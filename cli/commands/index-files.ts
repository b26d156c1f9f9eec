// `folio index <collection> <paths…>`: keeps a collection in step with files and folders on
// disk (recursively, hidden ones skipped). Each file's document id comes from its path relative
// to the root indexed (file-ids.ts), so a run over the same folder again is a sync: new files
// are added, changed ones replaced, unchanged ones skipped without being read (same size and
// modification time; the same size but another time is settled by the bytes' SHA-256), and
// documents whose file is gone are deleted (`--no-delete` keeps them). `--id-from sha256` keeps
// the older ids (the SHA-256 of the bytes: identical files become one document). Files the
// server cannot read are skipped and counted, not failures. Progress on standard error, then a
// summary: new / updated / unchanged / deleted / skipped (unsupported) / failed; exit status 1
// only when a file really failed. `--watch` keeps syncing as files change. An error that would
// fail every file (bad key, no such collection, server gone) stops the run.

import { createHash } from 'node:crypto';
import { createReadStream, statSync, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import type { FolioClient } from '../../clients/typescript/index.ts';
import { integerArgument } from '../arguments.ts';
import { connect } from '../connect.ts';
import { action, describeError, EXIT_FAILURE, errorLine, reportError } from '../errors.ts';
import { fileMetadata, idForPath, indexRoot, portablePath } from '../file-ids.ts';
import { indexedFile, planIndex } from '../index-plan.ts';
import type { IndexedFile, LocalFile, PlannedUpload } from '../index-plan.ts';
import { clean, note, say } from '../output.ts';
import { Progress } from '../progress.ts';
import { walkFiles } from '../walk-files.ts';

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 64;
/** Errors that no other file would escape: the run stops at the first of them. */
const FATAL_CODES = new Set(['unauthorized', 'forbidden', 'collection_not_found', 'network_error']);
/** Documents per page when listing what the collection holds from the root. */
const LIST_PAGE = 1000;
/** With --watch: quiet time after a change before syncing, so a burst of writes is one pass. */
const WATCH_SETTLE_MS = 1000;
/** Unsupported files listed in the summary before the rest are counted. */
const MAX_LISTED_SKIPS = 10;

type IdFrom = 'path' | 'sha256';

interface IndexOptions {
  concurrency: number;
  refresh?: boolean;
  /** False with --no-delete. */
  delete: boolean;
  idFrom: IdFrom;
  watch?: boolean;
  /** `deu+eng`: the languages scans are read in (default: the collection's setting). */
  ocrLanguages?: string;
}

interface Failure {
  path: string;
  /** `<code>: <message>`. */
  reason: string;
}

interface PassResult {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  unsupported: string[];
  failures: Failure[];
  /** The error that stopped the pass early, if one did. */
  stoppedBy?: unknown;
  /** Files never tried because the pass stopped. */
  notTried: number;
}

/** What a run remembers between --watch passes: files the server could not read, by path, size and time. */
type UnsupportedFiles = Map<string, string>;

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function idFromArgument(value: string): IdFrom {
  if (value === 'path' || value === 'sha256') return value;
  throw new InvalidArgumentError('expected path or sha256');
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const fileKey = (file: LocalFile): string => `${file.size}:${file.modifiedMs}`;

/** Every document the collection holds from `root` (written by folio index). */
async function indexedFrom(client: FolioClient, collection: string, root: string): Promise<IndexedFile[]> {
  const found: IndexedFile[] = [];
  for await (const document of client.allDocuments(collection, { filter: { root: portablePath(root) }, fields: ['metadata'], limit: LIST_PAGE })) {
    const file = indexedFile(document.id, document.metadata);
    if (file !== null) found.push(file);
  }
  return found;
}

/** Carries out the uploads of a plan, `concurrency` at a time. */
async function uploadAll(client: FolioClient, collection: string, root: string, uploads: PlannedUpload[], options: IndexOptions, skip: UnsupportedFiles, result: PassResult, progress: Progress): Promise<void> {
  let next = 0;
  const one = async ({ file, action: planned, existing }: PlannedUpload): Promise<void> => {
    progress.begin(file.relative);
    const sha256 = await sha256Of(file.absolute);
    if (planned === 'check' && existing !== null && existing.sha256 === sha256) {
      // Touched, not changed: note the new time so the next pass does not read it again.
      await client.patchDocument(collection, existing.id, { metadata: { modified_at: new Date(file.modifiedMs).toISOString() } });
      result.unchanged += 1;
      progress.advance(false, file.size);
      return;
    }
    const metadata = { ...fileMetadata(file.relative, file.modifiedMs, root, sha256) }; // a plain record, as the client types metadata
    const id = options.idFrom === 'path' ? idForPath(file.relative) : undefined;
    const ocrLanguages = options.ocrLanguages?.split(/[+,]/);
    const summary = await client.upload(collection, file.absolute, { ...(id !== undefined && { id }), metadata, ...(ocrLanguages !== undefined && { ocrLanguages }) });
    if (existing !== null && existing.id !== summary.id) await deleteQuietly(client, collection, existing.id);
    if (existing === null) result.added += 1;
    else result.updated += 1;
    progress.advance(false, file.size, summary.pages ?? 0);
  };
  const worker = async (): Promise<void> => {
    while (result.stoppedBy === undefined && next < uploads.length) {
      const upload = uploads[next++];
      try {
        await one(upload);
      } catch (error) {
        const { code } = describeError(error);
        if (FATAL_CODES.has(code)) {
          result.stoppedBy ??= error;
          result.notTried += 1;
        } else if (code === 'unsupported_file_type') {
          skip.set(upload.file.absolute, fileKey(upload.file));
          result.unsupported.push(upload.file.absolute);
          progress.advance(false, upload.file.size);
        } else {
          result.failures.push({ path: upload.file.absolute, reason: errorLine(error) });
          progress.advance(true, upload.file.size);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, uploads.length) }, worker));
  result.notTried += uploads.length - next;
}

/** Deletes a document; one already gone is fine. */
async function deleteQuietly(client: FolioClient, collection: string, id: string): Promise<boolean> {
  try {
    await client.deleteDocument(collection, id);
    return true;
  } catch (error) {
    if (describeError(error).code === 'document_not_found') return false;
    throw error;
  }
}

/** One sync of `paths` into the collection. */
async function syncPass(client: FolioClient, collection: string, paths: string[], root: string, options: IndexOptions, skip: UnsupportedFiles): Promise<PassResult> {
  const result: PassResult = { added: 0, updated: 0, unchanged: 0, deleted: 0, unsupported: [], failures: [], notTried: 0 };
  const { files, problems } = await walkFiles(paths);
  result.failures.push(...problems.map((problem) => ({ path: problem.path, reason: `${problem.code}: ${problem.message}` })));
  const local: LocalFile[] = [];
  for (const absolute of files) {
    try {
      const info = await stat(absolute);
      local.push({ absolute, relative: portablePath(relative(root, absolute)), size: info.size, modifiedMs: info.mtimeMs });
    } catch (error) {
      result.failures.push({ path: absolute, reason: `file_not_found: ${(error as Error).message}` });
    }
  }
  const plan = planIndex(local, await indexedFrom(client, collection, root), (file) => (options.idFrom === 'path' ? idForPath(file.relative) : null));
  result.unchanged = plan.unchanged.length;
  // Files the server could not read earlier in this run are not sent again until they change.
  const uploads = plan.uploads.filter(({ file }) => {
    if (skip.get(file.absolute) !== fileKey(file)) return true;
    result.unsupported.push(file.absolute);
    return false;
  });
  const progress = new Progress(uploads.length, uploads.reduce((sum, { file }) => sum + file.size, 0));
  if (uploads.length > 0) progress.start(`Indexing ${plural(uploads.length, 'file')} into ${collection}, ${options.concurrency} at a time…`);
  try {
    await uploadAll(client, collection, root, uploads, options, skip, result, progress);
  } finally {
    progress.stop();
  }
  if (options.delete && result.stoppedBy === undefined) {
    for (const document of plan.gone) if (await deleteQuietly(client, collection, document.id)) result.deleted += 1;
  }
  return result;
}

/** Prints a pass's summary and sets the exit status. */
function report(collection: string, root: string, result: PassResult, seconds: string, searchable: string): void {
  const counts = [
    `${result.added} new`,
    `${result.updated} updated`,
    `${result.unchanged} unchanged`,
    `${result.deleted} deleted`,
    `${result.unsupported.length} skipped (unsupported)`,
    `${result.failures.length} failed`,
  ];
  say(clean(`Synced ${collection} with ${root} in ${seconds} s: ${counts.join(', ')}.${searchable}`));
  if (result.unsupported.length > 0) {
    const listed = result.unsupported.slice(0, MAX_LISTED_SKIPS).map((path) => clean(`  ${path}`));
    const more = result.unsupported.length > MAX_LISTED_SKIPS ? [`  … and ${result.unsupported.length - MAX_LISTED_SKIPS} more`] : [];
    note(['Skipped (not a type the server reads):', ...listed, ...more].join('\n'));
  }
  if (result.failures.length > 0) {
    note(`Failed: ${result.failures.length}`);
    for (const failure of result.failures) note(clean(`  ${failure.path}: ${failure.reason}`));
    process.exitCode = EXIT_FAILURE;
  }
  if (result.stoppedBy !== undefined) {
    reportError(result.stoppedBy);
    note(`Stopped: ${plural(result.notTried, 'file')} not indexed.`);
  }
}

async function runPass(client: FolioClient, collection: string, paths: string[], root: string, options: IndexOptions, skip: UnsupportedFiles): Promise<PassResult> {
  const started = Date.now();
  const result = await syncPass(client, collection, paths, root, options, skip);
  const changed = result.added + result.updated + result.deleted > 0;
  let searchable = '';
  if (options.refresh && changed && result.stoppedBy === undefined) {
    await client.refresh(collection);
    searchable = ' Searchable now.';
  }
  report(collection, root, result, ((Date.now() - started) / 1000).toFixed(1), searchable);
  return result;
}

/** Syncs again whenever something under `root` changes, until the process is stopped. */
function watchAndSync(root: string, pass: () => Promise<unknown>): Promise<void> {
  return new Promise((_, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> | null = null;
    let again = false;
    const run = (): void => {
      if (running !== null) {
        again = true;
        return;
      }
      running = pass()
        .catch(reject)
        .finally(() => {
          running = null;
          if (again) {
            again = false;
            run();
          }
        });
    };
    const watcher = watch(root, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(run, WATCH_SETTLE_MS);
    });
    watcher.on('error', reject);
    note(clean(`Watching ${root} for changes (Ctrl-C to stop)…`));
  });
}

async function indexFiles(collection: string, paths: string[], options: IndexOptions): Promise<void> {
  const client = await connect();
  await client.getCollection(collection); // fails fast on a wrong name or key
  const root = indexRoot(paths, (path) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true);
  const skip: UnsupportedFiles = new Map();
  const first = await runPass(client, collection, paths, root, options, skip);
  if (!options.watch || first.stoppedBy !== undefined) return;
  await watchAndSync(root, () => runPass(client, collection, paths, root, options, skip));
}

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description('sync files and folders (recursively) into a collection')
    .argument('<collection>', 'the collection to index into')
    .argument('<paths...>', 'files and folders; hidden files and folders inside folders are skipped')
    .option('-c, --concurrency <n>', `uploads at a time (1-${MAX_CONCURRENCY})`, integerArgument(1, MAX_CONCURRENCY), DEFAULT_CONCURRENCY)
    .option('--refresh', 'at the end, wait until the changes are searchable')
    .option('--no-delete', 'keep the documents of files that are gone from disk')
    .option('--id-from <source>', 'document ids from the file path (default) or sha256 of the bytes', idFromArgument, 'path')
    .option('--watch', 'keep running and sync again whenever a file changes')
    .option('--ocr-languages <codes>', "the languages scans and images are read in, e.g. deu+eng (default: the collection's ocr_languages)")
    .addHelpText(
      'after',
      '\nIds come from each path relative to the root indexed (the folder given, or the folder\n' +
        'holding all paths given): guides/setup.md becomes guides:setup.md. Indexing the same\n' +
        'folder again adds new files, replaces changed ones, skips unchanged ones and deletes\n' +
        "the documents of files that are gone. Each document gets metadata path, folder, modified_at,\n" +
        'root and sha256 (and from the server format, extension and size), e.g.\n' +
        '  folio search docs quince --filter \'{"folder":"guides"}\'\n' +
        'Files the server cannot read are skipped; exit status 1 only when a file failed.',
    )
    .action(action(indexFiles));
}
