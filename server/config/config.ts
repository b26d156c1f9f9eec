// Server configuration, resolved from command-line flags, then FOLIO_* environment variables,
// then defaults that work on a laptop (docs/api.md, "Running and configuration").
//
// The default host is 127.0.0.1, as Meilisearch binds localhost by default: a fresh server
// with a generated key should not be reachable from the network until someone decides so
// (`--host 0.0.0.0` or FOLIO_HOST=0.0.0.0, e.g. in a container).
// The master key has no flag on purpose: command lines are visible to every local user (ps).

import { join, resolve } from 'node:path';
import { FOLIO_PACKAGE_ROOT } from './version.ts';

export const DEFAULT_PORT = 7700;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DATA_DIR = './folio-data';
/** The models directory of `local` embedders, inside the data directory unless --models-dir says otherwise. */
export const MODELS_DIR_NAME = 'models';
/** Add-ons installed on demand (`folio models runtime`, `folio ocr add`): beside Folio's own files unless --addons-dir says otherwise. */
export const DEFAULT_ADDONS_DIR = join(FOLIO_PACKAGE_ROOT, 'addons');
export const DEFAULT_LOG_LEVEL = 'info';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const LOG_FORMATS = ['pretty', 'json'] as const;
/** `pretty`: lines for people; `json`: one JSON object per line. */
export type LogFormat = (typeof LOG_FORMATS)[number];

const MAX_PORT = 65_535;
/** Most worker threads of one pool a flag may ask for. */
export const MAX_POOL_THREADS = 64;

export interface FolioConfig {
  /** TCP port; 0 picks a free one. */
  port: number;
  host: string;
  /** Absolute path of the data directory. */
  dataDir: string;
  /** FOLIO_MASTER_KEY when set; otherwise the server uses (or creates) `<dataDir>/master.key`. */
  masterKey: string | undefined;
  logLevel: LogLevel;
  /** How the log reads; undefined: pretty on a terminal, JSON otherwise. */
  logFormat: LogFormat | undefined;
  /** Let webhooks reach loopback and private addresses (docs/api.md, "Webhooks"; used once webhooks exist). */
  allowPrivateWebhooks: boolean;
  /** Search worker threads; undefined means one per core. */
  searchThreads: number | undefined;
  /** Refresh and merge worker threads; undefined means the default (2). */
  indexThreads: number | undefined;
  /** MiB of recent search answers kept for repeated searches; 0 disables; undefined: default (32). */
  searchCacheMb: number | undefined;
  /** MiB of page pictures kept on disk (`--preview-cache-mb`); undefined: the default (256). */
  previewCacheMb: number | undefined;
  /** Collections kept open at once (others open when used, close when idle); undefined: the default (500). */
  openCollections: number | undefined;
  /**
   * The default rate limit of every API key (docs/api.md, "API keys, sessions and rate limits"; a key's own `rate_limit` overrides it):
   * undefined means the default (DEFAULT_RATE_LIMIT, 100/s with a burst of 200); null means rate
   * limiting is off (`--rate-limit off` or `0`).
   */
  rateLimit: RateLimitSetting | null | undefined;
  /** Largest file upload in bytes; undefined means the default (100 MiB). */
  maxFileBytes: number | undefined;
  /** Keep the original of every uploaded file for download (`--keep-files`). */
  keepFiles: boolean;
  /** Longest one file's extraction may take, in seconds; undefined means the default (120). */
  extractionTimeoutSeconds: number | undefined;
  /** Extraction worker threads; undefined means the default (1). */
  extractionThreads: number | undefined;
  /** Longest a search may take before it answers with what it found, in seconds (0: no limit); undefined: the default (2). */
  searchTimeoutSeconds: number | undefined;
  /** Searches one API key may run at once; undefined: the default (search threads - 1, at least 1). */
  keySearchConcurrency: number | undefined;
  /** Absolute path of the models directory of `local` embedders (default `<dataDir>/models`). */
  modelsDir: string;
  /** Absolute path of the add-ons installed on demand: the local embedder's runtime, OCR languages (default `<Folio>/addons`). */
  addonsDir: string;
  /** Cluster mode (`--cluster` with `--object-store`); null: a single process, no other service. */
  cluster: ClusterConfig | null;
}

/** Where a cluster node finds the shared services, and its part (docs/cluster.md). */
export interface ClusterConfig {
  postgresUrl: string;
  objectStoreUrl: string;
  s3Endpoint: string | null;
  redisUrl: string | null;
  /** `writer`: may take writer leases (the default); `replica`: serves searches only. */
  role: 'writer' | 'replica';
  /** Seconds a writer lease lasts unrenewed: about the failover time. */
  leaseSeconds: number;
  /** Seconds superseded segment files (and manifests) are kept for replicas still fetching them. */
  graceSeconds: number;
}

export const DEFAULT_CLUSTER_LEASE_SECONDS = 5;
export const DEFAULT_CLUSTER_GRACE_SECONDS = 600;

/** A token bucket's rate: `perSecond` requests a second sustained, up to `burst` at once. */
export interface RateLimitSetting {
  perSecond: number;
  burst: number;
}

/** The server's default rate limit per API key (docs/api.md, "API keys, sessions and rate limits"). */
export const DEFAULT_RATE_LIMIT: Readonly<RateLimitSetting> = Object.freeze({ perSecond: 100, burst: 200 });
/** Most requests a second, and most burst, `--rate-limit` accepts. */
export const MAX_RATE_LIMIT = 1_000_000;

/** The flags of `folio serve`, as commander hands them over (all optional). */
export interface ConfigFlags {
  port?: string | number;
  host?: string;
  data?: string;
  logLevel?: string;
  logFormat?: string;
  allowPrivateWebhooks?: boolean;
  searchThreads?: string | number;
  indexThreads?: string | number;
  searchCacheMb?: string | number;
  previewCacheMb?: string | number;
  openCollections?: string | number;
  rateLimit?: string | number;
  maxFileSize?: string | number;
  keepFiles?: boolean;
  extractionTimeout?: string | number;
  extractionThreads?: string | number;
  searchTimeout?: string | number;
  keySearchConcurrency?: string | number;
  modelsDir?: string;
  addonsDir?: string;
  cluster?: string;
  objectStore?: string;
  s3Endpoint?: string;
  redis?: string;
  clusterRole?: string;
  clusterLease?: string | number;
  clusterGrace?: string | number;
}

/** A configuration value is unusable; the message names the flag or variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parsePort(value: string | number, source: string): number {
  const port = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > MAX_PORT) {
    throw new ConfigError(`${source} must be a port number from 0 to ${MAX_PORT}, got '${value}'`);
  }
  return port;
}

function parseLogLevel(value: string, source: string): LogLevel {
  const level = LOG_LEVELS.find((candidate) => candidate === value.toLowerCase());
  if (level === undefined) throw new ConfigError(`${source} must be one of ${LOG_LEVELS.join(', ')}, got '${value}'`);
  return level;
}

function parseLogFormat(value: string | number, source: string): LogFormat {
  const format = LOG_FORMATS.find((candidate) => candidate === String(value).toLowerCase());
  if (format === undefined) throw new ConfigError(`${source} must be one of ${LOG_FORMATS.join(', ')}, got '${value}'`);
  return format;
}

function parseBoolean(value: string, source: string): boolean {
  const normalized = value.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(normalized)) return false;
  throw new ConfigError(`${source} must be true or false, got '${value}'`);
}

/** A whole number from `min` to `max`; `unit` (e.g. 'of MiB ') names what it counts in the error. */
function parseWholeNumber(value: string | number, source: string, min: number, max: number, unit = ''): number {
  const number = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new ConfigError(`${source} must be a whole number ${unit}from ${min} to ${max}, got '${value}'`);
  }
  return number;
}

function parseThreads(value: string | number, source: string): number {
  return parseWholeNumber(value, source, 1, MAX_POOL_THREADS);
}

/** Most MiB the search cache may be given. */
export const MAX_SEARCH_CACHE_MB = 16_384;
/** Most MiB of page pictures `--preview-cache-mb` accepts (1 TiB). */
const MAX_PREVIEW_CACHE_MB = 1024 * 1024;

/** The most `--open-collections` may be. */
const MAX_OPEN_COLLECTIONS = 100_000;

function parseCacheMb(value: string | number, source: string): number {
  return parseWholeNumber(value, source, 0, MAX_SEARCH_CACHE_MB, 'of MiB ');
}

/** `--preview-cache-mb`: 0 keeps no picture on disk. */
function parsePreviewCacheMb(value: string | number, source: string): number {
  return parseWholeNumber(value, source, 0, MAX_PREVIEW_CACHE_MB, 'of MiB ');
}

/** `--open-collections`: at least 1; each open collection holds a descriptor, so far fewer than `ulimit -n`. */
function parseOpenCollections(value: string | number, source: string): number {
  return parseWholeNumber(value, source, 1, MAX_OPEN_COLLECTIONS, '');
}

const RATE_LIMIT_FORMAT = /^(\d+(?:\.\d+)?)\s*(?:\/\s*s)?(?:\s*,\s*burst\s*=\s*(\d+))?$/;

/**
 * `--rate-limit` / FOLIO_RATE_LIMIT: `100/s`, `100` (per second; the burst is twice the rate,
 * rounded up), `100/s,burst=200` or `100,burst=200`; `off` or `0` turns rate limiting off (null).
 * The rate may have a fraction (`0.5/s`); the burst is a whole number of at least 1.
 */
function parseRateLimit(value: string | number, source: string): RateLimitSetting | null {
  const text = String(value).trim().toLowerCase();
  if (text === 'off' || text === '0' || text === '0/s') return null;
  const match = RATE_LIMIT_FORMAT.exec(text);
  const perSecond = match === null ? Number.NaN : Number(match[1]);
  const burst = match?.[2] === undefined ? Math.max(1, Math.ceil(perSecond * 2)) : Number(match[2]);
  if (!(perSecond > 0 && perSecond <= MAX_RATE_LIMIT) || !Number.isInteger(burst) || burst < 1 || burst > MAX_RATE_LIMIT) {
    throw new ConfigError(
      `${source} must be requests per second above 0 and at most ${MAX_RATE_LIMIT}, like '100/s' or '100/s,burst=200' (burst 1 to ${MAX_RATE_LIMIT}), or 'off'; got '${value}'`,
    );
  }
  return { perSecond, burst };
}

/** Longest `--extraction-timeout` accepted, in seconds (a day). */
export const MAX_EXTRACTION_TIMEOUT_SECONDS = 86_400;

function parseTimeoutSeconds(value: string | number, source: string): number {
  return parseWholeNumber(value, source, 1, MAX_EXTRACTION_TIMEOUT_SECONDS, 'of seconds ');
}

/** Longest `--search-timeout` accepted, in seconds. */
export const MAX_SEARCH_TIMEOUT_SECONDS = 3_600;

/** `--search-timeout`: seconds, a fraction allowed (`0.5`); 0 turns the limit off. */
function parseSearchTimeout(value: string | number, source: string): number {
  const seconds = Number(String(value).trim());
  if (String(value).trim() === '' || !(seconds >= 0 && seconds <= MAX_SEARCH_TIMEOUT_SECONDS)) {
    throw new ConfigError(`${source} must be seconds from 0 (no limit) to ${MAX_SEARCH_TIMEOUT_SECONDS}, like '2' or '0.5'; got '${value}'`);
  }
  return seconds;
}

const SIZE_FORMAT = /^(\d+)\s*(b|kb|kib|mb|mib|gb|gib)?$/i;
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3 };
/** Largest `--max-file-size` accepted (64 GiB). */
export const MAX_FILE_SIZE_LIMIT = 64 * 1024 ** 3;

/** `--max-file-size`: bytes, or a number with a unit (`100MiB`, `50mb`, `1GiB`; k/m/g are binary). */
function parseFileSize(value: string | number, source: string): number {
  const match = SIZE_FORMAT.exec(String(value).trim());
  const bytes = match === null ? Number.NaN : Number(match[1]) * SIZE_UNITS[(match[2] ?? 'b').toLowerCase()];
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAX_FILE_SIZE_LIMIT) {
    throw new ConfigError(`${source} must be a size from 1 byte to 64 GiB, like '100MiB' or '1048576'; got '${value}'`);
  }
  return bytes;
}

/** A thread count from its flag, else its environment variable, else undefined (the default). */
function threadsSetting(flag: string | number | undefined, flagName: string, env: string | undefined, envName: string): number | undefined {
  return flagOrEnv(flag, flagName, env, envName, parseThreads);
}

/**
 * A setting from its flag, else its (non-empty) environment variable, parsed by `parse` with the
 * source's name for errors; undefined when neither is given (the caller's default applies).
 */
function flagOrEnv<T>(
  flag: string | number | undefined,
  flagName: string,
  env: string | undefined,
  envName: string,
  parse: (value: string | number, source: string) => T,
): T | undefined {
  if (flag !== undefined) return parse(flag, flagName);
  const fromEnv = nonEmpty(env);
  return fromEnv === undefined ? undefined : parse(fromEnv, envName);
}

function parseUrl(protocols: readonly string[]) {
  return (value: string | number, source: string): string => {
    const text = String(value).trim();
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      // The value is not echoed: a URL may carry a password.
      throw new ConfigError(`${source} must be a URL like ${protocols[0]}//host…; the value given does not parse as a URL`);
    }
    if (!protocols.includes(url.protocol)) throw new ConfigError(`${source} must be a ${protocols.join(' or ')} URL, got '${url.protocol}'`);
    return text;
  };
}

function parseClusterRole(value: string | number, source: string): 'writer' | 'replica' {
  const role = String(value).trim();
  if (role !== 'writer' && role !== 'replica') throw new ConfigError(`${source} must be 'writer' or 'replica', got '${role}'`);
  return role;
}

function parseGraceSeconds(value: string | number, source: string): number {
  return parseWholeNumber(value, source, 1, 86_400, 'of seconds ');
}

function parseLeaseSeconds(value: string | number, source: string): number {
  const seconds = Number(String(value).trim());
  if (String(value).trim() === '' || !(seconds >= 1 && seconds <= 300)) throw new ConfigError(`${source} must be seconds from 1 to 300, got '${value}'`);
  return seconds;
}

/** `--cluster` and `--object-store` go together; the other cluster flags need them. */
function clusterConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv): ClusterConfig | null {
  const postgresUrl = flagOrEnv(flags.cluster, '--cluster', env.FOLIO_CLUSTER, 'FOLIO_CLUSTER', parseUrl(['postgres:', 'postgresql:']));
  const objectStoreUrl = flagOrEnv(flags.objectStore, '--object-store', env.FOLIO_OBJECT_STORE, 'FOLIO_OBJECT_STORE', parseUrl(['s3:']));
  const s3Endpoint = flagOrEnv(flags.s3Endpoint, '--s3-endpoint', env.FOLIO_S3_ENDPOINT, 'FOLIO_S3_ENDPOINT', parseUrl(['http:', 'https:']));
  const redisUrl = flagOrEnv(flags.redis, '--redis', env.FOLIO_REDIS, 'FOLIO_REDIS', parseUrl(['redis:', 'rediss:']));
  const role = flagOrEnv(flags.clusterRole, '--cluster-role', env.FOLIO_CLUSTER_ROLE, 'FOLIO_CLUSTER_ROLE', parseClusterRole);
  const leaseSeconds = flagOrEnv(flags.clusterLease, '--cluster-lease', env.FOLIO_CLUSTER_LEASE, 'FOLIO_CLUSTER_LEASE', parseLeaseSeconds);
  const graceSeconds = flagOrEnv(flags.clusterGrace, '--cluster-grace', env.FOLIO_CLUSTER_GRACE, 'FOLIO_CLUSTER_GRACE', parseGraceSeconds);
  if (postgresUrl === undefined) {
    const stray = [objectStoreUrl && '--object-store', s3Endpoint && '--s3-endpoint', redisUrl && '--redis', role && '--cluster-role', leaseSeconds && '--cluster-lease', graceSeconds && '--cluster-grace'].find(Boolean);
    if (stray) throw new ConfigError(`${stray} is for cluster mode: give --cluster postgres://… too`);
    return null;
  }
  if (objectStoreUrl === undefined) throw new ConfigError('--cluster needs --object-store s3://bucket/prefix (where segment files are kept)');
  if (nonEmpty(env.FOLIO_MASTER_KEY) === undefined) throw new ConfigError('cluster mode needs FOLIO_MASTER_KEY, the same on every node');
  return {
    postgresUrl,
    objectStoreUrl,
    s3Endpoint: s3Endpoint ?? null,
    redisUrl: redisUrl ?? null,
    role: role ?? 'writer',
    leaseSeconds: leaseSeconds ?? DEFAULT_CLUSTER_LEASE_SECONDS,
    graceSeconds: graceSeconds ?? DEFAULT_CLUSTER_GRACE_SECONDS,
  };
}

export function resolveConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env): FolioConfig {
  const port =
    flags.port !== undefined
      ? parsePort(flags.port, '--port')
      : nonEmpty(env.FOLIO_PORT) !== undefined
        ? parsePort(nonEmpty(env.FOLIO_PORT)!, 'FOLIO_PORT')
        : DEFAULT_PORT;
  const logLevelFlag = nonEmpty(flags.logLevel);
  const logLevelEnv = nonEmpty(env.FOLIO_LOG_LEVEL);
  const privateWebhooksEnv = env.FOLIO_ALLOW_PRIVATE_WEBHOOKS;
  const dataDir = resolve(nonEmpty(flags.data) ?? nonEmpty(env.FOLIO_DATA_DIR) ?? DEFAULT_DATA_DIR);
  return {
    port,
    host: nonEmpty(flags.host) ?? nonEmpty(env.FOLIO_HOST) ?? DEFAULT_HOST,
    dataDir,
    masterKey: nonEmpty(env.FOLIO_MASTER_KEY),
    logLevel:
      logLevelFlag !== undefined
        ? parseLogLevel(logLevelFlag, '--log-level')
        : logLevelEnv !== undefined
          ? parseLogLevel(logLevelEnv, 'FOLIO_LOG_LEVEL')
          : DEFAULT_LOG_LEVEL,
    logFormat: flagOrEnv(flags.logFormat, '--log-format', env.FOLIO_LOG_FORMAT, 'FOLIO_LOG_FORMAT', parseLogFormat),
    allowPrivateWebhooks:
      flags.allowPrivateWebhooks === true ||
      (privateWebhooksEnv !== undefined && parseBoolean(privateWebhooksEnv, 'FOLIO_ALLOW_PRIVATE_WEBHOOKS')),
    searchThreads: threadsSetting(flags.searchThreads, '--search-threads', env.FOLIO_SEARCH_THREADS, 'FOLIO_SEARCH_THREADS'),
    indexThreads: threadsSetting(flags.indexThreads, '--index-threads', env.FOLIO_INDEX_THREADS, 'FOLIO_INDEX_THREADS'),
    searchCacheMb: flagOrEnv(flags.searchCacheMb, '--search-cache-mb', env.FOLIO_SEARCH_CACHE_MB, 'FOLIO_SEARCH_CACHE_MB', parseCacheMb),
    previewCacheMb: flagOrEnv(flags.previewCacheMb, '--preview-cache-mb', env.FOLIO_PREVIEW_CACHE_MB, 'FOLIO_PREVIEW_CACHE_MB', parsePreviewCacheMb),
    openCollections: flagOrEnv(flags.openCollections, '--open-collections', env.FOLIO_OPEN_COLLECTIONS, 'FOLIO_OPEN_COLLECTIONS', parseOpenCollections),
    maxFileBytes: flagOrEnv(flags.maxFileSize, '--max-file-size', env.FOLIO_MAX_FILE_SIZE, 'FOLIO_MAX_FILE_SIZE', parseFileSize),
    rateLimit: flagOrEnv(flags.rateLimit, '--rate-limit', env.FOLIO_RATE_LIMIT, 'FOLIO_RATE_LIMIT', parseRateLimit),
    keepFiles: flags.keepFiles === true || (env.FOLIO_KEEP_FILES !== undefined && parseBoolean(env.FOLIO_KEEP_FILES, 'FOLIO_KEEP_FILES')),
    extractionTimeoutSeconds: flagOrEnv(
      flags.extractionTimeout,
      '--extraction-timeout',
      env.FOLIO_EXTRACTION_TIMEOUT,
      'FOLIO_EXTRACTION_TIMEOUT',
      parseTimeoutSeconds,
    ),
    extractionThreads: threadsSetting(flags.extractionThreads, '--extraction-threads', env.FOLIO_EXTRACTION_THREADS, 'FOLIO_EXTRACTION_THREADS'),
    searchTimeoutSeconds: flagOrEnv(flags.searchTimeout, '--search-timeout', env.FOLIO_SEARCH_TIMEOUT, 'FOLIO_SEARCH_TIMEOUT', parseSearchTimeout),
    keySearchConcurrency: threadsSetting(flags.keySearchConcurrency, '--key-search-concurrency', env.FOLIO_KEY_SEARCH_CONCURRENCY, 'FOLIO_KEY_SEARCH_CONCURRENCY'),
    modelsDir: resolve(nonEmpty(flags.modelsDir) ?? nonEmpty(env.FOLIO_MODELS_DIR) ?? join(dataDir, MODELS_DIR_NAME)),
    addonsDir: resolve(nonEmpty(flags.addonsDir) ?? nonEmpty(env.FOLIO_ADDONS_DIR) ?? DEFAULT_ADDONS_DIR),
    cluster: clusterConfig(flags, env),
  };
}
