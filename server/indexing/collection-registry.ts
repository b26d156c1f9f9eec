// The registry of collections under `<dataDir>/collections/`: creates, lists, finds and
// deletes them. A collection is opened when first used and closed once idle (`idleMs` without
// use, nothing pending or running), and at most `maxOpen` stay open — the least recently used idle
// ones close first — so descriptors, memory maps and the search threads' readers stay bounded
// however many collections there are (docs/api.md, "Many collections"); the list of collections
// answers for a closed one from its files. At start only the directories are listed, and the
// collections whose log holds writes not yet searchable are opened, to replay them. In cluster
// mode every collection stays open, as the cluster follows each. Creation and deletion are crash-safe: a
// collection is assembled in a `.creating-…` directory and renamed into place; a deleted one
// is first renamed to `.deleting-…` and then removed, so a crash never leaves half a
// collection that loads. Leftovers of either are removed at start. A collection with a damaged
// file is set aside as unavailable (damaged-collections.ts), at start or while serving, and
// every other collection serves on.

import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SUPPORTED_LANGUAGES, isSupportedLanguage } from '../../engine/index.ts';
import { emptyManifest, fsyncDirectory, readManifest, writeManifest } from '../../storage/index.ts';
import { FolioError } from '../errors/index.ts';
import { EmbeddingPool, IndexPool, SearchPool } from '../pools/index.ts';
import { COLLECTION_NAME_PATTERN, isValidCollectionName } from '../names/index.ts';
import type { CollectionOptions, CollectionWorkers, FolioCollection } from './collection.ts';
import { LocalCollection } from './local-collection.ts';
import { ClusterCollection } from './cluster-collection.ts';
import type { Backpressure } from './collection-writer.ts';
import { writeCollectionConfig } from './collection-config.ts';
import { DEFAULT_OCR_LANGUAGES, DEFAULT_SEARCHABLE_FIELDS, NO_RANKING, applyEmbeddersPatch, applyTypoTolerancePatch, checkRanking, checkSearchableFields, checkSynonyms, defaultTypoTolerance, settingsFromStored } from '../settings/index.ts';
import type { SettingsValues, StoredSettings } from '../settings/index.ts';
import { COLLECTIONS_DIR_NAME, CREATING_PREFIX, DELETING_PREFIX, WAL_DIR_NAME } from './collection-layout.ts';
import type { Collection, CollectionFacts, CollectionRegistry, CollectionSettingsPatch } from './collection-types.ts';
import { DEFAULT_SEARCH_CACHE_BYTES, SearchCache } from './search-cache.ts';
import { collectionUnavailable, describeDamage, isDamage } from './damaged-collections.ts';
import { closedCollectionFacts, hasUnappliedWrites } from './closed-collection.ts';
import { captureCollection } from './collection-snapshot.ts';
import type { DamagedCollection } from './damaged-collections.ts';
import type { ClusterLink } from './cluster-link.ts';

const STAGING_SUFFIX_BYTES = 6;

export interface CollectionRegistryOptions {
  /** Delay between a write and the refresh that makes it searchable; default 500 ms (≤ 1 s). */
  refreshIntervalMs?: number;
  /** Told about failures of background refreshes and merges (they are retried). */
  onBackgroundError?: (error: unknown, collection: string) => void;
  /** Told when a collection is set aside as unavailable because a file of it is damaged. */
  onDamage?: (damaged: DamagedCollection) => void;
  /** Search worker threads; default one per core. */
  searchThreads?: number;
  /** Index (refresh and merge) worker threads; default 2. */
  indexThreads?: number;
  /** Bytes of recent search answers kept for repeated searches; 0 disables; default 32 MiB. */
  searchCacheBytes?: number;
  /** Longest a search may take before it answers what it found; 0: no limit; default 2 s. */
  searchTimeoutMs?: number;
  /** When writes wait for a refresh and are refused (503 `overloaded`); default DEFAULT_BACKPRESSURE. */
  backpressure?: Backpressure;
  /** Where `local` embedders' models are; default `<dataDir>/models`. */
  modelsDir?: string;
  /** Where add-ons are installed (the local embedder's runtime); default `<Folio>/addons`. */
  addonsDir?: string;
  /** Cluster mode: each collection's link to the cluster, asked whenever it is opened. */
  cluster?: (name: string) => ClusterLink;
  /** Collections kept open at once (others open when used); default DEFAULT_MAX_OPEN_COLLECTIONS. Not in cluster mode. */
  maxOpenCollections?: number;
  /** How long an unused collection stays open; default DEFAULT_COLLECTION_IDLE_MS. Not in cluster mode. */
  collectionIdleMs?: number;
  /** Called with each collection as it opens (before it serves), e.g. to remove leftovers of a crash beside it. */
  onOpen?: (collection: FolioCollection) => void;
}

/**
 * `--open-collections` default: each open collection holds one descriptor (its log) and its
 * segments' memory maps, so at most half the process's descriptor limit (`ulimit -n`), and 500.
 */
export const DEFAULT_MAX_OPEN_COLLECTIONS = 500;

/** The default number of collections kept open: DEFAULT_MAX_OPEN_COLLECTIONS, or half the soft descriptor limit if lower. */
export function defaultMaxOpenCollections(): number {
  const limit = softDescriptorLimit();
  return limit === null ? DEFAULT_MAX_OPEN_COLLECTIONS : Math.max(16, Math.min(DEFAULT_MAX_OPEN_COLLECTIONS, Math.floor(limit / 2)));
}

/** The process's soft limit of open files (Linux: /proc/self/limits), or null where unknown. */
function softDescriptorLimit(): number | null {
  try {
    const line = fs.readFileSync('/proc/self/limits', 'utf8').split('\n').find((text) => text.startsWith('Max open files'));
    const soft = line === undefined ? Number.NaN : Number(line.slice('Max open files'.length).trim().split(/\s+/)[0]);
    return Number.isFinite(soft) && soft > 0 ? soft : null;
  } catch {
    return null;
  }
}
/** An unused collection closes after this long (its next use opens it again, in milliseconds). */
export const DEFAULT_COLLECTION_IDLE_MS = 60_000;


/** The registry as the server and the cluster room use it: the contract plus local upkeep. */
export interface LocalCollectionRegistry extends CollectionRegistry {
  readonly workers: CollectionWorkers;
  getCollection(name: string): FolioCollection;
  /** Names of the collections (open or not). */
  names(): string[];
  /** Names of the collections open now (the others open when used). */
  openNames(): string[];
  /** Creates a collection another node created (cluster mode), with its creation time and settings. */
  adopt(name: string, language: string, createdAt: string, settings: StoredSettings): Promise<CollectionFacts>;
  /**
   * Closes a collection, runs `prepare` on its directory, and opens it again — also when
   * `prepare` fails, whose error it then throws (a cluster node changing role); meanwhile it
   * answers 503 `collection_unavailable` with Retry-After.
   */
  reopen(name: string, prepare: (dir: string) => Promise<void>): Promise<void>;
}

function stagingName(prefix: string, name: string): string {
  return `${prefix}${name}-${randomBytes(STAGING_SUFFIX_BYTES).toString('hex')}`;
}

function validateName(name: string): void {
  if (!isValidCollectionName(name)) {
    throw new FolioError('validation_failed', `invalid collection name '${String(name)}'`, [
      { path: '/body/name', message: `must match ${COLLECTION_NAME_PATTERN}` },
    ]);
  }
}

function validateLanguage(language: string): void {
  if (typeof language !== 'string' || !isSupportedLanguage(language)) {
    const supported = SUPPORTED_LANGUAGES.join(', ');
    throw new FolioError('validation_failed', `unsupported language '${String(language)}'; supported: ${supported}`, [
      { path: '/body/language', message: `must be one of: ${supported}` },
    ]);
  }
}

function notFound(name: string): FolioError {
  return new FolioError('collection_not_found', `collection '${name}' does not exist`);
}

/** The process ran out of file descriptors (its own limit, `ulimit -n`, or the system's). */
export function isDescriptorShortage(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
}

function descriptorShortage(name: string): FolioError {
  return new FolioError('overloaded', `collection '${name}' cannot be opened now: the server is short of file descriptors (ulimit -n); retry after Retry-After seconds`, undefined, 1);
}

/** How collections open and close: lazily, at most `maxOpen` at once, closed after `idleMs` unused; or all open (cluster mode). */
export interface CollectionLifecycle {
  /** Cluster mode (every collection stays open): each collection's link to the cluster, asked whenever it is opened; null in single-process mode. */
  clusterLink: ((name: string) => ClusterLink) | null;
  maxOpen: number;
  idleMs: number;
  onOpen: (collection: FolioCollection) => void;
}

class FolioCollectionRegistry implements LocalCollectionRegistry {
  /** The open collections, the least recently used first. */
  private readonly collections = new Map<string, FolioCollection>();
  /** Every healthy collection's directory, open or not. */
  private readonly dirs = new Map<string, string>();
  /** When each open collection was last asked for (ms since the epoch). */
  private readonly lastUsed = new Map<string, number>();
  /** Collections set aside because a file of theirs is damaged (503 collection_unavailable). */
  private readonly damaged = new Map<string, DamagedCollection>();
  /** Deletions in progress, so a create of the same name waits for the directory to go. */
  private readonly deletions = new Map<string, Promise<void>>();
  /** Collections being closed and opened again (cluster role changes). */
  private readonly reopening = new Map<string, Promise<void>>();
  /** Idle collections being closed. */
  private readonly closing = new Set<Promise<void>>();
  /** Requests in flight per collection name: a held collection is never closed for being idle. */
  private readonly holds = new Map<string, number>();
  /** The records of closed collections (nothing changes a closed collection's files). */
  private readonly closedInfos = new Map<string, CollectionFacts>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly root: string,
    readonly workers: CollectionWorkers,
    private readonly collectionOptions: (name: string) => Partial<CollectionOptions>,
    private readonly onDamage: (damaged: DamagedCollection) => void = () => {},
    private readonly lifecycle: CollectionLifecycle,
  ) {}

  /** Collections open when first used and close once idle, except in cluster mode, where the cluster follows each. */
  private get lazy(): boolean {
    return this.lifecycle.clusterLink === null;
  }

  /**
   * Removes staging leftovers and lists the collection directories; opens those whose log holds
   * writes not yet searchable (every one in cluster mode).
   */
  load(): void {
    for (const entry of fs.readdirSync(this.root, { withFileTypes: true })) {
      const entryPath = path.join(this.root, entry.name);
      if (entry.name.startsWith(CREATING_PREFIX) || entry.name.startsWith(DELETING_PREFIX)) {
        fs.rmSync(entryPath, { recursive: true, force: true });
        continue;
      }
      if (!entry.isDirectory() || !isValidCollectionName(entry.name)) continue;
      this.dirs.set(entry.name, entryPath);
      try {
        if (!this.lazy || hasUnappliedWrites(entryPath)) this.openNow(entry.name);
      } catch (error) {
        if (isDescriptorShortage(error)) continue; // opened when first used instead
        // One damaged collection does not keep the others from serving.
        this.dirs.delete(entry.name);
        this.setAside(describeDamage(entry.name, entryPath, error));
      }
    }
    // A server with collections gets its search threads now; an empty one holds none until then.
    if (this.dirs.size > 0) this.workers.search.start();
    if (this.lazy && Number.isFinite(this.lifecycle.idleMs)) {
      this.sweeper = setInterval(() => this.closeIdle(), Math.max(10, Math.min(this.lifecycle.idleMs / 2, 5_000)));
      this.sweeper.unref();
    }
  }

  async create(name: string, language: string, settings: CollectionSettingsPatch = {}): Promise<CollectionFacts> {
    validateName(name);
    validateLanguage(language);
    return this.createWith(name, language, new Date().toISOString(), {
      typoTolerance: applyTypoTolerancePatch(defaultTypoTolerance(), settings.typo_tolerance, '/body/typo_tolerance'),
      embedders: applyEmbeddersPatch({}, settings.embedders, '/body/embedders', (model) => this.workers.embedding.localModelProblem(model)),
      synonyms: checkSynonyms(settings.synonyms ?? [], language, '/body/synonyms'),
      ranking: settings.ranking === undefined ? NO_RANKING : checkRanking(settings.ranking, '/body/ranking'),
      searchableFields: checkSearchableFields(settings.searchable_fields ?? DEFAULT_SEARCHABLE_FIELDS, '/body/searchable_fields'),
      ocrLanguages: [...(settings.ocr_languages ?? DEFAULT_OCR_LANGUAGES)],
    });
  }

  async adopt(name: string, language: string, createdAt: string, stored: StoredSettings): Promise<CollectionFacts> {
    validateName(name);
    validateLanguage(language);
    const settings = settingsFromStored(stored);
    if (settings === null) throw new Error(`collection '${name}': the cluster's catalog holds settings this node cannot read`);
    return this.createWith(name, language, createdAt, settings);
  }

  names(): string[] {
    return [...this.dirs.keys()];
  }

  openNames(): string[] {
    return [...this.collections.keys()];
  }

  async reopen(name: string, prepare: (dir: string) => Promise<void>): Promise<void> {
    const collection = this.getCollection(name);
    this.collections.delete(name);
    const reopened = (async () => {
      await collection.close();
      try {
        await prepare(collection.dir);
      } finally {
        // Opened again even when `prepare` failed (it leaves the directory as it was, or with
        // files the manifest does not list, which opening removes), so the collection serves on.
        try {
          this.openNow(name);
        } catch (error) {
          this.dirs.delete(name);
          this.setAside(describeDamage(name, collection.dir, error));
        }
      }
    })();
    this.reopening.set(name, reopened);
    try {
      await reopened;
    } finally {
      this.reopening.delete(name);
    }
  }

  private async createWith(name: string, language: string, createdAt: string, settings: SettingsValues): Promise<CollectionFacts> {
    const deletion = this.deletions.get(name);
    if (deletion !== undefined) await deletion.catch(() => {});
    // From here on everything is synchronous, so two creates of one name cannot interleave.
    if (this.dirs.has(name)) throw new FolioError('collection_exists', `collection '${name}' already exists`);
    const finalDir = path.join(this.root, name);
    if (fs.existsSync(finalDir)) throw new FolioError('collection_exists', `collection '${name}' already exists`);

    const staging = path.join(this.root, stagingName(CREATING_PREFIX, name));
    try {
      fs.mkdirSync(staging);
      fs.mkdirSync(path.join(staging, WAL_DIR_NAME));
      writeCollectionConfig(staging, { name, language, created_at: createdAt, ...settings });
      writeManifest(staging, emptyManifest());
      fsyncDirectory(staging);
      fs.renameSync(staging, finalDir);
      fsyncDirectory(this.root);
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    this.dirs.set(name, finalDir);
    const collection = this.openNow(name);
    this.workers.search.start();
    return collection.info();
  }

  /** Every collection's record: an open one's own, a closed one's from its files (a damaged one is set aside). */
  list(): CollectionFacts[] {
    const infos: CollectionFacts[] = [];
    for (const name of [...this.dirs.keys()].sort()) {
      const open = this.collections.get(name);
      if (open !== undefined) {
        infos.push(open.info());
        continue;
      }
      const dir = this.dirs.get(name)!;
      try {
        let info = this.closedInfos.get(name);
        if (info === undefined) this.closedInfos.set(name, (info = closedCollectionFacts(dir)));
        infos.push(info);
      } catch (error) {
        if (isDescriptorShortage(error)) throw descriptorShortage(name);
        this.dirs.delete(name);
        this.setAside(describeDamage(name, dir, error));
      }
    }
    return infos;
  }

  /** Collections set aside as unavailable, by name. */
  unavailable(): DamagedCollection[] {
    return [...this.damaged.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  get(name: string): Collection {
    return this.getCollection(name);
  }

  /** The implementation behind `get`, with its extra methods (e.g. `upsertIndexed`); opens it when closed. */
  getCollection(name: string): FolioCollection {
    const collection = this.collections.get(name);
    if (collection !== undefined) {
      this.touch(name, collection);
      return collection;
    }
    const dir = this.dirs.get(name);
    if (dir === undefined || this.reopening.has(name)) throw this.missing(name);
    try {
      return this.openNow(name);
    } catch (error) {
      if (isDescriptorShortage(error)) {
        // Room is made for the retry the answer asks for.
        this.closeForRoom(this.collections.size - 1);
        throw descriptorShortage(name);
      }
      this.dirs.delete(name);
      const damaged = describeDamage(name, dir, error);
      this.setAside(damaged);
      throw collectionUnavailable(damaged);
    }
  }

  hold(name: string): () => void {
    this.holds.set(name, (this.holds.get(name) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.holds.get(name) ?? 1) - 1;
      if (left === 0) this.holds.delete(name);
      else this.holds.set(name, left);
    };
  }

  captureInto(name: string, target: string, originalsDirName: string): void {
    const open = this.collections.get(name);
    if (open !== undefined) return open.captureInto(target, originalsDirName);
    const dir = this.dirs.get(name);
    if (dir === undefined) throw this.missing(name);
    captureCollection(dir, readManifest(dir) ?? emptyManifest(), target, originalsDirName);
  }

  /** Whether an open collection may be closed now: unused lately, held by no request, nothing pending or running. */
  private closable(name: string, collection: FolioCollection, unusedMs: number, now: number): boolean {
    return now - (this.lastUsed.get(name) ?? 0) >= unusedMs && !this.holds.has(name) && collection.idle;
  }

  /** What asking for a collection that cannot be had answers: changing role, damaged, or not there. */
  private missing(name: string): FolioError {
    if (this.reopening.has(name)) {
      return new FolioError('collection_unavailable', `collection '${name}' is changing its cluster role; retry after Retry-After seconds`, undefined, 1);
    }
    const damaged = this.damaged.get(name);
    return damaged === undefined ? notFound(name) : collectionUnavailable(damaged);
  }

  /** Marks a collection just used: the most recently used, and not idle. */
  private touch(name: string, collection: FolioCollection): void {
    this.collections.delete(name);
    this.collections.set(name, collection);
    this.lastUsed.set(name, Date.now());
  }

  /** Opens a collection now (it must not be open), then closes others past `maxOpen`. */
  private openNow(name: string): FolioCollection {
    const collection = this.open(name, this.dirs.get(name)!);
    this.closedInfos.delete(name);
    try {
      this.lifecycle.onOpen(collection);
    } catch (error) {
      void collection.close();
      throw error;
    }
    this.touch(name, collection);
    this.closeForRoom(this.lifecycle.maxOpen);
    return collection;
  }

  /**
   * Closes idle collections, the least recently used first, until at most `keep` are open. A
   * request in flight holds the collection it names (`hold`), so none is closed under it.
   */
  private closeForRoom(keep: number): void {
    if (!this.lazy) return;
    const now = Date.now();
    for (const [name, collection] of this.collections) {
      if (this.collections.size <= keep) return;
      if (this.closable(name, collection, 0, now)) this.closeOpen(name, collection);
    }
  }

  /** Closes the collections unused for `idleMs` with nothing pending or running. */
  private closeIdle(): void {
    const now = Date.now();
    for (const [name, collection] of this.collections) {
      if (this.closable(name, collection, this.lifecycle.idleMs, now)) this.closeOpen(name, collection);
    }
  }

  /** Closes an open collection in the background; its next use opens it again. */
  private closeOpen(name: string, collection: FolioCollection): void {
    this.collections.delete(name);
    this.lastUsed.delete(name);
    try {
      this.closedInfos.set(name, collection.info());
    } catch {
      // Read from its files when next listed.
    }
    const closed = collection.close().catch((error: unknown) => this.collectionOptions(name).onBackgroundError?.(error));
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
  }

  async delete(name: string): Promise<void> {
    const damaged = this.damaged.get(name);
    if (damaged !== undefined) {
      // A damaged collection may be deleted: its directory goes as a healthy one's does.
      this.damaged.delete(name);
      await this.removeDirectory(name, damaged.dir);
      return;
    }
    const open = this.collections.get(name);
    const dir = this.dirs.get(name);
    if (dir === undefined || this.reopening.has(name)) throw this.missing(name);
    this.collections.delete(name);
    this.lastUsed.delete(name);
    this.dirs.delete(name);
    this.closedInfos.delete(name);
    // A closed collection has nothing to close: its directory goes.
    const deletion = open === undefined ? this.removeDirectory(name, dir) : this.remove(open);
    this.deletions.set(name, deletion);
    try {
      await deletion;
    } finally {
      if (this.deletions.get(name) === deletion) this.deletions.delete(name);
    }
  }

  async close(): Promise<void> {
    if (this.sweeper !== null) clearInterval(this.sweeper);
    await Promise.all([...this.reopening.values()].map((reopened) => reopened.catch(() => {})));
    const open = [...this.collections.values()];
    this.collections.clear();
    await Promise.all([...this.closing]);
    await Promise.all([...this.deletions.values()].map((deletion) => deletion.catch(() => {})));
    const results = await Promise.allSettled(open.map((collection) => collection.close()));
    await Promise.allSettled([this.workers.search.close(), this.workers.index.close(), this.workers.embedding.close()]);
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  private async remove(collection: FolioCollection): Promise<void> {
    await collection.close();
    await this.removeDirectory(collection.name, collection.dir);
  }

  private async removeDirectory(name: string, dir: string): Promise<void> {
    const doomed = path.join(this.root, stagingName(DELETING_PREFIX, name));
    fs.renameSync(dir, doomed);
    fsyncDirectory(this.root);
    await fs.promises.rm(doomed, { recursive: true, force: true });
  }

  /** Opens it in its mode's shape: a LocalCollection, or a ClusterCollection with its link to the cluster. */
  private open(name: string, dir: string): FolioCollection {
    const given = this.collectionOptions(name);
    const report = given.onBackgroundError;
    const options: Partial<CollectionOptions> = {
      ...given,
      onBackgroundError: (error) => {
        if (isDamage(error)) this.damageFound(name, error);
        else report?.(error);
      },
      onDamage: (error) => this.damageFound(name, error),
    };
    const link = this.lifecycle.clusterLink;
    return link === null ? LocalCollection.open(dir, this.workers, options) : ClusterCollection.open(dir, this.workers, link(name), options);
  }

  /** A file of an open collection turned out damaged while serving: set it aside. */
  private damageFound(name: string, error: unknown): void {
    const collection = this.collections.get(name);
    if (collection === undefined) return;
    this.collections.delete(name);
    this.lastUsed.delete(name);
    this.dirs.delete(name);
    this.setAside(describeDamage(name, collection.dir, error));
    // Its searches in flight end on their snapshot; nothing new reaches it.
    collection.close().catch(() => {});
  }

  private setAside(damaged: DamagedCollection): void {
    this.damaged.set(damaged.name, damaged);
    this.onDamage(damaged);
  }
}

/** Opens (creating if needed) the collections of `dataDir` and returns their registry. */
export async function openCollectionRegistry(
  dataDir: string,
  options: CollectionRegistryOptions = {},
): Promise<LocalCollectionRegistry> {
  const root = path.join(dataDir, COLLECTIONS_DIR_NAME);
  fs.mkdirSync(root, { recursive: true });
  const searchCache = new SearchCache(options.searchCacheBytes ?? DEFAULT_SEARCH_CACHE_BYTES);
  const collectionOptions = (name: string): Partial<CollectionOptions> => {
    const settings: Partial<CollectionOptions> = { searchCache };
    if (options.refreshIntervalMs !== undefined) settings.refreshIntervalMs = options.refreshIntervalMs;
    if (options.backpressure !== undefined) settings.backpressure = options.backpressure;
    const report = options.onBackgroundError;
    if (report !== undefined) settings.onBackgroundError = (error) => report(error, name);
    return settings;
  };
  const workers: CollectionWorkers = {
    search: new SearchPool({ threads: options.searchThreads, ...(options.searchTimeoutMs !== undefined && { timeoutMs: options.searchTimeoutMs }) }),
    index: new IndexPool({ threads: options.indexThreads }),
    embedding: new EmbeddingPool({ modelsDir: options.modelsDir ?? path.join(dataDir, 'models'), ...(options.addonsDir !== undefined && { addonsDir: options.addonsDir }) }),
  };
  const lifecycle: CollectionLifecycle = {
    clusterLink: options.cluster ?? null,
    maxOpen: options.maxOpenCollections ?? defaultMaxOpenCollections(),
    idleMs: options.collectionIdleMs ?? DEFAULT_COLLECTION_IDLE_MS,
    onOpen: options.onOpen ?? (() => {}),
  };
  const registry = new FolioCollectionRegistry(root, workers, collectionOptions, options.onDamage, lifecycle);
  try {
    registry.load();
  } catch (error) {
    await registry.close().catch(() => {});
    throw error;
  }
  return registry;
}
