// Validation of a new API key's settings (docs/api.md, "API keys, sessions and rate limits" `POST /v1/api-keys` body): name, scopes,
// collections, rate limit, expiry and filter (key-filter.ts: a key with one has only `search`). Every problem is collected and reported at once as a
// `validation_failed` FolioError whose field paths point into the request body.

import { FolioError } from '../errors/index.ts';
import type { FieldError } from '../errors/index.ts';
import { COLLECTION_NAME_PATTERN, isValidCollectionName } from '../names/index.ts';
import { DEFAULT_SCOPES, isScope, SCOPES } from './scopes.ts';
import type { Scope } from './scopes.ts';
import { checkKeyFilter } from './key-filter.ts';
import type { KeyFilter } from './key-filter.ts';

export const MAX_KEY_NAME_CHARS = 100;
export const DEFAULT_KEY_NAME = 'key';
/** Largest `per_second` or `burst` accepted, to keep numbers sane. */
export const MAX_RATE_LIMIT_VALUE = 1_000_000;

export interface KeyRateLimit {
  per_second: number;
  burst: number;
}

/** What a caller asks for. Omitted fields take their defaults (`scopes`: search + write). */
export interface KeyCreateInput {
  name?: string;
  scopes?: Scope[];
  collections?: string[] | null;
  rateLimit?: KeyRateLimit | null;
  expiresAt?: string | null;
  /** Only the documents matching it (a filter object); a key with one has only the `search` scope. */
  filter?: unknown;
}

/** Checked and normalised settings: scopes deduplicated in canonical order, expiry in UTC. */
export interface ValidKeyInput {
  name: string;
  scopes: Scope[];
  collections: string[] | null;
  rateLimit: KeyRateLimit | null;
  /** Normalised to `toISOString()` form. */
  expiresAt: string | null;
  filter: KeyFilter | null;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Milliseconds since the epoch of an RFC 3339 date-time, or null when it is not one. */
export function parseRfc3339(value: string): number | null {
  const match = RFC3339.exec(value);
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  const millis = match[7] === undefined ? 0 : Math.floor(Number(match[7]) * 1000);
  let offsetMinutes = 0;
  if (match[8] === undefined) {
    const offsetHours = Number(match[10]);
    const offsetMins = Number(match[11]);
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return Number.isFinite(utc) ? utc : null;
}

function checkName(name: unknown, errors: FieldError[]): string {
  if (name === undefined) return DEFAULT_KEY_NAME;
  if (typeof name !== 'string') {
    errors.push({ path: '/body/name', message: 'must be a string' });
    return '';
  }
  const chars = [...name].length;
  if (chars === 0 || chars > MAX_KEY_NAME_CHARS || name.trim() === '') {
    errors.push({ path: '/body/name', message: `must be 1 to ${MAX_KEY_NAME_CHARS} characters, not only spaces` });
  }
  return name;
}

function checkScopes(scopes: unknown, errors: FieldError[]): Scope[] {
  if (scopes === undefined) return [...DEFAULT_SCOPES];
  if (!Array.isArray(scopes) || scopes.length === 0) {
    errors.push({ path: '/body/scopes', message: `must be a non-empty list of ${SCOPES.join(', ')}` });
    return [];
  }
  scopes.forEach((scope: unknown, index) => {
    if (!isScope(scope)) {
      errors.push({ path: `/body/scopes/${index}`, message: `must be one of ${SCOPES.join(', ')}` });
    }
  });
  return SCOPES.filter((scope) => scopes.includes(scope));
}

function checkCollections(collections: unknown, errors: FieldError[]): string[] | null {
  if (collections === undefined || collections === null) return null;
  if (!Array.isArray(collections) || collections.length === 0) {
    errors.push({
      path: '/body/collections',
      message: 'must be a non-empty list of collection names, or null for all collections',
    });
    return null;
  }
  const names: string[] = [];
  collections.forEach((name: unknown, index) => {
    if (!isValidCollectionName(name)) {
      errors.push({ path: `/body/collections/${index}`, message: `must match ${COLLECTION_NAME_PATTERN}` });
    } else if (!names.includes(name)) {
      names.push(name);
    }
  });
  return names;
}

function checkRateLimit(rateLimit: unknown, errors: FieldError[]): KeyRateLimit | null {
  if (rateLimit === undefined || rateLimit === null) return null;
  if (typeof rateLimit !== 'object' || Array.isArray(rateLimit)) {
    errors.push({ path: '/body/rate_limit', message: 'must be an object { per_second, burst } or null' });
    return null;
  }
  const fields = rateLimit as Record<string, unknown>;
  for (const field of ['per_second', 'burst'] as const) {
    const value = fields[field];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_RATE_LIMIT_VALUE) {
      errors.push({
        path: `/body/rate_limit/${field}`,
        message: `must be an integer from 1 to ${MAX_RATE_LIMIT_VALUE}`,
      });
    }
  }
  return { per_second: fields.per_second as number, burst: fields.burst as number };
}

function checkExpiresAt(expiresAt: unknown, now: Date, errors: FieldError[]): string | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  const time = typeof expiresAt === 'string' ? parseRfc3339(expiresAt) : null;
  if (time === null) {
    errors.push({ path: '/body/expires_at', message: 'must be an RFC 3339 date-time, e.g. 2030-01-31T12:00:00Z' });
    return null;
  }
  if (time <= now.getTime()) {
    errors.push({ path: '/body/expires_at', message: 'must be in the future' });
    return null;
  }
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) {
    errors.push({ path: '/body/expires_at', message: 'is out of range' });
    return null;
  }
  return date.toISOString();
}

/** Checks and normalises a new key's settings; throws `validation_failed` listing every problem. */
export function validateKeyInput(input: KeyCreateInput, now: Date): ValidKeyInput {
  const errors: FieldError[] = [];
  const raw = (input ?? {}) as Record<string, unknown>;
  const valid: ValidKeyInput = {
    name: checkName(raw.name, errors),
    scopes: checkScopes(raw.scopes, errors),
    collections: checkCollections(raw.collections, errors),
    rateLimit: checkRateLimit(raw.rateLimit, errors),
    expiresAt: checkExpiresAt(raw.expiresAt, now, errors),
    filter: checkKeyFilter(raw.filter, errors),
  };
  if (valid.filter !== null && raw.scopes !== undefined && (valid.scopes.length !== 1 || valid.scopes[0] !== 'search')) {
    errors.push({ path: '/body/scopes', message: 'a key with a filter has only the search scope: ["search"]' });
  }
  // Left out, the scopes of a key with a filter are ["search"].
  if (valid.filter !== null && raw.scopes === undefined) valid.scopes = ['search'];
  if (errors.length > 0) throw new FolioError('validation_failed', 'invalid API key settings', errors);
  return valid;
}
