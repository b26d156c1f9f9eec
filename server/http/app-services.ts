// What the app and its requests carry, declared once for Fastify's types: the services of the
// other rooms, each decorated on the app by app.ts (the one way routes and plugins reach a
// service), and the principal the auth plugin puts on each request.

import type { ApiKeys, Credentials, FailedAuthLimiter, KeyStore, Principal, SessionStore, RequestRateLimiter } from '../auth/index.ts';
import type { CollectionService, DocumentService } from '../documents/index.ts';
import type { FileUploads, OcrLanguages, PagePreviews } from '../files/index.ts';
import type { CollectionRegistry, CollectionWorkers } from '../indexing/index.ts';
import type { Webhooks } from '../webhooks/index.ts';
import type { ClusterNode } from '../cluster/index.ts';
import type { SearchActivity } from './search-activity.ts';
import type { SearchAdmission } from './search-admission.ts';
import type { DataSnapshots } from '../data-dir/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every collection of this server, opened (server/indexing/collection-registry.ts). */
    registry: CollectionRegistry;
    /** This node's part in a cluster (server/cluster/), or null in single-process mode. */
    cluster: ClusterNode | null;
    /** Create, list, get and delete collections, with their events (server/documents/). */
    collections: CollectionService;
    /** Write, read and delete documents, with kept originals and events (server/documents/). */
    documents: DocumentService;
    /** The search and index worker pools the collections use (server/pools/). */
    workers: CollectionWorkers;
    /** The upload flow: extraction, kept originals, file events (server/files/file-uploads.ts). */
    uploads: FileUploads;
    /** The OCR languages this server has (server/files/ocr-languages.ts). */
    ocrLanguages: OcrLanguages;
    /** Pictures of the pages of kept originals, cached (server/files/page-previews.ts). */
    previews: PagePreviews;
    /** Who a bearer token is: master key, session or API key (server/auth/credentials.ts). */
    credentials: Credentials;
    /** The API key store (server/auth/key-store.ts): the auth plugin marks keys used. */
    keys: KeyStore;
    /** Create, list and revoke API keys without escalation (server/auth/api-keys.ts). */
    apiKeys: ApiKeys;
    /** Sessions opened with the master key (server/auth/session-store.ts). */
    sessions: SessionStore;
    /** Token buckets per credential; null when rate limiting is off. */
    rateLimiter: RequestRateLimiter | null;
    /** Failed authentications per client address. */
    failedAuth: FailedAuthLimiter;
    /** Webhooks: registry, deliveries, and `emit` where changes are committed (server/webhooks/webhooks.ts). */
    webhooks: Webhooks;
    /** The app's clock in ms since the epoch (tests may give their own). */
    clock: () => number;
    /** When the app was built (ms since the epoch), for uptime. */
    startedAt: number;
    /** Searches answered, for GET /v1/stats (search-activity.ts). */
    searchActivity: SearchActivity;
    /** Searches each API key may run at once (search-admission.ts). */
    searchAdmission: SearchAdmission;
    /** Consistent copies of the data directory as tar streams (data-dir/data-snapshot.ts). */
    snapshots: DataSnapshots;
  }
  interface FastifyContextConfig {
    /** The route needs no credential. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** Who made the request; null on public routes. */
    principal: Principal | null;
    /** Releases the collection the request names (`:name`), held open until the answer is sent (app.ts). */
    releaseCollection: (() => void) | null;
  }
}
