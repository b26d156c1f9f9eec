// The server's one door for code outside server/ (the CLI, tests, benchmarks). Inside, the
// server is a set of sixteen rooms (see docs/architecture.md, "server/ — rooms"): api, auth,
// cluster, config, data-dir, documents, embedders, errors, files, http, indexing, ingest, names,
// pools, settings, webhooks. The settings and the version load at once; the server itself
// (Fastify, the pools, every room: over a second) only when a server is built, so the CLI's
// client commands start quickly.

import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BuildAppOptions, RunningServer, StartOptions } from './http/index.ts';
import type { RestoreOutcome } from './data-dir/index.ts';
import type { FolioConfig } from './config/index.ts';
import type { CollectionCheck, RepairOutcome } from './indexing/index.ts';

export { ConfigError, FOLIO_PACKAGE_ROOT, FOLIO_VERSION, resolveConfig } from './config/index.ts';
export type { ConfigFlags, FolioConfig } from './config/index.ts';
export type { BuildAppOptions, LoggerOptions, RunningServer, StartOptions } from './http/index.ts';
export type { RestoreOutcome } from './data-dir/index.ts';

/** Builds the Fastify app without listening (tests `inject` into it or `listen` on it). */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const http = await import('./http/index.ts');
  return http.buildApp(options);
}

export type { CollectionCheck, FileProblem, RepairOutcome } from './indexing/index.ts';

/** `folio check`: every collection of `dataDir` checked, file by file (server/indexing/collection-check.ts). */
export async function checkDataDirectory(dataDir: string): Promise<CollectionCheck[]> {
  const indexing = await import('./indexing/index.ts');
  return indexing.checkDataDir(dataDir);
}

/**
 * `folio check --repair`: sets a checked collection's damaged files aside, rebuilds the lost
 * documents that have kept originals, and says what is left to re-index.
 */
export async function repairCheckedCollection(check: CollectionCheck): Promise<RepairOutcome> {
  const indexing = await import('./indexing/index.ts');
  const files = await import('./files/index.ts');
  const outcome = indexing.repairCollection(check);
  if (outcome.reindex.length === 0) return outcome;
  const rebuilt = await files.reindexFromOriginals(check.dir, outcome.reindex);
  const done = new Set(rebuilt.reindexed);
  outcome.reindex = outcome.reindex.filter((id) => !done.has(id));
  if (rebuilt.reindexed.length > 0) outcome.notes.push(`re-indexed ${rebuilt.reindexed.length} from their kept originals (client metadata aside): ${rebuilt.reindexed.join(', ')}`);
  for (const { id, reason } of rebuilt.failed) outcome.notes.push(`the kept original of ${id} could not be read again: ${reason}`);
  return outcome;
}

/** `folio restore`: unpacks a snapshot tar into a new data directory and checks it (data-dir/data-restore.ts). */
export async function restoreDataDirectory(source: AsyncIterable<Uint8Array>, dataDir: string): Promise<RestoreOutcome> {
  const dataDirectory = await import('./data-dir/index.ts');
  return dataDirectory.restoreSnapshot(source, dataDir);
}

/** Where the `local` embedder's runtime goes in `addonsDir`, and whether it is there (embedders/local-embedder-runtime.ts). */
export async function localRuntimeLocation(addonsDir: string): Promise<{ dir: string; installed: boolean }> {
  const embedders = await import('./embedders/index.ts');
  return { dir: embedders.localRuntimeDir(addonsDir), installed: embedders.hasLocalRuntime(addonsDir) };
}

/** The OCR languages' files for `addonsDir`: where `folio ocr add` puts them, and what is installed (extract/ocr/ocr-languages.ts). */
export async function ocrLanguageFiles(addonsDir: string): Promise<{
  dataDir: string;
  installed: string[];
  bundled: { language: string; file: string };
  isLanguageCode: (code: string) => boolean;
  packageFile: (language: string) => string;
}> {
  const extract = await import('../extract/index.ts');
  const dataDir = join(addonsDir, 'tessdata');
  return {
    dataDir,
    installed: extract.installedOcrLanguages(dataDir),
    bundled: { language: extract.BUNDLED_OCR_LANGUAGE, file: extract.trainedDataFile(extract.bundledOcrDataDir(), extract.BUNDLED_OCR_LANGUAGE) },
    isLanguageCode: (code) => extract.OCR_LANGUAGE_PATTERN.test(code),
    packageFile: (language) => `package/${extract.OCR_MODEL_FOLDER}/${language}.traineddata.gz`,
  };
}

/** The pid of a live server using `dataDir` (its `server.pid`), or null. */
export async function serverUsing(dataDir: string): Promise<number | null> {
  const dataDirectory = await import('./data-dir/index.ts');
  return dataDirectory.runningServerPid(dataDir);
}

/** Starts a server from a resolved configuration and listens (`folio serve`). */
export async function startServer(config: FolioConfig, options?: StartOptions): Promise<RunningServer> {
  const http = await import('./http/index.ts');
  return http.startServer(config, options);
}
