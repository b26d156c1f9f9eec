// Secret token generation (docs/api.md, "API keys, sessions and rate limits"): API key values (`folio_` + 40 base62), key ids
// (`key_` + 16 base62), session tokens (`folio_sess_` + 40 base62), all drawn from
// crypto.randomBytes without modulo bias, and the SHA-256 digest that is all we ever store.

import { createHash, randomBytes } from 'node:crypto';

export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes at or above this are discarded so every symbol is equally likely (248 = 4 × 62). */
const UNBIASED_BYTE_LIMIT = 256 - (256 % BASE62_ALPHABET.length);

export const API_KEY_PREFIX = 'folio_';
export const API_KEY_RANDOM_CHARS = 40;
/** Length of a whole API key value. */
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_RANDOM_CHARS;
/** Characters of a key value kept in its record so people can tell keys apart. */
export const API_KEY_PREFIX_CHARS = 10;

export const KEY_ID_PREFIX = 'key_';
export const KEY_ID_RANDOM_CHARS = 16;

export const SESSION_TOKEN_PREFIX = 'folio_sess_';
export const SESSION_TOKEN_RANDOM_CHARS = 40;
/** Length of a whole session token. */
export const SESSION_TOKEN_LENGTH = SESSION_TOKEN_PREFIX.length + SESSION_TOKEN_RANDOM_CHARS;

/** `length` uniformly random base62 characters from crypto.randomBytes (rejection sampling). */
export function randomBase62(length: number): string {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new RangeError(`randomBase62: length must be a non-negative integer, got ${length}`);
  }
  const chars: string[] = [];
  while (chars.length < length) {
    // About 3 % of bytes are rejected; ask for a little more than needed so one draw usually does.
    const wanted = length - chars.length;
    for (const byte of randomBytes(wanted + (wanted >> 3) + 4)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      chars.push(BASE62_ALPHABET[byte % BASE62_ALPHABET.length]);
      if (chars.length === length) break;
    }
  }
  return chars.join('');
}

/** A new API key value: `folio_` + 40 base62 characters (≈ 238 bits). */
export function newApiKeyValue(): string {
  return API_KEY_PREFIX + randomBase62(API_KEY_RANDOM_CHARS);
}

/** A new key record id: `key_` + 16 base62 characters. Not secret. */
export function newKeyId(): string {
  return KEY_ID_PREFIX + randomBase62(KEY_ID_RANDOM_CHARS);
}

/** A new session token: `folio_sess_` + 40 base62 characters. */
export function newSessionToken(): string {
  return SESSION_TOKEN_PREFIX + randomBase62(SESSION_TOKEN_RANDOM_CHARS);
}

/** Lower-case hex SHA-256 of a token's UTF-8 bytes: what the stores keep and look up by. */
export function sha256Hex(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** True when `value` is 64 lower-case hex characters (a stored SHA-256). */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}
