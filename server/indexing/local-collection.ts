// A collection in single-process mode (collection.ts): every write goes to its own WAL and
// pending buffer, and it builds its segments, embeds and merges itself.

import type { WriteAheadLog } from '../../storage/index.ts';
import { DEFAULT_COLLECTION_OPTIONS, FolioCollection } from './collection.ts';
import type { CollectionOptions, CollectionWorkers } from './collection.ts';
import type { StoredSettings } from '../settings/index.ts';
import type { WriteOptions } from './collection-types.ts';
import type { SegmentSet } from './segment-set.ts';
import type { WalRecord } from './wal-records.ts';

export class LocalCollection extends FolioCollection {
  /**
   * Opens the collection in `dir`: its files as collection.ts's `openShaped` says, the WAL
   * replayed into the pending buffer and a refresh scheduled for it.
   */
  static open(dir: string, workers: CollectionWorkers, options: Partial<CollectionOptions> = {}): LocalCollection {
    const settings: CollectionOptions = { ...DEFAULT_COLLECTION_OPTIONS, ...options };
    return FolioCollection.openShaped(dir, true, (snapshot: SegmentSet, wal: WriteAheadLog) => new LocalCollection(dir, snapshot, wal, workers, settings));
  }

  protected get builds(): boolean {
    return true;
  }

  /** To the WAL and the pending buffer; acknowledged once fsynced. */
  protected logWrite(record: WalRecord, options: WriteOptions): Promise<void> {
    return this.writer.write(record, options);
  }

  async awaitWriteRoom(): Promise<void> {
    this.assertOpen();
    await this.writer.awaitRoom();
  }

  async refresh(): Promise<void> {
    this.assertOpen();
    await this.scheduler.runNow();
  }

  protected snapshotInstalled(): void {}

  /** collection.json is the only place settings live. */
  protected async settingsChanged(_settings: StoredSettings): Promise<void> {}
}
