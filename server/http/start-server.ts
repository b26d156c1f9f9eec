// Starts a Folio server from a resolved configuration: prepares the data directory (private to
// the server's user: files 0600, folders 0700) and the master key (printing a newly generated key once), builds the app, listens, and shuts down
// gracefully on SIGINT/SIGTERM (the registry flushes and closes before the process exits).
// The CLI's `folio serve` runs it (through server/index.ts).

import { chmod, mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { batchedLines } from './log-destination.ts';
import type { LogDestination } from './log-destination.ts';
import { prettyLogStream } from './log-lines.ts';
import { removeServerPid, writeServerPid } from '../data-dir/index.ts';
import type { FolioConfig } from '../config/index.ts';
import { resolveMasterKey } from '../auth/index.ts';

export interface RunningServer {
  app: FastifyInstance;
  /** Where the server answers, e.g. `http://127.0.0.1:7700` (the real port when 0 was asked). */
  url: string;
  /** Stops accepting requests, finishes those in flight and closes the collections. */
  close(): Promise<void>;
  /** Where the master key is stored, or null when it came from FOLIO_MASTER_KEY. */
  masterKeyFile: string | null;
}

export interface StartOptions {
  /** Install SIGINT/SIGTERM handlers that close the server and exit (default true). */
  handleSignals?: boolean;
  /** Where the one-time master key notice goes (default standard output). */
  print?: (text: string) => void;
}

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** A URL clients can use: a wildcard bind address is reached through loopback. */
function publicUrl(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return `http://127.0.0.1:${address.port}`;
  if (address.address === '::') return `http://[::1]:${address.port}`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

function masterKeyNotice(key: string, file: string): string {
  return [
    '',
    'A master key was generated for this server. It is shown only this once:',
    '',
    `    ${key}`,
    '',
    `It is stored in ${file} (mode 0600). Use it as 'Authorization: Bearer <key>',`,
    'or set FOLIO_MASTER_KEY to choose your own.',
    '',
  ].join('\n');
}

/**
 * The data directory is the server's alone: everything it creates there is readable by its own
 * user only (files 0600, folders 0700), so other local users cannot read documents or keys.
 * The mask applies to this process, which is the server.
 */
const PRIVATE_UMASK = 0o077;
/** Cluster mode: how often a node looks for changes a lost notification did not tell it. */
const CLUSTER_POLL_MS = 1_000;

/** The server's log lines, for people on a terminal or as JSON lines, to `out`. */
function logStream(config: FolioConfig, out: LogDestination): { write(line: string): void } {
  return (config.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty' ? prettyLogStream(out) : out;
}

export async function startServer(config: FolioConfig, options: StartOptions = {}): Promise<RunningServer> {
  const print = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  process.umask(PRIVATE_UMASK);
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // A data directory made before (by hand, or by an older version) is closed to others too.
  await chmod(config.dataDir, 0o700).catch(() => undefined);
  const masterKey = await resolveMasterKey(config.dataDir, config.masterKey);
  if (masterKey.source === 'generated' && masterKey.file !== undefined) print(masterKeyNotice(masterKey.key, masterKey.file));

  // Stdout in batches (log-destination.ts), written out when the server closes.
  const log = batchedLines(process.stdout);
  const app = await buildApp({
    dataDir: config.dataDir,
    masterKey: masterKey.key,
    logger: { level: config.logLevel, stream: logStream(config, log) },
    searchThreads: config.searchThreads,
    indexThreads: config.indexThreads,
    searchCacheBytes: config.searchCacheMb === undefined ? undefined : config.searchCacheMb * 1024 * 1024,
    ...(config.previewCacheMb !== undefined && { previewCacheBytes: config.previewCacheMb * 1024 * 1024 }),
    ...(config.openCollections !== undefined && { maxOpenCollections: config.openCollections }),
    modelsDir: config.modelsDir,
    addonsDir: config.addonsDir,
    rateLimit: config.rateLimit,
    maxFileBytes: config.maxFileBytes,
    keepFiles: config.keepFiles,
    allowPrivateWebhooks: config.allowPrivateWebhooks,
    extractionThreads: config.extractionThreads,
    ...(config.searchTimeoutSeconds !== undefined && { searchTimeoutMs: config.searchTimeoutSeconds * 1000 }),
    ...(config.keySearchConcurrency !== undefined && { keySearchConcurrency: config.keySearchConcurrency }),
    extractionTimeLimitMs: config.extractionTimeoutSeconds === undefined ? undefined : config.extractionTimeoutSeconds * 1000,
    ...(config.cluster !== null && {
      cluster: {
        postgresUrl: config.cluster.postgresUrl,
        objectStoreUrl: config.cluster.objectStoreUrl,
        s3Endpoint: config.cluster.s3Endpoint,
        role: config.cluster.role,
        leaseMs: config.cluster.leaseSeconds * 1000,
        graceMs: config.cluster.graceSeconds * 1000,
        pollMs: CLUSTER_POLL_MS,
        redisUrl: config.cluster.redisUrl,
      },
    }),
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    log.close();
    throw error;
  }
  const url = publicUrl(app.server.address() as AddressInfo);
  writeServerPid(config.dataDir);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      try {
        await app.close();
        removeServerPid(config.dataDir);
      } finally {
        log.close();
        for (const signal of SHUTDOWN_SIGNALS) process.off(signal, onSignal);
      }
    })();
    return closing;
  };
  function onSignal(signal: NodeJS.Signals): void {
    if (closing !== undefined) {
      app.log.warn({ signal }, 'second signal: exiting without finishing the shutdown');
      process.exit(1);
    }
    app.log.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  }
  if (options.handleSignals ?? true) for (const signal of SHUTDOWN_SIGNALS) process.on(signal, onSignal);
  return { app, url, close, masterKeyFile: masterKey.source === 'environment' ? null : (masterKey.file ?? null) };
}
