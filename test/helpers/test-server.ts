// Starts a real Folio server for HTTP tests: buildApp over a fresh temporary data directory
// with a known master key, listening on a free loopback port. Requests go through global
// fetch, so tests see exactly what a client sees (status, headers, bytes).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/http/app.ts';
import type { BuildAppOptions, LoggerOptions } from '../../server/http/app.ts';

/** The master key every test server accepts. */
export const TEST_MASTER_KEY = 'folio_TestMasterKey0123456789abcdefghijklmnopq';

export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON for JSON and problem+json answers, else the text (or null when empty). */
  body: any;
  text: string;
}

/**
 * Headers to add; a null value removes a default header (e.g. `{ authorization: null }`
 * sends no credential).
 */
export type TestHeaders = Record<string, string | null>;

export interface TestServer {
  url: string;
  /** The running app (tests that reach into the worker pools use `app.workers`). */
  app: FastifyInstance;
  dataDir: string;
  /** Object and array bodies are sent as JSON; strings and bytes as they are. */
  request(method: string, path: string, body?: unknown, headers?: TestHeaders): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  refreshIntervalMs?: number;
  /** When writes wait for a refresh and are refused with 503 `overloaded`. */
  backpressure?: BuildAppOptions['backpressure'];
  logger?: LoggerOptions;
  searchThreads?: number;
  /** Longest a search may take before answering what it found (0: no limit). */
  searchTimeoutMs?: number;
  /** Searches one API key may run at once. */
  keySearchConcurrency?: number;
  /** Default rate limit per API key (null: off); the server's default otherwise. */
  rateLimit?: { perSecond: number; burst: number } | null;
  /** The server's clock, in ms since the epoch (a fake one for expiry and rate-limit tests). */
  now?: () => number;
  /** Where `local` embedders' models are (default `<dataDir>/models`). */
  modelsDir?: string;
  /** Where add-ons are installed (default the checkout's addons/). */
  addonsDir?: string;
  /** Bytes of page pictures kept on disk. */
  previewCacheBytes?: number;
  /** Reuse this data directory (it is then not removed by close). */
  dataDir?: string;
  /** Largest file upload in bytes. */
  maxFileBytes?: number;
  /** Keep uploaded originals (`--keep-files`). */
  keepFiles?: boolean;
  /** Webhook settings: private addresses, retry waits, time limit, host resolution. */
  webhooks?: Pick<BuildAppOptions, 'allowPrivateWebhooks' | 'webhookRetryDelaysMs' | 'webhookTimeoutMs' | 'webhookLookup'>;
}

function encodeBody(body: unknown, headers: Record<string, string>): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  headers['content-type'] ??= 'application/json';
  return JSON.stringify(body);
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'folio-http-')));
  const app = await buildApp({
    dataDir,
    masterKey: TEST_MASTER_KEY,
    logger: options.logger ?? false,
    refreshIntervalMs: options.refreshIntervalMs,
    searchThreads: options.searchThreads,
    ...(options.backpressure !== undefined && { backpressure: options.backpressure }),
    ...(options.searchTimeoutMs !== undefined && { searchTimeoutMs: options.searchTimeoutMs }),
    ...(options.keySearchConcurrency !== undefined && { keySearchConcurrency: options.keySearchConcurrency }),
    ...(options.rateLimit !== undefined && { rateLimit: options.rateLimit }),
    ...(options.now !== undefined && { now: options.now }),
    ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
    ...(options.keepFiles !== undefined && { keepFiles: options.keepFiles }),
    ...(options.modelsDir !== undefined && { modelsDir: options.modelsDir }),
    ...(options.addonsDir !== undefined && { addonsDir: options.addonsDir }),
    ...(options.previewCacheBytes !== undefined && { previewCacheBytes: options.previewCacheBytes }),
    ...options.webhooks,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  async function request(method: string, path: string, body?: unknown, extra: TestHeaders = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { authorization: `Bearer ${TEST_MASTER_KEY}` };
    for (const [name, value] of Object.entries(extra)) {
      if (value === null) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    const payload = encodeBody(body, headers);
    const response = await fetch(url + path, { method, headers, body: payload });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const isJson = /^application\/(problem\+)?json/.test(type) && text !== '';
    return { status: response.status, headers: response.headers, body: isJson ? JSON.parse(text) : text || null, text };
  }

  async function close(): Promise<void> {
    await app.close();
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  }

  return { url, app, dataDir, request, close };
}
