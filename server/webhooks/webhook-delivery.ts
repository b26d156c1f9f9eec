// One webhook delivery attempt over HTTP(S) (docs/api.md, "Webhooks"): checks the destination with the SSRF
// guard, then POSTs the body to the addresses that were checked — the connection's DNS lookup is
// pinned to them, so a name cannot resolve to something else between the check and the connect,
// while TLS still uses the host name for SNI and certificate checks. Redirects are never
// followed, the whole attempt (DNS, connect, response) has one time limit, at most 64 KiB of
// the response is read (and thrown away), and the result is an outcome value: this never throws.

import { request as httpRequest, STATUS_CODES, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { FOLIO_VERSION } from '../config/index.ts';
import { parseWebhookUrl, resolveDeliveryAddresses, WebhookAddressError, type LookupAll } from './address-guard.ts';

export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** Response bytes read before the connection is dropped; the body is never kept. */
export const MAX_RESPONSE_BODY_BYTES = 64 * 1024;
/** Longest wait a receiver's Retry-After can ask for. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
export const WEBHOOK_USER_AGENT = `Folio-Webhooks/${FOLIO_VERSION}`;

/** Headers this module sets itself; callers' values for them are ignored. */
const MANAGED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'host']);
/** OpenSSL certificate verification codes (besides the ERR_TLS_* / ERR_SSL_* ones). */
const CERTIFICATE_ERROR = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

export interface DeliveryAttempt {
  url: string;
  /** Exactly the bytes to send (UTF-8); the signature headers must have been computed over it. */
  body: string;
  /** Extra headers (webhook-id, webhook-timestamp, webhook-signature, …). */
  headers: Record<string, string>;
  /** Limit for the whole attempt, from the start to the end of the response. */
  timeoutMs: number;
  /** Allow loopback, private and other special addresses (--allow-private-webhooks). */
  allowPrivate: boolean;
  /** Resolver for host names; the system's by default (tests pass fakes). */
  lookup?: LookupAll;
}

export type DeliveryOutcome =
  | { ok: true; status: number; durationMs: number }
  | {
      ok: false;
      /** The receiver's HTTP status, or null when there was no response. */
      status: number | null;
      /** What went wrong, for people (shown in the deliveries list). */
      error: string;
      /** The receiver's Retry-After in milliseconds (0 … 24 h), or null. */
      retryAfterMs: number | null;
      /** The receiver answered 410 Gone. */
      gone: boolean;
      /** The SSRF guard (or URL check) refused the destination: retrying will not help. */
      refused: boolean;
      durationMs: number;
    };

/**
 * A Retry-After value in milliseconds from `now`: delay seconds or an HTTP date, bounded to
 * 0 … 24 h. Null when absent or not understood.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // Only date-like text: Date.parse would also accept things like "5" or "2024".
    if (!/[a-z]/i.test(text)) return null;
    const date = Date.parse(text);
    if (Number.isNaN(date)) return null;
    ms = date - now;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms)));
}

type Checked = { address: string; family: 4 | 6 }[];

/**
 * A lookup that answers only the checked addresses: connections go where the guard said they
 * may. Node asks for all addresses when it tries each family in turn (autoSelectFamily, on by
 * default), so a host whose first address is unreachable (say IPv6 on an IPv4-only server) still
 * gets its other addresses tried; otherwise the first is used.
 */
function pinnedLookup(addresses: Checked): LookupFunction {
  return (_hostname, options, callback) => {
    process.nextTick(() => {
      if (options.all === true) callback(null, addresses.map(({ address, family }) => ({ address, family })));
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

function statusText(status: number): string {
  const reason = STATUS_CODES[status];
  return reason === undefined ? String(status) : `${status} ${reason}`;
}

/** A network-level failure in words, naming the host (and the address, for a host name). */
function describeNetworkError(error: unknown, url: URL, addresses: Checked): string {
  let cause = error;
  // Several addresses tried: report the first one's failure (they usually fail alike).
  if (cause instanceof AggregateError && cause.errors.length > 0) cause = cause.errors[0];
  const err = cause as NodeJS.ErrnoException;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = err instanceof Error ? err.message : String(cause);
  const list = addresses.map(({ address }) => address).join(', ');
  const target = url.hostname.replace(/^\[|\]$/g, '') === list ? url.host : `${url.host} (${list})`;
  if (code === 'ECONNREFUSED') return `connection refused by ${target}`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return `connection reset by ${target}`;
  if (code === 'ETIMEDOUT') return `connection to ${target} timed out`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${target} is unreachable (${code})`;
  if (code.startsWith('HPE_')) return `invalid HTTP response from ${target}: ${message}`;
  if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || code === 'EPROTO' || CERTIFICATE_ERROR.test(code)) {
    return `TLS error with ${target}: ${message}`;
  }
  return `request to ${target} failed: ${message}${code !== '' && !message.includes(code) ? ` (${code})` : ''}`;
}

/**
 * Makes one delivery attempt. Any 2xx is success; anything else — a refusal by the guard, a DNS
 * or network error, a timeout, a 3xx (redirects are not followed), 4xx or 5xx — is a failure
 * with the details the retry logic needs. Never throws.
 */
export async function deliverWebhook(attempt: DeliveryAttempt): Promise<DeliveryOutcome> {
  const started = performance.now();
  const durationMs = (): number => Math.round(performance.now() - started);
  const parsed = parseWebhookUrl(attempt.url);
  if ('error' in parsed) {
    return { ok: false, status: null, error: parsed.error, retryAfterMs: null, gone: false, refused: true, durationMs: durationMs() };
  }
  const url = parsed.url;
  const timeoutMs = Number.isFinite(attempt.timeoutMs) && attempt.timeoutMs > 0 ? attempt.timeoutMs : DEFAULT_DELIVERY_TIMEOUT_MS;

  return new Promise<DeliveryOutcome>((resolve) => {
    let settled = false;
    let request: ClientRequest | null = null;
    /** The outcome the response's status decided, once its headers are in. */
    let answered: DeliveryOutcome | null = null;

    const finish = (outcome: DeliveryOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      request?.destroy(); // no keep-alive: the connection is never reused
    };
    const fail = (error: string, status: number | null = null, refused = false): void => {
      finish({ ok: false, status, error, retryAfterMs: null, gone: false, refused, durationMs: durationMs() });
    };

    const timer = setTimeout(() => {
      // Once the status has arrived it decides, whatever the body still does: a 2xx whose body
      // is still open is a success, a failure status says more than the timeout.
      if (answered !== null) finish({ ...answered, durationMs: durationMs() });
      else fail(`timed out after ${seconds(timeoutMs)} s`, null);
    }, timeoutMs);

    const onResponse = (response: IncomingMessage): void => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status <= 299) {
        answered = { ok: true, status, durationMs: 0 };
      } else {
        const redirect = status >= 300 && status <= 399 ? ' (redirects are not followed)' : '';
        answered = {
          ok: false,
          status,
          error: `the receiver answered ${statusText(status)}${redirect}`,
          retryAfterMs: parseRetryAfter(response.headers['retry-after']),
          gone: status === 410,
          refused: false,
          durationMs: 0,
        };
      }
      const done = (): void => {
        if (answered !== null) finish({ ...answered, durationMs: durationMs() });
      };
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BODY_BYTES) done(); // finish() destroys the connection
      });
      response.on('end', done);
      response.on('close', done);
      response.on('error', done); // the status is in; a broken body does not change it
    };

    const send = (addresses: Checked): void => {
      const payload = Buffer.from(attempt.body, 'utf8');
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT };
      for (const [name, value] of Object.entries(attempt.headers ?? {})) {
        const key = name.toLowerCase();
        if (!MANAGED_HEADERS.has(key)) headers[key] = value;
      }
      headers['content-length'] = String(payload.length);
      const options = { method: 'POST', headers, agent: false as const, lookup: pinnedLookup(addresses) };
      try {
        request = url.protocol === 'https:' ? httpsRequest(url, options, onResponse) : httpRequest(url, options, onResponse);
      } catch (error) {
        // Invalid header names or values are thrown synchronously.
        fail(`request to ${url.host} could not be made: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      request.on('error', (error) => {
        if (answered !== null) finish({ ...answered, durationMs: durationMs() });
        else fail(describeNetworkError(error, url, addresses));
      });
      request.end(payload);
    };

    Promise.resolve()
      .then(() => resolveDeliveryAddresses(url, attempt.allowPrivate, attempt.lookup))
      .then(
        (addresses) => {
          if (!settled) send(addresses);
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          fail(message, null, error instanceof WebhookAddressError);
        },
      );
  });
}
