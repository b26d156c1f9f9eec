// The HTTP layer of the TypeScript client: builds URLs (path segments percent-encoded by
// `apiPath`), adds the bearer token, sends with fetch, retries a 429 after its `Retry-After`
// within the configured bounds, and turns every failure into a FolioError.

import { FolioError, errorFromResponse, networkError } from './errors.ts';

/** A request body: `make` is called once per attempt; only a replayable body is retried. */
export interface BodySource {
  contentType: string;
  replayable: boolean;
  make(): string | Blob | AsyncIterable<Uint8Array>;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and encoded segments, e.g. from `apiPath`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: BodySource;
}

export interface FolioClientOptions {
  /** Base URL of the server, e.g. `http://127.0.0.1:7700`. */
  url: string;
  /** API key, session token or master key, sent as `Authorization: Bearer …`. */
  apiKey?: string;
  /** How many times a 429 is retried after its `Retry-After` (default 3). */
  maxRetries?: number;
  /**
   * The longest total wait for retries of one call, in ms (default 30 000): 429s, and 503s with
   * `Retry-After` (a server indexing a backlog), which are retried until this budget is spent.
   */
  maxRetryWaitMs?: number;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_MAX_RETRY_WAIT_MS = 30_000;
/** Wait before retrying a 429 that has no (readable) `Retry-After`. */
const DEFAULT_RETRY_AFTER_MS = 1_000;

/** `apiPath\`/v1/collections/${name}\`` percent-encodes every interpolated segment. */
export function apiPath(strings: TemplateStringsArray, ...segments: string[]): string {
  return strings.reduce((path, literal, i) => path + literal + (i < segments.length ? encodeURIComponent(segments[i]) : ''), '');
}

/** A JSON request body. */
export function jsonBody(value: unknown): BodySource {
  const text = JSON.stringify(value);
  return { contentType: 'application/json', replayable: true, make: () => text };
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null || header.trim() === '') return DEFAULT_RETRY_AFTER_MS;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, date - now);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

export class Transport {
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: FolioClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.maxRetryWaitMs = Math.max(0, options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS);
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  /** The response of a successful (2xx) request; anything else throws a FolioError. */
  async send(spec: RequestSpec): Promise<Response> {
    let waitedMs = 0;
    for (let attempt = 0; ; attempt++) {
      const response = await this.attempt(spec);
      if (response.ok) return response;
      // 429: rate limited, a few times; 503 with Retry-After: the server is indexing a backlog
      // (`overloaded`, nothing was written), retried for as long as the wait budget allows.
      const overloaded = response.status === 503 && response.headers.has('retry-after');
      const retryable = (overloaded || (response.status === 429 && attempt < this.maxRetries)) && (spec.body?.replayable ?? true);
      const waitMs = retryAfterMs(response.headers.get('retry-after'));
      if (!retryable || waitedMs + waitMs > this.maxRetryWaitMs) throw await errorFromResponse(response);
      await response.body?.cancel();
      waitedMs += waitMs;
      await sleep(waitMs);
    }
  }

  /** The parsed JSON answer of a successful request. */
  async json<T>(spec: RequestSpec): Promise<T> {
    const response = await this.send(spec);
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      throw networkError(cause);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new FolioError(response.status, 'invalid_response', `expected JSON from ${spec.method} ${spec.path}`);
    }
  }

  /** A successful request whose answer has no body (204). */
  async empty(spec: RequestSpec): Promise<void> {
    const response = await this.send(spec);
    await response.body?.cancel();
  }

  private async attempt(spec: RequestSpec): Promise<Response> {
    const url = new URL(this.baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json, */*' };
    if (this.apiKey !== undefined) headers.authorization = `Bearer ${this.apiKey}`;
    const body = spec.body?.make();
    if (spec.body !== undefined) headers['content-type'] = spec.body.contentType;
    // A streamed (async iterable) body needs half-duplex mode in Node's fetch.
    const init: RequestInit = { method: spec.method, headers, body, ...(isAsyncIterable(body) && { duplex: 'half' as const }) };
    try {
      return await this.fetchImpl(url, init);
    } catch (cause) {
      throw networkError(cause);
    }
  }
}
