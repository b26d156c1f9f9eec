// Server configuration, resolved from command-line flags, then FOLIO_* environment variables,
// then defaults that work on a laptop (DESIGN "Config").
//
// The default host is 127.0.0.1, as Meilisearch binds localhost by default: a fresh server
// with a generated key should not be reachable from the network until someone decides so
// (`--host 0.0.0.0` or FOLIO_HOST=0.0.0.0, e.g. in a container).
// The master key has no flag on purpose: command lines are visible to every local user (ps).

import { resolve } from 'node:path';

export const DEFAULT_PORT = 7700;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DATA_DIR = './folio-data';
export const DEFAULT_LOG_LEVEL = 'info';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
  /** Let webhooks reach loopback and private addresses (SPEC §8; used once webhooks exist). */
  allowPrivateWebhooks: boolean;
  /** Search worker threads; undefined means one per core. */
  searchThreads: number | undefined;
  /** Refresh and merge worker threads; undefined means the default (2). */
  indexThreads: number | undefined;
  /** MiB of recent search answers kept for repeated searches; 0 disables; undefined: default (32). */
  searchCacheMb: number | undefined;
}

/** The flags of `folio serve`, as commander hands them over (all optional). */
export interface ConfigFlags {
  port?: string | number;
  host?: string;
  data?: string;
  logLevel?: string;
  allowPrivateWebhooks?: boolean;
  searchThreads?: string | number;
  indexThreads?: string | number;
  searchCacheMb?: string | number;
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

function parseBoolean(value: string, source: string): boolean {
  const normalized = value.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(normalized)) return false;
  throw new ConfigError(`${source} must be true or false, got '${value}'`);
}

function parseThreads(value: string | number, source: string): number {
  const threads = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_POOL_THREADS) {
    throw new ConfigError(`${source} must be a whole number from 1 to ${MAX_POOL_THREADS}, got '${value}'`);
  }
  return threads;
}

/** Most MiB the search cache may be given. */
export const MAX_SEARCH_CACHE_MB = 16_384;

function parseCacheMb(value: string | number, source: string): number {
  const mb = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(mb) || mb < 0 || mb > MAX_SEARCH_CACHE_MB) {
    throw new ConfigError(`${source} must be a whole number of MiB from 0 to ${MAX_SEARCH_CACHE_MB}, got '${value}'`);
  }
  return mb;
}

/** A thread count from its flag, else its environment variable, else undefined (the default). */
function threadsSetting(flag: string | number | undefined, flagName: string, env: string | undefined, envName: string): number | undefined {
  if (flag !== undefined) return parseThreads(flag, flagName);
  const fromEnv = nonEmpty(env);
  return fromEnv === undefined ? undefined : parseThreads(fromEnv, envName);
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
  return {
    port,
    host: nonEmpty(flags.host) ?? nonEmpty(env.FOLIO_HOST) ?? DEFAULT_HOST,
    dataDir: resolve(nonEmpty(flags.data) ?? nonEmpty(env.FOLIO_DATA_DIR) ?? DEFAULT_DATA_DIR),
    masterKey: nonEmpty(env.FOLIO_MASTER_KEY),
    logLevel:
      logLevelFlag !== undefined
        ? parseLogLevel(logLevelFlag, '--log-level')
        : logLevelEnv !== undefined
          ? parseLogLevel(logLevelEnv, 'FOLIO_LOG_LEVEL')
          : DEFAULT_LOG_LEVEL,
    allowPrivateWebhooks:
      flags.allowPrivateWebhooks === true ||
      (privateWebhooksEnv !== undefined && parseBoolean(privateWebhooksEnv, 'FOLIO_ALLOW_PRIVATE_WEBHOOKS')),
    searchThreads: threadsSetting(flags.searchThreads, '--search-threads', env.FOLIO_SEARCH_THREADS, 'FOLIO_SEARCH_THREADS'),
    indexThreads: threadsSetting(flags.indexThreads, '--index-threads', env.FOLIO_INDEX_THREADS, 'FOLIO_INDEX_THREADS'),
    searchCacheMb:
      flags.searchCacheMb !== undefined
        ? parseCacheMb(flags.searchCacheMb, '--search-cache-mb')
        : nonEmpty(env.FOLIO_SEARCH_CACHE_MB) !== undefined
          ? parseCacheMb(nonEmpty(env.FOLIO_SEARCH_CACHE_MB)!, 'FOLIO_SEARCH_CACHE_MB')
          : undefined,
  };
}
