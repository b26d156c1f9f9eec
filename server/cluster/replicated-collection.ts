// One collection's part in the cluster, on one node: the writer or a replica of it.
//  - writer (this node holds the lease): follows the shared log from what the last published
//    manifest covers, applies it to the local collection, refreshes, uploads the new files to
//    the object store and publishes the manifest under its fencing token, then trims the log.
//  - replica: installs each newly published manifest, fetching the files it lacks first.
// Changing role closes and reopens the local collection on the latest published manifest with
// an empty WAL (the shared log is the only log that counts), so nothing unpublished survives.

import fs from 'node:fs';
import path from 'node:path';
import { emptyManifest, writeManifest } from '../../storage/index.ts';
import type { Manifest } from '../../storage/index.ts';
import { FolioError } from '../errors/index.ts';
import { WAL_DIR_NAME, segmentFiles } from '../indexing/index.ts';
import { asClusterCollection } from '../indexing/index.ts';
import type { ClusterCollection, ClusterLink, ClusterRole, LocalCollectionRegistry } from '../indexing/index.ts';
import type { ObjectStore } from './object-store.ts';
import { LeaseLostError } from './published-manifests.ts';
import type { PublishedManifest, PublishedManifests } from './published-manifests.ts';
import type { SharedWriteLog } from './shared-write-log.ts';
import type { CollectionCatalog } from './collection-catalog.ts';
import type { Lease, WriterLeases } from './writer-lease.ts';
import { CoalescedRun } from './coalesced-run.ts';
import { LocalFileOrigins } from './local-file-origins.ts';

/** Writes the follower applies between two refreshes, at most. */
const FOLLOW_BATCH_RECORDS = 5_000;
const FOLLOW_BATCH_BYTES = 8 * 1024 * 1024;
/** How long the follower sleeps when the log is empty and no notification comes. */
const FOLLOW_IDLE_MS = 500;
/** Pause after a failure (PostgreSQL or the object store away) before trying again. */
const RETRY_PAUSE_MS = 1_000;
/** Longest `refresh=true` waits for a write to become searchable here before answering anyway. */
const VISIBILITY_WAIT_MS = 30_000;

export interface ReplicationServices {
  log: SharedWriteLog;
  manifests: PublishedManifests;
  leases: WriterLeases;
  catalog: CollectionCatalog;
  store: ObjectStore;
  registry: () => LocalCollectionRegistry;
  /** How long files and manifests no longer current are kept (replicas may still fetch them). */
  graceMs: number;
  onError: (error: unknown, message: string) => void;
}

interface VisibilityWaiter {
  seq: number;
  resolve: () => void;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Where a collection's files are in the object store: its name and creation time, so one created again under the same name starts afresh. */
export function collectionObjectPrefix(name: string, createdAt: string): string {
  return `collections/${name}/${createdAt.replace(/[^0-9]/g, '')}`;
}


export class ReplicatedCollection {
  private currentRole: ClusterRole = 'replica';
  private lease: Lease | null = null;
  /** Highest log seq a snapshot searched on this node holds. */
  private visibleSeq = 0;
  private installedVersion = 0;
  /** Writer: last log seq applied locally, and the last one a local snapshot holds. */
  private appliedSeq = 0;
  private coveredSeq = 0;
  private published = { generation: -1, seq: -1 };
  /** Writer: object key of each file uploaded (or inherited from the published manifest). */
  private objects = new Map<string, string>();
  private waiters: VisibilityWaiter[] = [];
  private wakeFollower: (() => void) | null = null;
  private following: Promise<void> | null = null;
  private readonly publishing = new CoalescedRun(() => this.publishRun(), () => this.lease !== null && this.isWriting(this.lease));
  private readonly syncing = new CoalescedRun(() => this.syncOnce(), () => this.currentRole === 'replica' && !this.stopped);
  /** Role changes, one after another. */
  private transitions: Promise<void> = Promise.resolve();
  private lastSweep = 0;
  private stopped = false;

  constructor(
    readonly name: string,
    private readonly services: ReplicationServices,
  ) {}

  get role(): ClusterRole {
    return this.currentRole;
  }

  /** What the local collection is told at each opening. */
  link(): ClusterLink {
    const { log, catalog } = this.services;
    return {
      role: this.currentRole,
      append: (record) => log.append(this.name, record),
      waitVisible: (seq) => this.waitVisible(seq),
      refresh: async () => this.waitVisible(await log.head(this.name)),
      snapshotInstalled: () => {
        if (this.currentRole === 'writer') this.requestPublish();
      },
      settingsChanged: (settings) => catalog.updateSettings(this.name, settings),
    };
  }

  status(): { role: ClusterRole; manifest_version: number; visible_log_seq: number; fencing_token: number | null } {
    return { role: this.currentRole, manifest_version: this.installedVersion, visible_log_seq: this.visibleSeq, fencing_token: this.lease?.token ?? null };
  }

  /** Takes the lease when it is free, renews it when held, steps down when it was lost. */
  async leaseTick(): Promise<void> {
    const { leases, onError } = this.services;
    if (this.stopped) return;
    try {
      if (this.lease !== null) {
        if (!(await leases.renew(this.lease))) await this.transition(() => this.becomeReplica());
        return;
      }
      const lease = await leases.acquire(this.name);
      if (lease !== null) await this.transition(() => this.becomeWriter(lease));
    } catch (error) {
      // PostgreSQL away: a writer keeps its lease until someone else can take it, and a
      // stale writer cannot publish anyway (the fencing token is checked then).
      if (!(error instanceof FolioError && error.code === 'cluster_unavailable')) onError(error, `lease of collection '${this.name}'`);
    }
  }

  /** A write was appended to the log (a notification): the follower looks at once. */
  logAppended(): void {
    this.wakeFollower?.();
  }

  /** Replica: installs the latest published manifest if it is newer than what this node has. */
  syncReplica(knownVersion?: number): Promise<void> {
    if (this.currentRole !== 'replica' || this.stopped) return Promise.resolve();
    if (knownVersion !== undefined && knownVersion <= this.installedVersion) return Promise.resolve();
    return this.syncing.request();
  }

  private async syncOnce(): Promise<boolean> {
    try {
      await this.installLatest();
      return false;
    } catch (error) {
      if (!(error instanceof FolioError && error.code === 'cluster_unavailable')) this.services.onError(error, `installing the published manifest of '${this.name}'`);
      await sleep(RETRY_PAUSE_MS);
      return true;
    }
  }

  /** Stops the loops and gives the lease up, so a standby takes over without waiting for expiry. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeFollower?.();
    await Promise.allSettled([this.following, this.publishing.settled(), this.syncing.settled(), this.transitions]);
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
    const lease = this.lease;
    this.lease = null;
    if (lease !== null) await this.services.leases.release(lease).catch(() => {});
  }

  private transition(change: () => Promise<void>): Promise<void> {
    const next = this.transitions.then(change);
    this.transitions = next.catch(() => {});
    return next;
  }

  private async installLatest(): Promise<void> {
    const latest = await this.services.manifests.latest(this.name);
    if (latest === null || latest.version <= this.installedVersion || this.currentRole !== 'replica') return;
    const collection = this.localCollection();
    if (this.foreignFiles(collection.dir, latest).length > 0) {
      // Files this node built as a writer under names the manifest now gives to others: the
      // open collection may map them, so it is reopened on the published files instead.
      await this.transition(async () => {
        if (this.currentRole !== 'replica' || this.stopped) return;
        this.installed(await this.reopenOnPublished());
      });
      return;
    }
    await this.fetchFiles(collection.dir, latest);
    if (this.currentRole !== 'replica' || this.stopped) return;
    collection.installPublished(latest.manifest);
    this.installed(latest);
  }

  /** This node's copy of the collection, open in cluster mode. */
  private localCollection(): ClusterCollection {
    return asClusterCollection(this.services.registry().getCollection(this.name));
  }

  private installed(latest: PublishedManifest | null): void {
    this.installedVersion = latest?.version ?? 0;
    this.advanceVisible(latest?.logSeq ?? 0);
  }

  private advanceVisible(seq: number): void {
    if (seq <= this.visibleSeq) return;
    this.visibleSeq = seq;
    const ready = this.waiters.filter((waiter) => waiter.seq <= seq);
    this.waiters = this.waiters.filter((waiter) => waiter.seq > seq);
    for (const waiter of ready) waiter.resolve();
  }

  private waitVisible(seq: number): Promise<void> {
    if (seq <= this.visibleSeq || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { seq, resolve: () => {
        clearTimeout(timer);
        resolve();
      } };
      // The write is durable either way; past this the answer goes without waiting longer.
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        resolve();
      }, VISIBILITY_WAIT_MS);
      timer.unref();
      this.waiters.push(waiter);
    });
  }

  /**
   * Downloads the files of `published` this directory lacks, or holds from elsewhere than the
   * objects it names (a file this node built as a writer and never published), and records
   * where each came from.
   */
  private async fetchFiles(dir: string, published: PublishedManifest): Promise<void> {
    const origins = LocalFileOrigins.read(dir);
    const files = published.manifest.segments.flatMap(segmentFiles);
    try {
      for (const file of files) {
        const key = published.objects[file];
        if (key === undefined) throw new Error(`published manifest ${published.version} of '${this.name}' names ${file} without its object`);
        if (origins.is(file, key) && fs.existsSync(path.join(dir, file))) continue;
        await this.services.store.download(key, path.join(dir, file));
        origins.set(file, key);
      }
    } finally {
      origins.save(files);
    }
  }

  /** Files of `published` present here but not from the objects it names: they must be replaced with the collection closed. */
  private foreignFiles(dir: string, published: PublishedManifest): string[] {
    const origins = LocalFileOrigins.read(dir);
    return published.manifest.segments
      .flatMap(segmentFiles)
      .filter((file) => fs.existsSync(path.join(dir, file)) && !origins.is(file, published.objects[file] ?? ''));
  }

  /**
   * Reopens the local collection on the latest published manifest with an empty WAL: what this
   * node applied or built and did not publish is dropped (the shared log still has it).
   */
  private async reopenOnPublished(): Promise<PublishedManifest | null> {
    const latest = await this.services.manifests.latest(this.name);
    await this.services.registry().reopen(this.name, async (dir) => {
      if (latest !== null) await this.fetchFiles(dir, latest);
      writeManifest(dir, latest?.manifest ?? emptyManifest());
      const walDir = path.join(dir, WAL_DIR_NAME);
      fs.rmSync(walDir, { recursive: true, force: true });
      fs.mkdirSync(walDir);
    });
    return latest;
  }

  private async becomeWriter(lease: Lease): Promise<void> {
    if (this.stopped) {
      await this.services.leases.release(lease).catch(() => {});
      return;
    }
    this.lease = lease;
    this.currentRole = 'writer';
    let latest: PublishedManifest | null;
    try {
      latest = await this.reopenOnPublished();
    } catch (error) {
      // Could not start writing (PostgreSQL or the object store away): the collection was
      // opened again as it was, as a writer; it becomes a replica again and the lease goes back.
      this.lease = null;
      this.currentRole = 'replica';
      await this.services.registry().reopen(this.name, async () => {});
      await this.services.leases.release(lease).catch(() => {});
      throw error;
    }
    this.appliedSeq = this.coveredSeq = latest?.logSeq ?? 0;
    this.objects = new Map(Object.entries(latest?.objects ?? {}));
    this.published = { generation: latest?.manifest.generation ?? 0, seq: latest?.logSeq ?? 0 };
    this.installed(latest);
    this.following = this.follow(lease).finally(() => (this.following = null));
  }

  private async becomeReplica(): Promise<void> {
    this.lease = null;
    this.currentRole = 'replica';
    this.wakeFollower?.();
    await Promise.allSettled([this.following, this.publishing.settled()]);
    if (this.stopped) return;
    this.installed(await this.reopenOnPublished());
  }

  private isWriting(lease: Lease): boolean {
    return !this.stopped && this.currentRole === 'writer' && this.lease === lease;
  }

  /** The writer's loop: the log → the local collection → a refresh → a publication. */
  private async follow(lease: Lease): Promise<void> {
    const { log, onError } = this.services;
    while (this.isWriting(lease)) {
      try {
        const writes = await log.read(this.name, this.appliedSeq, FOLLOW_BATCH_RECORDS, FOLLOW_BATCH_BYTES);
        if (writes.length === 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, FOLLOW_IDLE_MS);
            this.wakeFollower = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.wakeFollower = null;
          continue;
        }
        const collection = this.localCollection();
        await collection.applyLogged(writes.map((write) => write.record));
        this.appliedSeq = writes[writes.length - 1]!.seq;
        const target = this.appliedSeq;
        await collection.refreshApplied();
        this.coveredSeq = Math.max(this.coveredSeq, target);
        this.advanceVisible(this.coveredSeq);
        this.requestPublish();
      } catch (error) {
        if (!this.isWriting(lease)) return;
        const quiet = error instanceof FolioError && (error.code === 'cluster_unavailable' || error.code === 'overloaded');
        if (!quiet) onError(error, `applying the write log of '${this.name}'`);
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }

  private requestPublish(): void {
    if (this.lease !== null) void this.publishing.request();
  }

  private async publishRun(): Promise<boolean> {
    const lease = this.lease;
    if (lease === null) return false;
    try {
      await this.publishOnce(lease);
      return false;
    } catch (error) {
      if (error instanceof LeaseLostError) {
        void this.transition(() => this.becomeReplica()).catch((failure: unknown) => this.services.onError(failure, `stepping down as writer of '${this.name}'`));
        return false;
      }
      const quiet = error instanceof FolioError && error.code === 'cluster_unavailable';
      if (!quiet) this.services.onError(error, `publishing the manifest of '${this.name}' (it waits until the object store and PostgreSQL answer)`);
      await sleep(RETRY_PAUSE_MS);
      return true;
    }
  }

  /** Uploads what the current snapshot names and the store lacks, then publishes it. */
  private async publishOnce(lease: Lease): Promise<void> {
    if (!this.isWriting(lease)) return;
    const { store, manifests, log } = this.services;
    const collection = this.localCollection();
    // The seq first: the snapshot read after it holds at least that much of the log.
    const seq = this.coveredSeq;
    const manifest = collection.currentManifest();
    if (manifest.generation === this.published.generation && seq === this.published.seq) return;
    const files = manifest.segments.flatMap(segmentFiles);
    const prefix = `${this.collectionPrefix(collection.createdAt)}/w${lease.token}`;
    await collection.whilePinned(manifest.generation, async () => {
      const origins = LocalFileOrigins.read(collection.dir);
      try {
        for (const file of files) {
          if (this.objects.has(file)) continue;
          const key = store.key(`${prefix}/${file}`);
          await store.upload(key, path.join(collection.dir, file));
          this.objects.set(file, key);
          origins.set(file, key);
        }
      } finally {
        origins.save(files);
      }
    });
    const named = Object.fromEntries(files.map((file) => [file, this.objects.get(file)!]));
    const version = await manifests.publish(lease, seq, manifest, named, this.services.graceMs);
    this.published = { generation: manifest.generation, seq };
    this.installedVersion = version;
    for (const file of [...this.objects.keys()]) if (!(file in named)) this.objects.delete(file);
    await log.trim(this.name, seq);
    await this.sweepObjects(collection.createdAt);
  }

  private collectionPrefix(createdAt: string): string {
    return collectionObjectPrefix(this.name, createdAt);
  }

  /** Removes objects no kept manifest names, once they are older than the grace period. */
  private async sweepObjects(createdAt: string): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < this.services.graceMs / 2) return;
    this.lastSweep = now;
    const { store, manifests } = this.services;
    const referenced = await manifests.referencedObjects(this.name);
    for (const key of this.objects.values()) referenced.add(key);
    const stored = await store.list(`${this.collectionPrefix(createdAt)}/`);
    const doomed = stored.filter((object) => !referenced.has(object.key) && now - object.lastModified.getTime() > this.services.graceMs).map((object) => object.key);
    if (doomed.length > 0) await store.remove(doomed);
  }
}
