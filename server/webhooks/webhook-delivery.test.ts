// Tests of webhook delivery against real loopback HTTP servers: success and failure statuses,
// 410 Gone, Retry-After, redirects not followed, timeouts, oversized responses cut off, network
// and TLS errors, SSRF refusals (the receiver sees nothing) and DNS pinning to the checked address.

import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import type { LookupAll } from './address-guard.ts';
import { FOLIO_VERSION } from '../config/version.ts';
import { deliverWebhook, parseRetryAfter, type DeliveryAttempt, type DeliveryOutcome } from './webhook-delivery.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  port: number;
  url: string;
  requests: Received[];
  server: Server;
}

const servers: Server[] = [];
after(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

/** A loopback server that records every request (after reading its body) and answers with `handle`. */
async function receiver(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Receiver> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      handle(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, url: `http://127.0.0.1:${port}/hook`, requests, server };
}

function answer(status: number, headers: Record<string, string> = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, headers);
    res.end(status === 204 ? undefined : 'thanks');
  };
}

function attempt(url: string, overrides: Partial<DeliveryAttempt> = {}): DeliveryAttempt {
  return { url, body: '{"id":"evt_1"}', headers: {}, timeoutMs: 5_000, allowPrivate: true, ...overrides };
}

function failure(outcome: DeliveryOutcome): Extract<DeliveryOutcome, { ok: false }> {
  assert.equal(outcome.ok, false, JSON.stringify(outcome));
  return outcome as Extract<DeliveryOutcome, { ok: false }>;
}

test('a 200 is a success; the request carries the body, the given headers and ours', async () => {
  const target = await receiver(answer(200));
  const body = JSON.stringify({ id: 'evt_1', type: 'document.indexed', data: { title: 'Ünïcødé ✓' } });
  const outcome = await deliverWebhook(
    attempt(`${target.url}?x=1`, {
      body,
      headers: { 'webhook-id': 'evt_1', 'Webhook-Timestamp': '1700000000', 'webhook-signature': 'v1,abc', 'content-length': '1' },
    }),
  );
  assert.equal(outcome.ok, true);
  assert.equal(outcome.status, 200);
  assert.ok(outcome.durationMs >= 0);
  assert.equal(target.requests.length, 1);
  const [request] = target.requests;
  assert.equal(request.method, 'POST');
  assert.equal(request.url, '/hook?x=1');
  assert.equal(request.body, body);
  assert.equal(request.headers['content-type'], 'application/json');
  assert.equal(request.headers['user-agent'], `Folio-Webhooks/${FOLIO_VERSION}`);
  assert.equal(request.headers['content-length'], String(Buffer.byteLength(body)));
  assert.equal(request.headers['webhook-id'], 'evt_1');
  assert.equal(request.headers['webhook-timestamp'], '1700000000');
  assert.equal(request.headers['webhook-signature'], 'v1,abc');
  assert.equal(request.headers.connection, 'close');
});

test('any 2xx is a success', async () => {
  for (const status of [201, 202, 204, 299]) {
    const target = await receiver(answer(status));
    assert.deepEqual({ ...(await deliverWebhook(attempt(target.url))), durationMs: 0 }, { ok: true, status, durationMs: 0 });
  }
});

test('a 500 is a failure with its status', async () => {
  const target = await receiver(answer(500));
  const outcome = failure(await deliverWebhook(attempt(target.url)));
  assert.equal(outcome.status, 500);
  assert.equal(outcome.error, 'the receiver answered 500 Internal Server Error');
  assert.equal(outcome.gone, false);
  assert.equal(outcome.refused, false);
  assert.equal(outcome.retryAfterMs, null);
});

test('a 410 says the receiver is gone', async () => {
  const target = await receiver(answer(410));
  const outcome = failure(await deliverWebhook(attempt(target.url)));
  assert.equal(outcome.status, 410);
  assert.equal(outcome.gone, true);
});

test('Retry-After in seconds and as an HTTP date', async () => {
  const seconds = await receiver(answer(429, { 'retry-after': '120' }));
  assert.equal(failure(await deliverWebhook(attempt(seconds.url))).retryAfterMs, 120_000);
  const inAMinute = new Date(Date.now() + 60_000).toUTCString();
  const dated = await receiver(answer(503, { 'retry-after': inAMinute }));
  const retryAfterMs = failure(await deliverWebhook(attempt(dated.url))).retryAfterMs;
  assert.ok(retryAfterMs !== null && retryAfterMs > 55_000 && retryAfterMs <= 60_000, String(retryAfterMs));
  const garbage = await receiver(answer(503, { 'retry-after': 'soon' }));
  assert.equal(failure(await deliverWebhook(attempt(garbage.url))).retryAfterMs, null);
});

test('parseRetryAfter bounds its result to 0 … 24 h', () => {
  const now = Date.parse('2024-01-01T00:00:00Z');
  assert.equal(parseRetryAfter(undefined, now), null);
  assert.equal(parseRetryAfter('0', now), 0);
  assert.equal(parseRetryAfter(' 5 ', now), 5_000);
  assert.equal(parseRetryAfter('999999999', now), 24 * 3600 * 1000);
  assert.equal(parseRetryAfter('Mon, 01 Jan 2024 00:00:30 GMT', now), 30_000);
  assert.equal(parseRetryAfter('Sun, 31 Dec 2023 00:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', now), 24 * 3600 * 1000);
  for (const bad of ['', '-5', '1.5', 'soon', '2024-13-45']) assert.equal(parseRetryAfter(bad, now), null, bad);
});

test('redirects are not followed', async () => {
  const elsewhere = await receiver(answer(200));
  const target = await receiver(answer(302, { location: elsewhere.url }));
  const outcome = failure(await deliverWebhook(attempt(target.url)));
  assert.equal(outcome.status, 302);
  assert.match(outcome.error, /302 Found \(redirects are not followed\)/);
  assert.equal(target.requests.length, 1);
  assert.equal(elsewhere.requests.length, 0);
});

test('a receiver that never answers times out', async () => {
  const target = await receiver(() => {});
  const outcome = failure(await deliverWebhook(attempt(target.url, { timeoutMs: 300 })));
  assert.equal(outcome.status, null);
  assert.equal(outcome.error, 'timed out after 0.3 s');
  assert.ok(outcome.durationMs >= 290 && outcome.durationMs < 3_000, String(outcome.durationMs));
  assert.equal(target.requests.length, 1);
});

test('a huge response body is cut off', async () => {
  let clientLeft = false;
  const chunk = Buffer.alloc(16 * 1024, 'x');
  const target = await receiver((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.on('close', () => (clientLeft = true));
    // An endless body: the delivery only ends in time if it stops reading.
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  const outcome = await deliverWebhook(attempt(target.url, { timeoutMs: 5_000 }));
  assert.equal(outcome.ok, true);
  assert.equal(outcome.status, 200);
  assert.ok(outcome.durationMs < 4_000, String(outcome.durationMs));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(clientLeft, true);
});

test('loopback addresses are refused unless private webhooks are allowed', async () => {
  const target = await receiver(answer(200));
  const literal = failure(await deliverWebhook(attempt(target.url, { allowPrivate: false })));
  assert.equal(literal.refused, true);
  assert.equal(literal.status, null);
  assert.match(literal.error, /127\.0\.0\.1 is a loopback address; start the server with --allow-private-webhooks/);
  const named = failure(await deliverWebhook(attempt(`http://localhost:${target.port}/hook`, { allowPrivate: false })));
  assert.equal(named.refused, true);
  assert.match(named.error, /^webhook host localhost resolves to .*loopback/);
  assert.equal(target.requests.length, 0);
  assert.equal((await deliverWebhook(attempt(target.url, { allowPrivate: true }))).ok, true);
  assert.equal(target.requests.length, 1);
});

test('a name resolving to a public and a private address is refused', async () => {
  const asked: string[] = [];
  const lookup: LookupAll = async (hostname) => {
    asked.push(hostname);
    return [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
  };
  const outcome = failure(await deliverWebhook(attempt('https://hooks.example.com/in', { allowPrivate: false, lookup })));
  assert.equal(outcome.refused, true);
  assert.equal(outcome.status, null);
  assert.match(outcome.error, /hooks\.example\.com resolves to 10\.1\.2\.3, a private address/);
  assert.deepEqual(asked, ['hooks.example.com']);
});

test('the connection goes to the checked address only, keeping the host name', async () => {
  const target = await receiver(answer(204));
  let lookups = 0;
  const lookup: LookupAll = async (hostname) => {
    lookups++;
    assert.equal(hostname, 'receiver.test');
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const outcome = await deliverWebhook(attempt(`http://receiver.test:${target.port}/hook`, { lookup }));
  assert.equal(outcome.ok, true);
  assert.equal(lookups, 1); // no second, unchecked resolution when connecting
  assert.equal(target.requests.length, 1);
  assert.equal(target.requests[0].headers.host, `receiver.test:${target.port}`);
});

test('when the first checked address fails, the others are tried', async () => {
  const target = await receiver(answer(200));
  const spare = await receiver(answer(200));
  const deadPort = spare.port;
  await new Promise<void>((resolve) => spare.server.close(() => resolve()));
  // ::1 has nothing on the port (or no IPv6 at all); 127.0.0.1 answers.
  const lookup: LookupAll = async () => [
    { address: '::1', family: 6 },
    { address: '127.0.0.1', family: 4 },
  ];
  const outcome = await deliverWebhook(attempt(`http://receiver.test:${target.port}/hook`, { lookup }));
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  assert.equal(target.requests.length, 1);
  const none = failure(await deliverWebhook(attempt(`http://receiver.test:${deadPort}/`, { lookup })));
  assert.equal(none.error, `connection refused by receiver.test:${deadPort} (::1, 127.0.0.1)`);
});

test('the time limit covers a slow DNS answer; a 2xx whose body never ends is still a success', async () => {
  const hanging: LookupAll = () => new Promise(() => {});
  const dns = failure(await deliverWebhook(attempt('http://slow.test/', { lookup: hanging, timeoutMs: 200 })));
  assert.equal(dns.error, 'timed out after 0.2 s');
  assert.equal(dns.refused, false);
  const target = await receiver((_req, res) => {
    res.writeHead(200);
    res.write('partial'); // and never ends
  });
  // The receiver has accepted the event; counting it as a failure would resend it and could
  // disable a healthy receiver.
  const body = await deliverWebhook(attempt(target.url, { timeoutMs: 300 }));
  assert.equal(body.ok, true);
  assert.equal(body.status, 200);
});

test('network errors are failures with a clear message', async () => {
  const closed = await receiver(answer(200));
  const port = closed.port;
  await new Promise<void>((resolve) => closed.server.close(() => resolve()));
  const refused = failure(await deliverWebhook(attempt(`http://127.0.0.1:${port}/`)));
  assert.equal(refused.error, `connection refused by 127.0.0.1:${port}`);
  assert.equal(refused.status, null);
  assert.equal(refused.refused, false);

  const lookup: LookupAll = async () => [{ address: '127.0.0.1', family: 4 }];
  const viaName = failure(await deliverWebhook(attempt(`http://receiver.test:${port}/`, { lookup })));
  assert.equal(viaName.error, `connection refused by receiver.test:${port} (127.0.0.1)`);

  const reset = await receiver((req) => req.socket.destroy());
  assert.match(failure(await deliverWebhook(attempt(reset.url))).error, /^connection reset by 127\.0\.0\.1:\d+$/);

  const plain = await receiver(answer(200));
  const tls = failure(await deliverWebhook(attempt(`https://127.0.0.1:${plain.port}/`)));
  assert.match(tls.error, /^TLS error with 127\.0\.0\.1:\d+: /);
  assert.equal(tls.status, null);
});

test('DNS failures are failures, not refusals', async () => {
  const lookup: LookupAll = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND hooks.invalid'), { code: 'ENOTFOUND' });
  };
  const outcome = failure(await deliverWebhook(attempt('https://hooks.invalid/', { lookup })));
  assert.equal(outcome.refused, false);
  assert.equal(outcome.error, 'could not resolve webhook host hooks.invalid (no such host)');
});

test('bad input never throws', async () => {
  const invalid = failure(await deliverWebhook(attempt('ftp://example.com/')));
  assert.equal(invalid.refused, true);
  assert.match(invalid.error, /absolute http or https/);
  const target = await receiver(answer(200));
  const badHeader = failure(await deliverWebhook(attempt(target.url, { headers: { 'x-bad': 'a\nb' } })));
  assert.match(badHeader.error, /could not be made/);
  assert.equal(target.requests.length, 0);
  const throwing: LookupAll = () => {
    throw new Error('boom');
  };
  assert.match(failure(await deliverWebhook(attempt('http://x.test/', { lookup: throwing }))).error, /could not resolve webhook host x\.test \(boom\)/);
});
