// A Folio node in cluster mode: PostgreSQL for what every node must agree on (collections, the
// write log, published manifests, writer leases), the object store for segment files, and the
// local data directory as a cache of the collections it serves. It keeps the local registry in
// step with the catalog, takes writer leases (unless it is a replica), follows LISTEN/NOTIFY
// with polling as the fallback, and hands each collection its link to the cluster.

import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { ClusterStats } from '../api/index.ts';
import { asClusterCollection } from '../indexing/index.ts';
import type { ClusterLink, CollectionRegistry, LocalCollectionRegistry } from '../indexing/index.ts';
import { ClusterDatabase } from './cluster-database.ts';
import { CoalescedRun } from './coalesced-run.ts';
import { ClusterNotifications } from './cluster-notifications.ts';
import { ClusterRegistry } from './cluster-registry.ts';
import { CATALOG_CHANNEL, CollectionCatalog } from './collection-catalog.ts';
import type { CatalogCollection } from './collection-catalog.ts';
import { ObjectStore, parseObjectStoreUrl } from './object-store.ts';
import { MANIFEST_CHANNEL, PublishedManifests } from './published-manifests.ts';
import { ReplicatedCollection, collectionObjectPrefix } from './replicated-collection.ts';
import { LOG_CHANNEL, SharedWriteLog } from './shared-write-log.ts';
import { WriterLeases } from './writer-lease.ts';
import { AUTH_CHANNEL, SharedAuth } from './shared-auth.ts';
import { DELIVERIES_CHANNEL, SharedDeliveryQueue, SharedWebhookRegistry, WEBHOOKS_CHANNEL } from './shared-webhooks.ts';
import { KeyStore, SessionStore, TokenBucketLimiter } from '../auth/index.ts';
import type { RateLimit, RequestRateLimiter } from '../auth/index.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';

export type ClusterNodeRole = 'writer' | 'replica';

export interface ClusterOptions {
  /** `postgres://…` (`--cluster`). */
  postgresUrl: string;
  /** `s3://bucket/prefix` (`--object-store`). */
  objectStoreUrl: string;
  /** S3 endpoint other than AWS (`--s3-endpoint`): MinIO, Ceph RGW, R2… */
  s3Endpoint: string | null;
  /** `writer` (default) nodes take writer leases; a `replica` only serves searches. */
  role: ClusterNodeRole;
  /** How long a writer lease lasts unrenewed (failover time); default 5 s. */
  leaseMs: number;
  /** How long files and manifests no longer current are kept; default 10 minutes. */
  graceMs: number;
  /** How often the node looks for changes a lost notification did not tell it; default 1 s. */
  pollMs: number;
  /** Redis for rate limits shared by every node (`--redis`); null: each node enforces its share. */
  redisUrl: string | null;
}


/** Settings as one canonical string (PostgreSQL's jsonb reorders keys). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export class ClusterNode {
  readonly nodeId = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly db: ClusterDatabase;
  private readonly store: ObjectStore;
  private readonly catalog: CollectionCatalog;
  private readonly log: SharedWriteLog;
  private readonly manifests: PublishedManifests;
  private readonly leases: WriterLeases;
  private readonly auth: SharedAuth;
  private authStores: { keys: KeyStore; sessions: SessionStore } | null = null;
  /** Nodes that sent a heartbeat lately (this one included). */
  private liveNodes = 1;
  private redisLimiter: RedisRateLimiter | null = null;
  private webhooks: { store: SharedWebhookRegistry; outbox: SharedDeliveryQueue } | null = null;
  private readonly collections = new Map<string, ReplicatedCollection>();
  private registry: LocalCollectionRegistry | null = null;
  private clusterRegistry: ClusterRegistry | null = null;
  private notifications: ClusterNotifications | null = null;
  private timers: NodeJS.Timeout[] = [];
  private readonly catalogSync = new CoalescedRun(() => this.syncCatalogRun(), () => !this.closed);
  private closed = false;

  private constructor(
    private readonly options: ClusterOptions,
    private readonly onError: (error: unknown, message: string) => void,
  ) {
    this.db = new ClusterDatabase(options.postgresUrl);
    this.store = new ObjectStore(parseObjectStoreUrl(options.objectStoreUrl), options.s3Endpoint);
    this.catalog = new CollectionCatalog(this.db);
    this.log = new SharedWriteLog(this.db);
    this.manifests = new PublishedManifests(this.db);
    this.leases = new WriterLeases(this.db, this.nodeId, options.leaseMs);
    this.auth = new SharedAuth(this.db);
  }

  /**
   * The rate limiter of this node: token buckets in Redis shared by every node with `--redis`,
   * else this node's share (1/nodes) of each limit, in memory.
   */
  rateLimiter(rate: RateLimit, now: () => number): RequestRateLimiter {
    const local = new TokenBucketLimiter({ ...rate, now, share: () => 1 / this.liveNodes });
    if (this.options.redisUrl === null) return local;
    this.redisLimiter = new RedisRateLimiter(this.options.redisUrl, rate, local);
    return this.redisLimiter;
  }

  /** The webhook registry and the delivery outbox over PostgreSQL, loaded now and kept current. */
  async openWebhookPlaces(now: () => Date): Promise<{ store: SharedWebhookRegistry; outbox: SharedDeliveryQueue }> {
    const places = { store: new SharedWebhookRegistry(this.db, now, this.onError), outbox: new SharedDeliveryQueue(this.db, this.nodeId) };
    await places.store.reload();
    this.webhooks = places;
    return places;
  }

  /** API key and session stores over PostgreSQL, loaded now and kept current by the node. */
  async openAuthStores(now: () => Date): Promise<{ keys: KeyStore; sessions: SessionStore }> {
    const stores = { keys: KeyStore.shared(this.auth, { now }), sessions: SessionStore.shared(this.auth.sessions, { now }) };
    await this.auth.reload(stores.keys, stores.sessions);
    this.authStores = stores;
    return stores;
  }

  /** Connects to PostgreSQL and creates the schema if needed; throws when it cannot. */
  static async start(options: ClusterOptions, onError: (error: unknown, message: string) => void): Promise<ClusterNode> {
    const node = new ClusterNode(options, onError);
    try {
      await node.db.migrate();
    } catch (error) {
      await node.db.close().catch(() => {});
      node.store.close();
      throw error;
    }
    return node;
  }

  /** The link the local registry gives collection `name` each time it opens it. */
  link(name: string): ClusterLink {
    return this.collection(name).link();
  }

  /** Takes over the local registry: syncs it with the catalog and starts following the cluster. */
  async attach(registry: LocalCollectionRegistry): Promise<CollectionRegistry> {
    this.registry = registry;
    this.clusterRegistry = new ClusterRegistry(registry, this.catalog, (name) => this.forget(name), () => this.close());
    await this.syncCatalog();
    this.notifications = new ClusterNotifications(
      this.options.postgresUrl,
      [LOG_CHANNEL, MANIFEST_CHANNEL, CATALOG_CHANNEL, AUTH_CHANNEL, WEBHOOKS_CHANNEL, DELIVERIES_CHANNEL],
      (channel, name) => this.notified(channel, name),
      () => void this.pollEverything(),
    );
    await this.notifications.start();
    const every = (ms: number, work: () => Promise<void>): void => {
      const timer = setInterval(() => void work().catch((error: unknown) => this.onError(error, 'cluster upkeep')), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.pollMs, () => this.pollEverything());
    if (this.options.role === 'writer') {
      every(Math.max(100, Math.floor(this.options.leaseMs / 3)), () => this.leaseTicks());
      await this.leaseTicks();
      every(Math.max(1_000, Math.floor(this.options.graceMs / 2)), () => this.sweepDeletedCollections());
    }
    return this.clusterRegistry;
  }

  status(): ClusterStats {
    const collections: ClusterStats['collections'] = {};
    for (const [name, collection] of [...this.collections].sort(([a], [b]) => (a < b ? -1 : 1))) collections[name] = collection.status();
    return {
      node_id: this.nodeId,
      role: this.options.role,
      nodes: this.liveNodes,
      rate_limits: this.options.redisUrl !== null ? 'shared' : 'per_node',
      collections,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.notifications?.close();
    await Promise.allSettled([...this.collections.values()].map((collection) => collection.stop()));
    this.redisLimiter?.close();
    await this.db.query('DELETE FROM folio_nodes WHERE node_id = $1', [this.nodeId]).catch(() => {});
    await this.db.close().catch(() => {});
    this.store.close();
  }

  private collection(name: string): ReplicatedCollection {
    let collection = this.collections.get(name);
    if (collection === undefined) {
      collection = new ReplicatedCollection(name, {
        log: this.log,
        manifests: this.manifests,
        leases: this.leases,
        catalog: this.catalog,
        store: this.store,
        registry: () => this.registry!,
        graceMs: this.options.graceMs,
        onError: this.onError,
      });
      this.collections.set(name, collection);
    }
    return collection;
  }

  private notified(channel: string, name: string): void {
    if (channel === CATALOG_CHANNEL) void this.syncCatalog();
    else if (channel === LOG_CHANNEL) this.collections.get(name)?.logAppended();
    else if (channel === MANIFEST_CHANNEL) void this.collections.get(name)?.syncReplica();
    else if (channel === AUTH_CHANNEL) void this.reloadAuth();
    else if (channel === WEBHOOKS_CHANNEL) void this.webhooks?.store.reload().catch(() => {});
    else if (channel === DELIVERIES_CHANNEL) void this.webhooks?.outbox.claim().catch(() => {});
  }

  private async reloadAuth(): Promise<void> {
    if (this.authStores === null || this.closed) return;
    try {
      await this.auth.reload(this.authStores.keys, this.authStores.sessions);
    } catch {
      // PostgreSQL away: the keys and sessions known so far keep working meanwhile.
    }
  }

  /** Says this node is alive and counts the nodes that are. */
  private async heartbeat(): Promise<void> {
    try {
      const { rows } = await this.db.query<{ live: string }>(
        `WITH beat AS (INSERT INTO folio_nodes (node_id, role, seen_at) VALUES ($1, $2, now())
                         ON CONFLICT (node_id) DO UPDATE SET seen_at = now(), role = $2)
         SELECT count(*) AS live FROM folio_nodes WHERE node_id <> $1 AND seen_at > now() - $3 * interval '1 millisecond'`,
        [this.nodeId, this.options.role, this.options.pollMs * 3],
      );
      this.liveNodes = 1 + Number(rows[0]!.live);
    } catch {
      // PostgreSQL away: the count stays as it was.
    }
  }

  private async pollEverything(): Promise<void> {
    if (this.closed) return;
    await this.heartbeat();
    await this.reloadAuth();
    if (this.webhooks !== null) {
      // PostgreSQL away: deliveries wait; the claims this node holds expire if it cannot record them.
      await this.webhooks.store.reload().catch(() => {});
      await this.webhooks.outbox.claim().catch(() => {});
    }
    await this.syncCatalog();
    let versions: Map<string, number>;
    try {
      versions = await this.manifests.latestVersions();
    } catch {
      return; // PostgreSQL away: searches serve the last manifest meanwhile.
    }
    await Promise.all([...this.collections].map(([name, collection]) => collection.syncReplica(versions.get(name) ?? 0)));
  }

  private async leaseTicks(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.collections.values()].map((collection) => collection.leaseTick()));
  }

  /**
   * Removes the objects of collections the catalog no longer lists (deleted, or deleted and
   * created again), once they are older than the grace period. Any writer-role node may do it.
   */
  private async sweepDeletedCollections(): Promise<void> {
    let rows: CatalogCollection[];
    try {
      rows = await this.catalog.list();
    } catch {
      return;
    }
    const live = new Set(rows.map((row) => this.store.key(collectionObjectPrefix(row.name, row.createdAt))));
    // A key is <prefix>/collections/<name>/<created>/…: its collection is its first three parts after the prefix.
    const collectionOf = (key: string): string => this.store.key(key.slice(this.store.key('').length).split('/').slice(0, 3).join('/'));
    const now = Date.now();
    const doomed = (await this.store.list('collections/'))
      .filter((object) => !live.has(collectionOf(object.key)) && now - object.lastModified.getTime() > this.options.graceMs)
      .map((object) => object.key);
    if (doomed.length > 0) await this.store.remove(doomed);
  }

  /** Forgets a collection deleted from the catalog: its loops stop and its directory goes. */
  private async forget(name: string): Promise<void> {
    const collection = this.collections.get(name);
    this.collections.delete(name);
    await collection?.stop();
    await this.registry?.delete(name).catch(() => {});
  }

  private syncCatalog(): Promise<void> {
    return this.catalogSync.request();
  }

  private async syncCatalogRun(): Promise<boolean> {
    try {
      await this.syncCatalogOnce();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'cluster_unavailable') this.onError(error, 'following the collection catalog');
    }
    return false;
  }

  /** Opens what the catalog lists and this node lacks, drops what it no longer lists, applies settings. */
  private async syncCatalogOnce(): Promise<void> {
    const registry = this.registry;
    if (registry === null || this.closed) return;
    const rows = await this.catalog.list();
    const listed = new Map(rows.map((row) => [row.name, row]));
    for (const name of registry.names()) {
      if (!listed.has(name) && !this.clusterRegistry!.creating.has(name)) await this.forget(name);
    }
    for (const row of rows) await this.follow(registry, row);
  }

  private async follow(registry: LocalCollectionRegistry, row: CatalogCollection): Promise<void> {
    if (this.clusterRegistry!.creating.has(row.name)) return;
    if (registry.names().includes(row.name)) {
      const local = registry.getCollection(row.name);
      if (local.createdAt !== row.createdAt) {
        // Deleted and created again elsewhere: a new collection under the old name.
        await this.forget(row.name);
      } else {
        if (canonicalJson(local.storedSettings()) !== canonicalJson(row.settings)) asClusterCollection(local).adoptSettings(row.settings);
        return;
      }
    }
    this.collection(row.name);
    await registry.adopt(row.name, row.language, row.createdAt, row.settings);
    await this.collection(row.name).syncReplica();
  }
}
