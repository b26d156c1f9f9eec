// A seeded HTTP fuzzer (issue 18, point 6): every route the server's OpenAPI description lists,
// called with mutated path parameters, query strings, headers and bodies — malformed and
// truncated JSON, deep and huge values, invalid UTF-8, wrong content types, broken multipart —
// plus raw malformed requests on a socket. Every answer must be below 500 (a 503 `overloaded`
// is backpressure, allowed) and every error an RFC 9457 problem whose `status` is the answer's.
// The same seed gives the same requests. Used by `npm run fuzz` and by a short run in the tests.

import net from 'node:net';
import { seededRandom } from '../helpers/seeded-random.ts';

export interface FuzzOptions {
  url: string;
  masterKey: string;
  /** A collection and a document id that exist, so some requests reach deep code. */
  collection: string;
  documentId: string;
  seed: number;
  /** Stop after this many requests… */
  count: number;
  /** …or after this long, whichever comes first. */
  seconds: number;
  /** Requests in flight at once. */
  concurrency?: number;
}

export interface FuzzFailure {
  request: string;
  status: number;
  problem: string;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<string, number>;
  failures: FuzzFailure[];
  elapsedMs: number;
}

interface Route {
  method: string;
  path: string;
}

type Random = () => number;

/** A URL or body this large may be refused before it is all sent (the connection closed). */
const LARGE_URL = 16 * 1024;
const LARGE_BODY = 1024 * 1024;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** Strings that have broken parsers before: empty, long, unicode, control and encoded bytes. */
function hostileString(random: Random): string {
  return pick(random, [
    '',
    ' ',
    'a'.repeat(1 + Math.floor(random() * 300)),
    'x'.repeat(70_000),
    '\u0000',
    '..',
    '../../etc/passwd',
    '%00',
    '%ZZ',
    '%C0%AF',
    '%FF%FE',
    '\uD800',
    'é東京🙂',
    '<script>alert(1)</script>',
    '"\\',
    '-1',
    '1e309',
    'NaN',
    '9'.repeat(40),
    'null',
    'true',
    '[]',
    '{}',
  ]);
}

/** encodeURIComponent, except that a lone surrogate becomes the (invalid) UTF-8 bytes of one. */
function percentEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.split('').map((char) => (/[\uD800-\uDFFF]/.test(char) ? '%ED%A0%80' : encodeURIComponent(char))).join('');
  }
}

function deepJson(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

function hostileValue(random: Random, depth = 0): unknown {
  const kind = Math.floor(random() * (depth > 3 ? 6 : 9));
  switch (kind) {
    case 0:
      return hostileString(random);
    case 1:
      return pick(random, [0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 123456789]);
    case 2:
      return pick(random, [true, false, null]);
    case 3:
      return 'y'.repeat(Math.floor(random() * 2_000_000));
    case 4:
      return [];
    case 5:
      return {};
    case 6:
      return Array.from({ length: 1 + Math.floor(random() * 5) }, () => hostileValue(random, depth + 1));
    case 7: {
      const object: Record<string, unknown> = {};
      for (const key of ['id', 'text', 'title', 'metadata', 'name', 'q', 'filter', 'scopes', 'url', 'events', 'limit', 'typo_tolerance', 'embedders', 'vector', '__proto__', 'constructor']) {
        if (random() < 0.35) object[key] = hostileValue(random, depth + 1);
      }
      return object;
    }
    default:
      return { $or: Array.from({ length: 3 }, () => hostileValue(random, depth + 1)) };
  }
}

const QUERY_KEYS = ['q', 'filter', 'facets', 'sort', 'limit', 'offset', 'match', 'fields', 'typos', 'prefix', 'mode', 'track_total', 'explain', 'highlight_tag', 'cursor', 'refresh', 'facet_limit', 'semantic_ratio', 'similar_to', 'unknown'];

function queryString(random: Random): string {
  const parts: string[] = [];
  const n = Math.floor(random() * 5);
  for (let i = 0; i < n; i++) {
    const key = pick(random, QUERY_KEYS);
    let value: string;
    const kind = random();
    if (kind < 0.3) value = percentEncode(hostileString(random));
    else if (kind < 0.45) value = hostileString(random); // not encoded: raw bytes and stray %
    else if (kind < 0.55) value = percentEncode(deepJson(1 + Math.floor(random() * 3000)));
    else if (kind < 0.7) value = percentEncode(JSON.stringify(hostileValue(random)));
    else value = pick(random, ['1', '0', '-5', '10000000', 'true', 'all', 'any', 'last', 'semantic', 'hybrid', '2', 'wait_for', 'score:desc', 'year']);
    parts.push(`${key}=${value}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function fillPath(random: Random, template: string, options: FuzzOptions): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (random() < 0.6) {
      if (name === 'name') return options.collection;
      if (name === 'id') return options.documentId;
      return 'key_0000000000000000';
    }
    const value = hostileString(random);
    return random() < 0.5 ? percentEncode(value) : value.replace(/[/?#]/g, '_');
  });
}

interface Body {
  contentType: string | null;
  bytes: Uint8Array | null;
}

function body(random: Random): Body {
  const kind = Math.floor(random() * 10);
  const json = (value: unknown): Body => ({ contentType: 'application/json', bytes: Buffer.from(JSON.stringify(value) ?? 'null') });
  switch (kind) {
    case 0:
      return { contentType: null, bytes: null };
    case 1:
      return json(hostileValue(random));
    case 2:
      return json(Array.from({ length: 1 + Math.floor(random() * 20) }, () => hostileValue(random)));
    case 3: {
      const text = JSON.stringify(hostileValue(random)) ?? '{}';
      return { contentType: 'application/json', bytes: Buffer.from(text.slice(0, Math.floor(random() * text.length))) };
    }
    case 4:
      return { contentType: 'application/json', bytes: Buffer.from(deepJson(1 + Math.floor(random() * 100_000))) };
    case 5:
      return { contentType: 'application/json', bytes: Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d]) };
    case 6:
      return { contentType: 'application/x-ndjson', bytes: Buffer.from(Array.from({ length: 5 }, () => JSON.stringify(hostileValue(random)) ?? '').join(random() < 0.5 ? '\n' : '\r\n')) };
    case 7: {
      const boundary = pick(random, ['XB', '', 'a'.repeat(100), '"q"']);
      const declared = random() < 0.5 ? boundary : 'OTHER';
      const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${hostileString(random).slice(0, 200)}"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 garbage`;
      return { contentType: `multipart/form-data; boundary=${declared}`, bytes: Buffer.from(random() < 0.5 ? part : `${part}\r\n--${boundary}--\r\n`) };
    }
    case 8:
      return { contentType: pick(random, ['text/plain', 'application/xml', 'application/json; charset=latin1', 'multipart/form-data', '*/*', 'application/x-www-form-urlencoded']), bytes: Buffer.from('a=1&b=2') };
    default:
      return { contentType: 'application/json', bytes: Buffer.from('x'.repeat(1 + Math.floor(random() * 200))) };
  }
}

/** Raw requests no HTTP client would send: each should get a 4xx (or a closed connection). */
const RAW_REQUESTS = [
  'GET /v1/health HTTP/1.1\r\n\r\n',
  'GARBAGE\r\n\r\n',
  'GET /v1/health HTTP/9.9\r\nHost: x\r\n\r\n',
  `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'h'.repeat(20_000)}\r\n\r\n`,
  'POST /v1/collections HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
  'POST /v1/collections HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{}{}{}',
  'GET /v1/coll\u0000ections HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /v1/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
];

function rawRequest(url: URL, text: string): Promise<{ status: number; body: string; contentType: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let received = '';
    const done = (): void => {
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      const [head, ...rest] = received.split('\r\n\r\n');
      resolve({ status, body: rest.join('\r\n\r\n'), contentType: /content-type: ([^\r\n]+)/i.exec(head ?? '')?.[1] ?? '' });
    };
    socket.setTimeout(5_000, done);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('end', done);
    socket.on('error', done);
    socket.on('connect', () => socket.end(text, 'latin1'));
  });
}

/** A failure's description when `status` and `text` are not an acceptable answer, else null. */
function judge(status: number, contentType: string, text: string): string | null {
  if (status === 0) return null; // the connection was closed without an answer (raw garbage)
  if (status >= 500 && status !== 503) return `status ${status}`;
  if (status < 400) return null;
  if (!contentType.startsWith('application/problem+json')) return `an error as ${contentType || 'no content type'}`;
  let problem: { status?: unknown; code?: unknown };
  try {
    problem = JSON.parse(text);
  } catch {
    return 'an error body that is not JSON';
  }
  if (problem.status !== status) return `problem status ${String(problem.status)} on a ${status}`;
  if (typeof problem.code !== 'string') return 'a problem without a code';
  if (status === 503 && problem.code !== 'overloaded') return `503 ${String(problem.code)}`;
  return null;
}

export async function runHttpFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const random = seededRandom(options.seed);
  const base = new URL(options.url);
  const spec = (await (await fetch(`${options.url}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const routes: Route[] = Object.entries(spec.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })));
  const report: FuzzReport = { requests: 0, byStatus: {}, failures: [], elapsedMs: 0 };
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  // Requests are drawn one at a time from the one seeded sequence (each worker draws its next
  // synchronously), so the requests sent are the same on every run, and only those in flight
  // are held in memory.
  type Plan = { raw: string } | { method: string; path: string; auth: string; body: Body | null };
  const nextPlan = (): Plan => {
    if (random() < 0.05) return { raw: pick(random, RAW_REQUESTS) };
    const route = pick(random, routes);
    const method = random() < 0.9 ? route.method : pick(random, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']);
    const auth = random() < 0.9 ? `Bearer ${options.masterKey}` : pick(random, ['', 'Bearer', `Bearer ${hostileString(random).slice(0, 500)}`, 'Basic Zm9vOmJhcg==']);
    return { method, path: fillPath(random, route.path, options) + queryString(random), auth, body: method === 'GET' || method === 'HEAD' ? null : body(random) };
  };
  let drawn = 0;
  const worker = async (): Promise<void> => {
    while (drawn < options.count && Date.now() < deadline) {
      drawn++;
      const plan = nextPlan();
      let status: number;
      let contentType: string;
      let text: string;
      let described: string;
      if ('raw' in plan) {
        ({ status, contentType, body: text } = await rawRequest(base, plan.raw));
        described = `raw ${JSON.stringify(plan.raw.slice(0, 120))}`;
      } else {
        const headers: Record<string, string> = {};
        if (plan.auth !== '') headers.authorization = plan.auth;
        if (plan.body?.contentType) headers['content-type'] = plan.body.contentType;
        described = `${plan.method} ${plan.path.slice(0, 200)} ${plan.body?.contentType ?? ''} ${plan.body?.bytes ? Buffer.from(plan.body.bytes).toString('utf8', 0, 160) : ''}`;
        try {
          const response = await fetch(options.url + plan.path, { method: plan.method, headers, body: plan.body?.bytes ?? undefined });
          status = response.status;
          contentType = response.headers.get('content-type') ?? '';
          text = await response.text();
        } catch (error) {
          // fetch itself refuses some URLs and methods: nothing reached the server.
          if (error instanceof TypeError && !/fetch failed/.test(error.message)) continue;
          const cause = String((error as Error).cause ?? error);
          // The server answers an oversized request (URL, headers or body) at once and closes
          // the connection: the client, still sending, sees the connection go.
          const large = plan.path.length > LARGE_URL || (plan.body?.bytes?.length ?? 0) > LARGE_BODY;
          status = large && /EPIPE|ECONNRESET|other side closed|SocketError/.test(cause) ? 0 : -1;
          contentType = '';
          text = cause;
        }
      }
      report.requests++;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      // A HEAD answer has no body to judge, only its status.
      const bodyless = !('raw' in plan) && plan.method === 'HEAD';
      const problem = status === -1 ? `no answer: ${text}` : bodyless ? (status >= 500 && status !== 503 ? `status ${status}` : null) : judge(status, contentType, text);
      if (problem !== null) report.failures.push({ request: described, status, problem: `${problem}: ${text.slice(0, 300)}` });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  report.elapsedMs = Date.now() - started;
  return report;
}
