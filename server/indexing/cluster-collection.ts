// A collection in cluster mode (collection.ts; docs/cluster.md): every node's writes go to the
// shared write log through its ClusterLink and are acknowledged once committed there. The
// writer (the node holding the collection's lease) applies the log to its WAL and pending
// buffer, refreshes, merges and embeds as a single process would, and publishes each new
// snapshot; a replica never builds: it installs the manifests the writer publishes.

import { WAL_MAX_RECORD_BYTES } from '../../storage/index.ts';
import type { Manifest, WriteAheadLog } from '../../storage/index.ts';
import { FolioError } from '../errors/index.ts';
import type { ClusterLink } from './cluster-link.ts';
import { DEFAULT_COLLECTION_OPTIONS, FolioCollection } from './collection.ts';
import type { CollectionOptions, CollectionWorkers } from './collection.ts';
import { settingsFromStored } from '../settings/index.ts';
import type { StoredSettings } from '../settings/index.ts';
import type { WriteOptions } from './collection-types.ts';
import { adoptManifest } from './index-commit.ts';
import type { SegmentSet } from './segment-set.ts';
import { decodeWalRecord, encodeWalRecord } from './wal-records.ts';
import type { WalRecord } from './wal-records.ts';

export class ClusterCollection extends FolioCollection {
  /**
   * Opens the collection in `dir` (collection.ts's `openShaped`) without replaying its WAL: the
   * shared log is the only log that counts, and what a local WAL holds was applied as a writer
   * and is in the shared log still (or in a published manifest).
   */
  static open(dir: string, workers: CollectionWorkers, link: ClusterLink, options: Partial<CollectionOptions> = {}): ClusterCollection {
    const settings: CollectionOptions = { ...DEFAULT_COLLECTION_OPTIONS, ...options };
    return FolioCollection.openShaped(dir, false, (snapshot: SegmentSet, wal: WriteAheadLog) => new ClusterCollection(dir, snapshot, wal, workers, settings, link));
  }

  private constructor(dir: string, snapshot: SegmentSet, wal: WriteAheadLog, workers: CollectionWorkers, options: CollectionOptions, private readonly link: ClusterLink) {
    super(dir, snapshot, wal, workers, options);
  }

  protected get builds(): boolean {
    return this.link.role === 'writer';
  }

  /** To the shared log: acknowledged once committed there; `waitForRefresh` waits until this node searches it. */
  protected async logWrite(record: WalRecord, options: WriteOptions): Promise<void> {
    const bytes = encodeWalRecord(record);
    if (bytes.length > WAL_MAX_RECORD_BYTES) {
      throw new FolioError('payload_too_large', 'the write is too large to log as one record; split it (e.g. narrow the filter)');
    }
    const seq = await this.link.append(bytes);
    if (options.waitForRefresh) await this.link.waitVisible(seq);
  }

  /** At once: a write goes to the shared log, and the writer's follower paces itself (`applyLogged`). */
  async awaitWriteRoom(): Promise<void> {
    this.assertOpen();
  }

  /** The writer refreshes as it follows the log; a replica never builds: both wait for the cluster. */
  async refresh(): Promise<void> {
    this.assertOpen();
    return this.link.refresh();
  }

  protected snapshotInstalled(): void {
    this.link.snapshotInstalled();
  }

  protected settingsChanged(settings: StoredSettings): Promise<void> {
    return this.link.settingsChanged(settings);
  }

  /** Takes settings changed on another node of the cluster. */
  adoptSettings(stored: StoredSettings): void {
    this.assertOpen();
    const settings = settingsFromStored(stored);
    if (settings === null) throw new Error(`collection '${this.name}': the cluster's catalog holds settings this node cannot read`);
    this.replaceSettings(settings);
  }

  /**
   * The writer applies records of the shared log, in order, to its WAL and pending buffer;
   * resolves once they are durable here. Waits for room first (the buffer stays bounded).
   */
  async applyLogged(records: readonly Uint8Array[]): Promise<void> {
    this.assertOpen();
    await this.writer.awaitRoom();
    await this.writer.writeMany(records.map(decodeWalRecord));
  }

  /** The writer: makes what it has applied searchable here (then it publishes). */
  async refreshApplied(): Promise<void> {
    this.assertOpen();
    await this.scheduler.runNow();
  }

  /** A replica installs a manifest the writer published; its files are already in the directory. */
  installPublished(manifest: Manifest): void {
    this.assertOpen();
    this.reader.install(adoptManifest(this.dir, this.reader.snapshot, manifest));
  }

  /** The manifest of the snapshot searches run on now. */
  currentManifest(): Manifest {
    return this.reader.snapshot.manifest;
  }

  /** Runs `work` while the files of manifest `generation` stay on disk (the writer uploads them). */
  async whilePinned<T>(generation: number, work: () => Promise<T>): Promise<T> {
    return this.reader.whilePinned(generation, work);
  }
}

/** The cluster shape of a collection the registry opened in cluster mode. */
export function asClusterCollection(collection: FolioCollection): ClusterCollection {
  if (!(collection instanceof ClusterCollection)) throw new Error(`collection '${collection.name}' is not open in cluster mode`);
  return collection;
}
