// Webhook signing secrets and signatures in the Standard Webhooks format (docs/api.md, "Webhooks"): secrets are
// `whsec_` + base64 of 32 random bytes, and a delivery's `webhook-signature` header is `v1,` +
// base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's
// decoded bytes — byte for byte what the `standardwebhooks` (and Svix) libraries compute, so
// receivers can verify our deliveries with them.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Random bytes in a new secret (the Standard Webhooks spec asks for 24 to 64). */
export const WEBHOOK_SECRET_BYTES = 32;
/** The only signature version we produce and accept (symmetric HMAC-SHA256). */
const SIGNATURE_VERSION = 'v1';
/** Standard base64 with optional padding: the alphabet the reference libraries decode. */
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/** A new signing secret: `whsec_` + base64 of 32 bytes from crypto.randomBytes. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString('base64');
}

/**
 * The HMAC key of a secret: the base64-decoded part after `whsec_` (the prefix is optional, as in
 * the reference libraries). Throws a RangeError for a secret that is not base64 or is empty.
 */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  if (encoded.length === 0 || !BASE64_PATTERN.test(encoded)) {
    throw new RangeError('webhook secret must be whsec_ followed by base64');
  }
  return Buffer.from(encoded, 'base64');
}

function checkTimestamp(timestampSeconds: number): void {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`webhook timestamp must be whole seconds since the epoch, got ${timestampSeconds}`);
  }
}

/** Base64 HMAC-SHA256 of `${messageId}.${timestampSeconds}.${body}` under the secret's key. */
function signatureDigest(key: Buffer, messageId: string, timestampSeconds: number, body: string): string {
  return createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
}

/**
 * The `webhook-signature` header value for one delivery attempt: `v1,` + base64 signature.
 * `body` must be exactly the bytes sent (as a UTF-8 string). Throws a RangeError for a malformed
 * secret or a timestamp that is not whole non-negative seconds.
 */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  checkTimestamp(timestampSeconds);
  return `${SIGNATURE_VERSION},${signatureDigest(secretKey(secret), messageId, timestampSeconds, body)}`;
}

/**
 * Whether `signatureHeader` (a space-separated list of `version,signature` entries, as the spec
 * allows during secret rotation) holds a `v1` signature of this message under `secret`. Entries
 * of other versions are skipped; the comparison is constant-time. Never throws: a malformed
 * secret, timestamp or header is simply not a match. Checking the timestamp's age (replay
 * protection) is the receiver's business and not done here.
 */
export function verifyWebhookSignature(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
  signatureHeader: string,
): boolean {
  if (typeof signatureHeader !== 'string') return false;
  let expected: Buffer;
  try {
    checkTimestamp(timestampSeconds);
    expected = Buffer.from(signatureDigest(secretKey(secret), messageId, timestampSeconds, body), 'utf8');
  } catch {
    return false;
  }
  let matched = false;
  for (const entry of signatureHeader.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== SIGNATURE_VERSION) continue;
    const candidate = Buffer.from(entry.slice(comma + 1), 'utf8');
    // Lengths are public (every v1 signature is 44 characters); only the contents are compared
    // in constant time. Every entry is examined, so timing does not tell which one matched.
    if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched;
}
