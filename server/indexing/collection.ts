// One collection: an independent index, put together from three parts with one job each —
// the writer (WAL append + pending buffer: durability), the updater (refresh, merge, commit)
// and the reader (snapshots, realtime lookups, searches) — and the refresh scheduler that
// drives the updater. This class checks what the collection itself must (a settings patch,
// built documents' ids), hands each request to the right part, answers in the engine's terms
// (IndexDocument, search pages), and opens and closes the parts in order. It has two shapes, which differ only in where a write
// is logged and who builds: `LocalCollection` (single-process mode: its own WAL, it builds)
// and `ClusterCollection` (cluster mode: the shared write log; only the writer builds).
//  - open reads the manifest and segments, removes files it does not reference (a crash
//    mid-refresh), replays the WAL into the pending buffer and schedules a refresh for it;
//  - close stops timers and abandons a running merge, then waits for a running refresh, for
//    the searches in flight (they finish on their snapshot; new ones get 404) and for queued
//    WAL syncs, and closes files.

import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Analyzer } from '../../engine/index.ts';
import type { CorpusStatistics, FacetValueQuery, FilterNode, IndexDocument, SearchRequest } from '../../engine/index.ts';
import { CorruptFileError, WriteAheadLog, emptyManifest, readManifest } from '../../storage/index.ts';
import { FolioError } from '../errors/index.ts';
import type { BatchBody, VectorRules } from '../ingest/index.ts';
import type { FacetValues } from '../pools/index.ts';
import { collectionUnavailable, describeDamage, isDamage } from './damaged-collections.ts';
import { captureCollection } from './collection-snapshot.ts';
import type { EmbeddingPool, IndexPool, SearchPage, SearchPool } from '../pools/index.ts';
import { readCollectionConfig, writeCollectionConfig } from './collection-config.ts';
import { applyEmbeddersPatch, applyTypoTolerancePatch, checkRanking, checkSearchableFields, checkSynonyms, sameVectors, settingsToWire, storedSettingsOf } from '../settings/index.ts';
import type { EmbedderConfig, SettingsValues, StoredSettings } from '../settings/index.ts';
import { CollectionEmbedder } from './collection-embedder.ts';
import { coverageWarning, prepareSemanticSearch } from './semantic-query.ts';
import { unknownFieldWarnings } from './unknown-fields.ts';
import type { SemanticParams } from './semantic-query.ts';
import { WAL_DIR_NAME, directorySizeBytes, removeUnreferencedFiles, segmentFiles } from './collection-layout.ts';
import { CollectionReader } from './collection-reader.ts';
import type { Collection, CollectionFacts, CollectionSettingsPatch, ReindexCounts, WriteOptions } from './collection-types.ts';
import { CollectionUpdater } from './collection-updater.ts';
import { CollectionWriter, DEFAULT_BACKPRESSURE } from './collection-writer.ts';
import type { Backpressure } from './collection-writer.ts';
import { applyPatch } from './document-model.ts';
import type { DocumentChange } from './document-model.ts';
import { isValidDocumentId } from '../names/index.ts';
import { listDocuments } from './document-listing.ts';
import { idsMatchingFilter } from './filter-matches.ts';
import { DEFAULT_MERGE_POLICY } from './merge-policy.ts';
import type { MergePolicyOptions } from './merge-policy.ts';
import { PendingWrites } from './pending-writes.ts';
import { RefreshScheduler } from './refresh-scheduler.ts';
import type { SearchCache } from './search-cache.ts';
import { SearchSettings } from './search-settings.ts';
import { SegmentSet } from './segment-set.ts';
import { decodeWalRecord, InvalidWalRecordError } from './wal-records.ts';
import type { WalRecord } from './wal-records.ts';

/** docs/api.md, "Durability and visibility": a write is searchable within 1 s; the background refresh runs this soon after one. */
export const DEFAULT_REFRESH_INTERVAL_MS = 500;

/** The worker pools a collection runs its searches and index builds in. */
export interface CollectionWorkers {
  search: SearchPool;
  index: IndexPool;
  embedding: EmbeddingPool;
}

export interface CollectionOptions {
  /** Delay between a write and the background refresh that makes it searchable. */
  refreshIntervalMs: number;
  mergePolicy: MergePolicyOptions;
  /** Told about failures of background refreshes and merges (they are retried). */
  onBackgroundError: (error: unknown) => void;
  /** Answers of recent searches, shared by the server's collections; null for none. */
  searchCache: SearchCache | null;
  /** When a write waits for a refresh to take a full buffer, and how long, before a 503. */
  backpressure: Backpressure;
  /** Told when a search finds a file of the collection damaged (the registry sets it aside). */
  onDamage: (error: unknown) => void;
}

export const DEFAULT_COLLECTION_OPTIONS: Readonly<CollectionOptions> = Object.freeze({
  refreshIntervalMs: DEFAULT_REFRESH_INTERVAL_MS,
  mergePolicy: DEFAULT_MERGE_POLICY,
  onBackgroundError: () => {},
  searchCache: null,
  backpressure: DEFAULT_BACKPRESSURE,
  onDamage: () => {},
});

export abstract class FolioCollection implements Collection {
  readonly name: string;
  readonly language: string;
  readonly createdAt: string;
  readonly dir: string;
  /** Embedders (search by meaning; collection.json). Replaced whole by a settings change. */
  private embedders: Readonly<Record<string, EmbedderConfig>>;
  /** Its other settings (collection.json), and how they shape every search (search-settings.ts). */
  private searchSettings: SearchSettings;
  /** The query analyzer: finds the synonym rules a search's words can use. */
  private readonly queryAnalyzer: Analyzer;
  private readonly embeddingPool: EmbeddingPool;
  private readonly embedder: CollectionEmbedder;
  /** Unique to this opening of the collection (workers key their readers by it). */
  readonly instanceId = randomUUID();
  private readonly wal: WriteAheadLog;
  /** Acknowledged writes not yet in a segment, shared by the three parts. */
  private readonly pending = new PendingWrites();
  protected readonly reader: CollectionReader;
  protected readonly writer: CollectionWriter;
  private readonly updater: CollectionUpdater;
  protected readonly scheduler: RefreshScheduler;
  private closed = false;
  private readonly onDamage: (error: unknown) => void;

  protected constructor(dir: string, snapshot: SegmentSet, wal: WriteAheadLog, workers: CollectionWorkers, options: CollectionOptions) {
    this.onDamage = options.onDamage;
    const config = readCollectionConfig(dir);
    this.dir = dir;
    this.name = config.name;
    this.language = config.language;
    this.createdAt = config.created_at;
    this.embedders = config.embedders;
    this.queryAnalyzer = Analyzer.for(this.language);
    this.searchSettings = new SearchSettings(config, this.queryAnalyzer, '/settings/ranking/boost');
    this.embeddingPool = workers.embedding;
    this.wal = wal;
    const pending = this.pending;
    this.reader = new CollectionReader(snapshot, {
      dir,
      language: this.language,
      instanceId: this.instanceId,
      pending,
      searchPool: workers.search,
      searchCache: options.searchCache,
      onBackgroundError: options.onBackgroundError,
      // Every new snapshot may hold segments to embed (a replica takes its vectors from the writer).
      onInstall: () => {
        if (this.builds) this.embedder.schedule();
        this.snapshotInstalled();
      },
    });
    this.embedder = new CollectionEmbedder({
      dir,
      reader: this.reader,
      pool: workers.embedding,
      embedders: () => this.embedders,
      documents: () => this.writer.documents,
      onBackgroundError: options.onBackgroundError,
    });
    this.scheduler = new RefreshScheduler({
      intervalMs: options.refreshIntervalMs,
      refresh: () => this.updater.refreshOnce(),
      onError: options.onBackgroundError,
    });
    this.writer = new CollectionWriter({
      wal,
      pending,
      isLive: (id) => this.reader.isLive(id),
      committedDocuments: snapshot.liveCount,
      scheduler: this.scheduler,
      assertOpen: () => this.assertOpen(),
      backpressure: options.backpressure,
    });
    this.updater = new CollectionUpdater({
      dir,
      analysis: () => ({ language: this.language, searchFields: this.searchSettings.metadataSearchFields }),
      wal,
      pending,
      reader: this.reader,
      indexPool: workers.index,
      mergePolicy: options.mergePolicy,
      lastWriteSeq: () => this.writer.seq,
      ownVectorRules: () => this.vectorRules(),
      onBackgroundError: options.onBackgroundError,
    });
  }

  /**
   * Opens the collection in `dir` in the shape `make` gives it: reads the manifest and segments,
   * removes files it does not reference (a crash mid-refresh), replays the WAL into the pending
   * buffer (`replayWal`), and, where it builds, schedules a refresh for what it replayed (merges
   * follow it) or, with nothing to replay, starts the merges the policy asks for.
   */
  protected static openShaped<C extends FolioCollection>(dir: string, replayWal: boolean, make: (snapshot: SegmentSet, wal: WriteAheadLog) => C): C {
    const manifest = readManifest(dir) ?? emptyManifest();
    const snapshot = SegmentSet.load(dir, manifest);
    let wal: WriteAheadLog | null = null;
    try {
      const referenced = new Set<string>(manifest.segments.flatMap(segmentFiles));
      removeUnreferencedFiles(dir, referenced);
      const walDir = path.join(dir, WAL_DIR_NAME);
      const records = replayWal ? WriteAheadLog.replay(walDir, manifest.walGeneration) : [];
      wal = WriteAheadLog.open(walDir, manifest.walGeneration);
      wal.removeBefore(manifest.walGeneration);
      const collection = make(snapshot, wal);
      for (const bytes of records) {
        let record: WalRecord;
        try {
          record = decodeWalRecord(bytes);
        } catch (error) {
          if (error instanceof InvalidWalRecordError) throw new CorruptFileError(walDir, error.message);
          throw error;
        }
        collection.writer.apply(record);
      }
      // A replica only installs what the writer publishes: no embedding, no merges.
      if (!collection.builds) return collection;
      // Segments committed before a crash without their vectors are embedded again now.
      collection.embedder.schedule();
      if (collection.pending.size > 0) collection.scheduler.schedule();
      // Segments a server left over the policy (stopped mid-merge, or an older policy) are
      // merged now, not only after the next write; and the quiet policy's merges once no write
      // comes (a server restarted after an import merges as if it had stayed up).
      else {
        collection.updater.startMerging();
        collection.updater.awaitQuiet();
      }
      return collection;
    } catch (error) {
      snapshot.closeAll();
      void wal?.close();
      throw error;
    }
  }

  info(): CollectionFacts {
    return {
      name: this.name,
      language: this.language,
      createdAt: this.createdAt,
      documents: this.builds ? this.writer.documents : this.reader.snapshot.liveCount,
      sizeBytes: directorySizeBytes(this.dir),
      segments: this.reader.snapshot.segments.length,
      settings: this.settingsValues(),
      embedding: this.embedder.progress(),
      reindexing: this.reindexProgress(),
    };
  }

  private reindexProgress(): ReindexCounts | null {
    const progress = this.updater.reindexProgress();
    if (progress === null) return null;
    return { fields: progress.fields.map((name) => `metadata.${name}`), documentsDone: progress.documentsDone, documentsTotal: progress.documentsTotal };
  }

  /**
   * Applies a settings patch (what it leaves out is kept), writes collection.json atomically,
   * and from then on searches use the new settings. Throws FolioError `validation_failed`.
   */
  async updateSettings(patch: CollectionSettingsPatch): Promise<CollectionFacts> {
    this.assertOpen();
    const current = this.searchSettings.values;
    const settings: SettingsValues = {
      typoTolerance: applyTypoTolerancePatch(current.typoTolerance, patch.typo_tolerance, '/body/typo_tolerance'),
      embedders: applyEmbeddersPatch(this.embedders, patch.embedders, '/body/embedders', (model) => this.embeddingPool.localModelProblem(model)),
      synonyms: patch.synonyms === undefined ? current.synonyms : checkSynonyms(patch.synonyms, this.language, '/body/synonyms'),
      ranking: patch.ranking === undefined ? current.ranking : checkRanking(patch.ranking, '/body/ranking'),
      searchableFields: patch.searchable_fields === undefined ? current.searchableFields : checkSearchableFields(patch.searchable_fields, '/body/searchable_fields'),
      ocrLanguages: patch.ocr_languages === undefined ? current.ocrLanguages : [...patch.ocr_languages],
    };
    this.replaceSettings(settings);
    await this.settingsChanged(storedSettingsOf(settings));
    return this.info();
  }

  /** The Tesseract languages its uploads are read in unless an upload names its own. */
  get ocrLanguages(): readonly string[] {
    return this.searchSettings.values.ocrLanguages;
  }

  /** The settings as collection.json stores them (the cluster's catalog keeps them so). */
  storedSettings(): StoredSettings {
    return storedSettingsOf(this.settingsValues());
  }

  private settingsValues(): SettingsValues {
    return { ...this.searchSettings.values, embedders: { ...this.embedders } };
  }

  protected replaceSettings(settings: SettingsValues): void {
    writeCollectionConfig(this.dir, { name: this.name, language: this.language, created_at: this.createdAt, ...settings });
    const { embedders } = settings;
    const next = new SearchSettings(settings, this.queryAnalyzer, '/body/ranking/boost', this.searchSettings);
    const reindex = next.metadataSearchFields.join('\n') !== this.searchSettings.metadataSearchFields.join('\n');
    this.searchSettings = next;
    // Other metadata fields to search: the segments are indexed again in the background.
    if (reindex && this.builds) this.updater.startMerging();
    const previous = this.embedders;
    this.embedders = embedders;
    // An embedder removed, or changed so that its vectors differ, loses its vector files.
    for (const [name, config] of Object.entries(previous)) {
      const now = embedders[name];
      if (now === undefined || !sameVectors(now, config)) this.embedder.dropVectors(name);
    }
    if (this.builds) this.embedder.schedule();
  }

  // What the two shapes do differently (local-collection.ts, cluster-collection.ts).

  /** Whether this node builds the collection's segments, embeds and merges (a cluster's replica does not). */
  protected abstract get builds(): boolean;
  /** Logs one write durably; with `waitForRefresh`, resolves once it is searchable here. */
  protected abstract logWrite(record: WalRecord, options: WriteOptions): Promise<void>;
  /** A new snapshot was installed. */
  protected abstract snapshotInstalled(): void;
  /** The settings changed here (collection.json is written); resolves once every node that serves it will use them. */
  protected abstract settingsChanged(settings: StoredSettings): Promise<void>;
  abstract awaitWriteRoom(): Promise<void>;
  abstract refresh(): Promise<void>;

  vectorRules(): VectorRules {
    const rules: Record<string, number> = {};
    for (const [name, config] of Object.entries(this.embedders)) if (config.source === 'user' && config.dimensions !== null) rules[name] = config.dimensions;
    return rules;
  }

  async upsertBody(body: BatchBody, options: WriteOptions): Promise<string[]> {
    this.assertOpen();
    await this.logWrite({ op: 'upsert-body', body, indexedAt: new Date().toISOString() }, options);
    return body.ids;
  }

  /** Upserts built documents (a client's, checked and built by the document service, or an extracted file's); their ids must be valid. */
  async upsertIndexed(docs: IndexDocument[], options: WriteOptions): Promise<void> {
    this.assertOpen();
    const badId = docs.find((doc) => !isValidDocumentId(doc.id));
    if (badId !== undefined) throw new FolioError('validation_failed', `invalid document id '${String(badId.id)}'`);
    await this.logWrite({ op: 'upsert', docs }, options);
  }

  async patch(id: string, change: DocumentChange, options: WriteOptions): Promise<IndexDocument> {
    this.assertOpen();
    const updated = applyPatch(this.reader.lookup(id) ?? this.notFound(id), change, new Date().toISOString());
    await this.logWrite({ op: 'upsert', docs: [updated] }, options);
    return updated;
  }

  async deleteDocument(id: string, options: WriteOptions): Promise<void> {
    this.assertOpen();
    if (this.reader.lookup(id) === null) this.notFound(id);
    await this.logWrite({ op: 'delete', ids: [id] }, options);
  }

  /**
   * Deletes every live document whose current version matches `filter`, as ONE WAL record
   * (atomic and durable like any write). Finding the ids and applying the record happen in
   * the same synchronous step, so no write can slip in between.
   */
  async deleteByFilter(filter: FilterNode, options: WriteOptions): Promise<string[]> {
    this.assertOpen();
    const ids = idsMatchingFilter(filter, this.reader.snapshot, this.pending);
    if (ids.length === 0) return ids;
    await this.logWrite({ op: 'delete', ids }, options);
    return ids;
  }

  hasDocument(id: string): boolean {
    this.assertOpen();
    return this.reader.lookup(id) !== null;
  }

  getDocument(id: string): IndexDocument {
    this.assertOpen();
    return this.reader.lookup(id) ?? this.notFound(id);
  }

  /**
   * Up to `limit` live documents after id `after` (null: from the first), ascending by id,
   * realtime like getDocument; `filter` judges each by its current version.
   */
  listDocuments(after: string | null, limit: number, filter: FilterNode | null): { documents: IndexDocument[]; more: boolean } {
    this.assertOpen();
    return listDocuments(this.reader.snapshot, this.pending, after, limit, filter);
  }

  /**
   * Runs in the search pool over the current snapshot, which stays on disk until it ends, with
   * the collection's typo tolerance settings.
   */
  async searchPage(request: SearchRequest, semantic: SemanticParams = { mode: 'keyword' }, part = 'query'): Promise<SearchPage> {
    this.assertOpen();
    const prepared = await prepareSemanticSearch(request, semantic, this.embedders, this.embeddingPool, part, (id) => this.reader.lookup(id));
    let page: SearchPage;
    try {
      page = await this.reader.searchPage(this.searchSettings.shape(prepared.request, part));
    } catch (error) {
      throw this.damageChecked(error);
    }
    const warnings = [...prepared.warnings, ...unknownFieldWarnings(request, this.reader.snapshot), ...coverageWarning(page.semanticCoverage)];
    return warnings.length === 0 ? page : { ...page, warnings };
  }

  /**
   * This collection's part of the statistics of a search over several collections (federated
   * search, docs/api.md "Search across collections"): its counts and the query's terms in it.
   */
  async corpusStatistics(request: SearchRequest, part = 'query'): Promise<CorpusStatistics> {
    this.assertOpen();
    try {
      return await this.reader.statistics(this.searchSettings.shape(request, part));
    } catch (error) {
      throw this.damageChecked(error);
    }
  }

  /**
   * The values of a facet matching what was typed, counted among the documents `request` matches
   * (docs/api.md "Facet value search"), with the collection's typo tolerance and synonyms.
   */
  async facetSearch(request: SearchRequest, facetQuery: FacetValueQuery, part = 'body'): Promise<FacetValues> {
    this.assertOpen();
    try {
      return await this.reader.facetSearch(this.searchSettings.shape(request, part), facetQuery);
    } catch (error) {
      throw this.damageChecked(error);
    }
  }

  /** A damaged file found by a search marks the collection unavailable (503); other errors pass. */
  private damageChecked(error: unknown): unknown {
    if (!isDamage(error)) return error;
    this.onDamage(error);
    return collectionUnavailable(describeDamage(this.name, this.dir, error));
  }

  captureInto(target: string, originalsDirName: string): void {
    this.assertOpen();
    captureCollection(this.dir, this.reader.snapshot.manifest, target, originalsDirName);
  }

  /** Resolves once nothing is being embedded (for tests and tools). */
  async embeddingSettled(): Promise<void> {
    await this.embedder.idle();
  }

  /**
   * Nothing to lose by closing it now: no write waits for a refresh, no refresh, merge,
   * re-index or embedding runs or is due, and no search holds a snapshot (the registry closes
   * idle collections, so that descriptors and memory stay bounded however many there are).
   */
  get idle(): boolean {
    return !this.closed && this.pending.size === 0 && !this.pending.refreshing && this.scheduler.idle && !this.updater.busy && !this.embedder.busy && this.reader.pinned === 0;
  }

  /** Resolves once no merge runs (merges start in the background after refreshes). */
  async mergesSettled(): Promise<void> {
    await this.updater.mergesSettled();
  }

  /** Segments of the current snapshot (for tests and stats). */
  segmentNames(): string[] {
    return this.reader.snapshot.segments.map((segment) => segment.meta.name);
  }

  /**
   * Stops timers and abandons a running merge, then waits for a running refresh, for the
   * searches in flight (they finish on their snapshot; new ones get 404) and for queued WAL
   * syncs; closes files and tells the search workers to drop their readers.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const updaterClosed = this.updater.close();
    this.embedder.close();
    await this.scheduler.stop(new FolioError('collection_not_found', `collection '${this.name}' does not exist`));
    await updaterClosed;
    await this.reader.close();
    await this.wal.close();
  }

  protected assertOpen(): void {
    if (this.closed) throw new FolioError('collection_not_found', `collection '${this.name}' does not exist`);
  }

  private notFound(id: string): never {
    throw new FolioError('document_not_found', `document '${id}' does not exist in collection '${this.name}'`);
  }
}
