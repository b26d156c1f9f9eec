// Builds the Fastify application, the composition root of the server: opens each room's
// services (key and session stores, the collection registry and its pools, the collection
// and document services, the extraction pool, kept originals, webhooks, the upload flow) and decorates them on the app — the one way
// routes and plugins reach a service (their types: app-services.ts) — registers the error
// handler, authentication, the OpenAPI generator and every route folder, and closes the
// services (flushing pending writes) when the app closes.
// It does not listen: server/http/start-server.ts does, and tests may call `inject` or `listen` on it.

import path from 'node:path';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Settings } from 'typebox/system';
import { MAX_BODY_BYTES, MAX_PATH_PARAMETER_LENGTH, MAX_RAW_VALIDATION_ERRORS } from '../api/index.ts';
import { ApiKeys, Credentials, FailedAuthLimiter, KeyStore, SessionStore, TokenBucketLimiter } from '../auth/index.ts';
import { DEFAULT_ADDONS_DIR, DEFAULT_RATE_LIMIT } from '../config/index.ts';
import { CollectionService, DocumentService } from '../documents/index.ts';
import type { RateLimitSetting } from '../config/index.ts';
import { FileUploads, KeptOriginals, OcrLanguages, PagePreviews } from '../files/index.ts';
import { openCollectionRegistry } from '../indexing/index.ts';
import type { ClusterOptions } from '../cluster/index.ts';
import type { Backpressure } from '../indexing/index.ts';
import { ExtractionPool, IngestPool } from '../pools/index.ts';
import { Webhooks } from '../webhooks/index.ts';
import type { LookupAll } from '../webhooks/index.ts';
import './app-services.ts';
import authPlugin from './plugins/auth.ts';
import errorHandlerPlugin, { handleClientError, handleError } from './plugins/error-handler.ts';
import openApiPlugin from './plugins/openapi.ts';
import apiKeyRoutes from './routes/api-keys/index.ts';
import collectionRoutes from './routes/collections/index.ts';
import documentRoutes from './routes/documents/index.ts';
import fileRoutes from './routes/files/index.ts';
import healthRoutes from './routes/health/index.ts';
import searchRoutes from './routes/search/index.ts';
import sessionRoutes from './routes/sessions/index.ts';
import webhookRoutes from './routes/webhooks/index.ts';
import statsRoutes from './routes/stats/index.ts';
import snapshotRoutes from './routes/snapshots/index.ts';
import { DataSnapshots } from '../data-dir/index.ts';
import dashboardRoutes from './routes/dashboard/index.ts';
import { SearchActivity } from './search-activity.ts';
import { SearchAdmission, defaultKeySearchConcurrency } from './search-admission.ts';
import { logEachRequestOnce } from './log-lines.ts';
import { requestValidatorCompiler } from './validation/request-validator.ts';

/** Request properties that could carry a credential: never written to the log. */
const REDACTED_LOG_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'];

export interface LoggerOptions {
  /** pino level: fatal, error, warn, info, debug, trace or silent. Default info. */
  level?: string;
  /** Where log lines go (default standard output); tests capture them here. */
  stream?: { write(line: string): void };
}

export interface BuildAppOptions {
  /** Directory holding every collection (created if missing). */
  dataDir: string;
  /** The master key: the root credential; API keys and sessions are kept under dataDir (docs/api.md, "API keys, sessions and rate limits"). */
  masterKey: string;
  /** false (default) for no logging, true for info-level logs, or options. */
  logger?: boolean | LoggerOptions;
  /** How often buffered writes become searchable; the registry's default (≤ 1 s) otherwise. */
  refreshIntervalMs?: number;
  /** When writes wait for a refresh and are refused with 503 `overloaded` (tests shrink it). */
  backpressure?: Backpressure;
  /** Search worker threads (default one per core). */
  searchThreads?: number;
  /** Refresh and merge worker threads (default 2). */
  indexThreads?: number;
  /** Bytes of recent search answers kept (default 32 MiB; 0 disables the cache). */
  searchCacheBytes?: number;
  /** Collections kept open at once; others open when used and close when idle (`--open-collections`). */
  maxOpenCollections?: number;
  /** How long an unused collection stays open, in milliseconds (tests shorten it). */
  collectionIdleMs?: number;
  /** Longest a search may take before answering what it found (default 2 s; 0: no limit). */
  searchTimeoutMs?: number;
  /** Searches one API key may run at once (default search threads - 1, at least 1). */
  keySearchConcurrency?: number;
  /** Where `local` embedders' models are (`--models-dir`); default `<dataDir>/models`. */
  modelsDir?: string;
  /** Where add-ons are installed (`--addons-dir`): the local embedder's runtime, OCR languages; default `<Folio>/addons`. */
  addonsDir?: string;
  /** Bytes of page pictures kept on disk (`--preview-cache-mb`); default 256 MiB. */
  previewCacheBytes?: number;
  /** Default rate limit per credential (docs/api.md, "API keys, sessions and rate limits"); null turns it off; default 100/s, burst 200. */
  rateLimit?: RateLimitSetting | null;
  /** The clock in milliseconds since the epoch (tests pass a fake one); default Date.now. */
  now?: () => number;
  /** Largest file upload in bytes (default 100 MiB). */
  maxFileBytes?: number;
  /** Longest time one file's extraction may take, in ms (default 120 s). */
  extractionTimeLimitMs?: number;
  /** Extraction worker threads (default 1). */
  extractionThreads?: number;
  /** Keep the original of every uploaded file for download (`--keep-files`; default false). */
  keepFiles?: boolean;
  /** Let webhooks reach loopback and private addresses (`--allow-private-webhooks`). */
  allowPrivateWebhooks?: boolean;
  /** Waits before webhook retries (default 5 s, 30 s, 2 min, 10 min, 1 h, 6 h; tests shorten them). */
  webhookRetryDelaysMs?: readonly number[];
  /** Time limit of one webhook delivery (default 10 s). */
  webhookTimeoutMs?: number;
  /** How webhook hosts are resolved (default the system's resolver; tests pass their own). */
  webhookLookup?: LookupAll;
  /** Cluster mode (docs/cluster.md): PostgreSQL, the object store and this node's role. */
  cluster?: ClusterOptions;
}

/** How often keys' `last_used_at` times are written to disk (they change in memory on use). */
const KEY_FLUSH_INTERVAL_MS = 30_000;

function loggerConfig(logger: BuildAppOptions['logger']) {
  if (logger === undefined || logger === false) return false;
  const options = logger === true ? {} : logger;
  return {
    level: options.level ?? 'info',
    ...(options.stream !== undefined && { stream: options.stream }),
    redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
  };
}

/** How often a closing server looks for keep-alive connections that have become idle. */
const CLOSING_IDLE_SWEEP_MS = 50;

/**
 * On close, Node closes the keep-alive connections that are idle at that moment; one still
 * finishing a response (a streamed download whose client already has every byte) would stay
 * open until its keep-alive timeout (72 s). Sweep again until the server has closed.
 */
function closeConnectionsOnceIdle(app: FastifyInstance): void {
  app.addHook('preClose', (done) => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), CLOSING_IDLE_SWEEP_MS);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
    done();
  });
}

/** Like Fastify's JSON parser, but an empty body means "no body" (e.g. `POST …/refresh`). */
function tolerantJsonParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  return (request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) => {
    if (body.length === 0) return done(null, undefined);
    return parseJson(request, body, done);
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  // Bounds the errors gathered for one invalid request (TypeBox's own DoS guard).
  Settings.Set({ maxErrors: MAX_RAW_VALIDATION_ERRORS });

  const app = Fastify({
    logger: loggerConfig(options.logger),
    // One line per request instead (log-lines.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: MAX_BODY_BYTES,
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    frameworkErrors: handleError,
    // Requests the HTTP parser refuses (431, malformed) answer problem+json too.
    clientErrorHandler: handleClientError,
    // A request without Host reaches the error handler instead of Node's empty 400.
    http: { requireHostHeader: false },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(requestValidatorCompiler);
  logEachRequestOnce(app);
  closeConnectionsOnceIdle(app);
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, tolerantJsonParser(app));

  const now = options.now ?? Date.now;
  app.decorate('clock', now);
  app.decorate('startedAt', now());
  app.decorate('searchActivity', new SearchActivity(now));
  // Cluster mode: PostgreSQL must answer before the node serves anything.
  const clusterOptions = options.cluster;
  // Loaded only then: single-process mode never loads the PostgreSQL and S3 clients.
  const cluster =
    clusterOptions === undefined
      ? null
      : await (await import('../cluster/index.ts')).ClusterNode.start(clusterOptions, (error, message) => app.log.error({ err: error }, `cluster: ${message}`));
  app.decorate('cluster', cluster);
  // In cluster mode keys and sessions live in PostgreSQL, shared by every node.
  const { keys, sessions } =
    cluster === null
      ? { keys: KeyStore.open(options.dataDir, { now: () => new Date(now()) }), sessions: SessionStore.open(options.dataDir, { now: () => new Date(now()) }) }
      : await cluster.openAuthStores(() => new Date(now()));
  const rate = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  const rateLimiter = rate === null ? null : cluster !== null ? cluster.rateLimiter(rate, now) : new TokenBucketLimiter({ ...rate, now });
  const failedAuth = new FailedAuthLimiter({ now });
  app.decorate('credentials', new Credentials(options.masterKey, keys, sessions));
  app.decorate('keys', keys);
  app.decorate('sessions', sessions);
  app.decorate('rateLimiter', rateLimiter);
  app.decorate('failedAuth', failedAuth);
  const flushKeys = (): void => {
    try {
      keys.flush();
    } catch (error) {
      app.log.error({ err: error }, 'could not save API key usage times');
    }
  };
  const keyFlushTimer = setInterval(flushKeys, KEY_FLUSH_INTERVAL_MS);
  keyFlushTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(keyFlushTimer);
    flushKeys();
    keys.close();
    sessions.close();
  });

  // Files are read in a pool of their own, never on the main thread or in the search pool.
  const extraction = new ExtractionPool({
    ...(options.extractionTimeLimitMs !== undefined && { timeLimitMs: options.extractionTimeLimitMs }),
    ...(options.extractionThreads !== undefined && { threads: options.extractionThreads }),
  });
  app.addHook('onClose', async () => extraction.close());
  // Batch bodies are parsed in a thread of their own, never on the main thread.
  const ingest = new IngestPool();
  app.addHook('onClose', async () => ingest.close());

  // Originals of uploads: leftovers of a crash (or of documents replaced while the server ran
  // without --keep-files) go as each collection opens.
  const originals = new KeptOriginals(options.keepFiles === true);
  const local = await openCollectionRegistry(options.dataDir, {
    onOpen: (collection) => originals.of(collection).removeLeftovers((id) => collection.hasDocument(id)),
    ...(options.maxOpenCollections !== undefined && { maxOpenCollections: options.maxOpenCollections }),
    ...(options.collectionIdleMs !== undefined && { collectionIdleMs: options.collectionIdleMs }),
    ...(cluster !== null && { cluster: (name: string) => cluster.link(name) }),
    refreshIntervalMs: options.refreshIntervalMs,
    searchThreads: options.searchThreads,
    indexThreads: options.indexThreads,
    searchCacheBytes: options.searchCacheBytes,
    ...(options.searchTimeoutMs !== undefined && { searchTimeoutMs: options.searchTimeoutMs }),
    ...(options.modelsDir !== undefined && { modelsDir: options.modelsDir }),
    addonsDir: options.addonsDir ?? DEFAULT_ADDONS_DIR,
    ...(options.backpressure !== undefined && { backpressure: options.backpressure }),
    onBackgroundError: (error, collection) => app.log.error({ err: error, collection }, 'background refresh, merge or embedding failed'),
    // Loud: a damaged file is never passed over in silence (issue 18).
    onDamage: (damaged) =>
      app.log.error({ collection: damaged.name, file: damaged.file, reason: damaged.reason }, `collection '${damaged.name}' is unavailable: ${damaged.reason}; the other collections serve. Run 'folio check --repair' with the server stopped`),
  });
  const registry = cluster === null ? local : await cluster.attach(local);
  app.decorate('registry', registry);
  // The collection a request names stays open until its answer is sent (idle collections close).
  app.decorateRequest('releaseCollection', null);
  app.addHook('onRequest', async (request) => {
    const name = (request.params as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string') request.releaseCollection = registry.hold(name);
  });
  const release = async (request: FastifyRequest): Promise<void> => request.releaseCollection?.();
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
  app.decorate('workers', local.workers);
  app.decorate('searchAdmission', new SearchAdmission(options.keySearchConcurrency ?? defaultKeySearchConcurrency(local.workers.search.threadCount)));
  app.addHook('onClose', async () => registry.close());


  // Webhooks: the registry, the durable outbox and the dispatcher that sends in the background.
  const webhooks = new Webhooks({
    dataDir: options.dataDir,
    allowPrivate: options.allowPrivateWebhooks === true,
    now,
    ...(options.webhookRetryDelaysMs !== undefined && { retryDelaysMs: options.webhookRetryDelaysMs }),
    ...(options.webhookTimeoutMs !== undefined && { timeoutMs: options.webhookTimeoutMs }),
    ...(options.webhookLookup !== undefined && { lookup: options.webhookLookup }),
    onError: (error, message) => app.log.error({ err: error }, message),
    ...(cluster !== null && { shared: await cluster.openWebhookPlaces(() => new Date(now())) }),
  });
  app.decorate('webhooks', webhooks);
  app.addHook('onClose', async () => webhooks.close());

  app.decorate('apiKeys', new ApiKeys(keys, rateLimiter, webhooks));
  const snapshots = new DataSnapshots(options.dataDir, registry, keys);
  snapshots.removeLeftovers();
  app.decorate('snapshots', snapshots);
  app.decorate('collections', new CollectionService(registry, webhooks));
  app.decorate('documents', new DocumentService({ collections: registry, originals, events: webhooks, ingest }));
  // OCR languages beyond English are installed on demand into the add-ons' tessdata folder.
  const ocrLanguages = new OcrLanguages(path.join(options.addonsDir ?? DEFAULT_ADDONS_DIR, 'tessdata'));
  app.decorate('ocrLanguages', ocrLanguages);
  const uploads = new FileUploads({ dataDir: options.dataDir, extraction, originals, events: webhooks, ocrLanguages, maxFileBytes: options.maxFileBytes });
  app.decorate('uploads', uploads);
  app.decorate('previews', new PagePreviews(options.dataDir, uploads, extraction, options.previewCacheBytes));

  try {
    await app.register(errorHandlerPlugin);
    await app.register(authPlugin);
    await app.register(openApiPlugin);

    await app.register(healthRoutes);
    await app.register(collectionRoutes);
    await app.register(documentRoutes);
    await app.register(searchRoutes);
    await app.register(apiKeyRoutes);
    await app.register(fileRoutes);
    await app.register(sessionRoutes);
    await app.register(webhookRoutes);
    await app.register(statsRoutes);
    await app.register(snapshotRoutes);
    await app.register(dashboardRoutes);
  } catch (error) {
    await app.close();
    throw error;
  }
  // Deliveries owed from before a restart start once the app is built.
  webhooks.start();
  return app;
}
