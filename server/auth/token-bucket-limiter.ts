// A keyed token-bucket rate limiter (docs/api.md, "API keys, sessions and rate limits"): one bucket per key (an API key's id, a client
// address, …), refilled continuously from the elapsed time, with a per-key override of the
// server's default rate and burst. It answers everything the RateLimit-* and Retry-After
// headers need. Memory is bounded: at most `maxKeys` buckets; when that many exist, buckets that
// are full again are dropped first (a full bucket behaves exactly like a missing one), and only
// if none is found among the oldest is the least recently used bucket evicted.

/** A rate: `perSecond` tokens are added each second, up to `burst` (the bucket's size). */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** What one request is told (docs/api.md, "API keys, sessions and rate limits" headers). */
export interface RateDecision {
  allowed: boolean;
  /** The bucket's size (the burst): the value of RateLimit-Limit. */
  limit: number;
  /** Whole tokens left after this request (≥ 0): RateLimit-Remaining. */
  remaining: number;
  /** Whole seconds (≥ 0) until the bucket is full again: RateLimit-Reset. */
  resetSeconds: number;
  /**
   * Whole seconds (≥ 1) until the next token is available: Retry-After. Meaningful when the
   * request was refused; when it was allowed it is the wait a refused follow-up would be told.
   */
  retryAfterSeconds: number;
}

export interface TokenBucketOptions {
  /** Default tokens added per second (> 0; fractions allowed, e.g. 1/3). */
  perSecond: number;
  /** Default bucket size (≥ 1). */
  burst: number;
  /** Most buckets kept at once (≥ 1). Default 100,000. */
  maxKeys?: number;
  /** The clock, in milliseconds; only differences matter. Default: monotonic performance.now(). */
  now?: () => number;
  /**
   * The part of each rate this limiter enforces (0 < share ≤ 1), asked at every take: a cluster
   * node without shared buckets enforces 1/nodes of the limit. Default 1.
   */
  share?: () => number;
}

/** What the auth plugin asks of a rate limiter: here, or shared by a cluster's nodes (Redis). */
export interface RequestRateLimiter {
  readonly defaultRate: RateLimit;
  take(key: string, limit?: RateLimit): RateDecision | Promise<RateDecision>;
  forget(key: string): void;
}

export const DEFAULT_MAX_KEYS = 100_000;
/** How many of the least recently used buckets are examined for full ones before evicting. */
const EVICTION_SCAN = 64;
/** Slack for floating-point drift in refills (a billionth of a token or second). */
const EPSILON = 1e-9;

interface Bucket {
  /** Tokens at `updatedAt` (fractional). */
  tokens: number;
  updatedAt: number;
  perSecond: number;
  burst: number;
}

function checkRate(rate: RateLimit, what: string): RateLimit {
  if (!Number.isFinite(rate.perSecond) || rate.perSecond <= 0) {
    throw new RangeError(`${what}: perSecond must be a finite number above 0, got ${rate.perSecond}`);
  }
  if (!Number.isFinite(rate.burst) || rate.burst < 1) {
    throw new RangeError(`${what}: burst must be a finite number of at least 1, got ${rate.burst}`);
  }
  return rate;
}

/** Whole seconds covering `seconds`, forgiving floating-point drift (3.0000000000000004 → 3). */
function wholeSeconds(seconds: number): number {
  return seconds <= EPSILON ? 0 : Math.ceil(seconds - EPSILON);
}

/** Tokens `bucket` holds at `now` (never more than its burst; a clock going back adds none). */
function tokensAt(bucket: Bucket, now: number): number {
  const elapsedMs = Math.max(0, now - bucket.updatedAt);
  return Math.min(bucket.burst, bucket.tokens + (elapsedMs * bucket.perSecond) / 1000);
}

/** The answer for a bucket holding `tokens` after a request (headers included). */
export function decision(allowed: boolean, tokens: number, rate: RateLimit): RateDecision {
  return {
    allowed,
    limit: rate.burst,
    remaining: Math.max(0, Math.floor(tokens + EPSILON)),
    resetSeconds: wholeSeconds((rate.burst - tokens) / rate.perSecond),
    retryAfterSeconds: Math.max(1, wholeSeconds((1 - tokens) / rate.perSecond)),
  };
}

export class TokenBucketLimiter implements RequestRateLimiter {
  /** Buckets in least recently used order: a bucket is re-inserted whenever it is taken from. */
  private readonly buckets = new Map<string, Bucket>();
  private readonly defaults: RateLimit;
  private readonly maxKeys: number;
  private readonly now: () => number;
  private readonly share: () => number;

  /** The rate of a credential that has none of its own. */
  get defaultRate(): RateLimit {
    return this.defaults;
  }

  constructor(options: TokenBucketOptions) {
    this.defaults = checkRate({ perSecond: options.perSecond, burst: options.burst }, 'rate limit');
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    if (!Number.isInteger(this.maxKeys) || this.maxKeys < 1) {
      throw new RangeError(`maxKeys must be a whole number of at least 1, got ${this.maxKeys}`);
    }
    this.now = options.now ?? (() => performance.now());
    this.share = options.share ?? (() => 1);
  }

  /** `rate` (checked) times this limiter's share; a burst of at least 1. */
  private enforced(rate: RateLimit, what: string): RateLimit {
    checkRate(rate, what);
    const share = this.share();
    if (share >= 1) return rate;
    return { perSecond: rate.perSecond * share, burst: Math.max(1, Math.floor(rate.burst * share)) };
  }

  /** How many buckets are kept now (never more than maxKeys). */
  get size(): number {
    return this.buckets.size;
  }

  /**
   * One request for `key`: takes a token if there is one. A refused request takes nothing.
   * `limit` (a key's own rate limit) replaces the defaults for this key. If a key's limit
   * changes, its bucket keeps the tokens it has earned so far (refilled at the old rate up to
   * now), capped at the new burst, and refills at the new rate from then on.
   */
  take(key: string, limit?: RateLimit): RateDecision {
    const rate = this.enforced(limit ?? this.defaults, `rate limit of '${key}'`);
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      this.makeRoom(now);
      bucket = { tokens: rate.burst, updatedAt: now, perSecond: rate.perSecond, burst: rate.burst };
    } else {
      this.buckets.delete(key); // re-inserted below as the most recently used
      bucket.tokens = Math.min(tokensAt(bucket, now), rate.burst);
      bucket.updatedAt = now;
      bucket.perSecond = rate.perSecond;
      bucket.burst = rate.burst;
    }
    const allowed = bucket.tokens >= 1 - EPSILON;
    if (allowed) bucket.tokens = Math.max(0, bucket.tokens - 1);
    this.buckets.set(key, bucket);
    return decision(allowed, bucket.tokens, rate);
  }

  /**
   * What a request for `key` would be told, without taking a token, creating a bucket or
   * changing the least recently used order. `allowed` says whether a take would succeed.
   */
  peek(key: string, limit?: RateLimit): RateDecision {
    const rate = this.enforced(limit ?? this.defaults, `rate limit of '${key}'`);
    const bucket = this.buckets.get(key);
    const tokens = bucket === undefined ? rate.burst : Math.min(tokensAt(bucket, this.now()), rate.burst);
    return decision(tokens >= 1 - EPSILON, tokens, rate);
  }

  /** Drops `key`'s bucket (e.g. a revoked key). Returns whether there was one. */
  forget(key: string): boolean {
    return this.buckets.delete(key);
  }

  /** Frees a slot for a new bucket when maxKeys are kept: full buckets first, else the LRU one. */
  private makeRoom(now: number): void {
    if (this.buckets.size < this.maxKeys) return;
    let examined = 0;
    let dropped = 0;
    for (const [key, bucket] of this.buckets) {
      if (examined++ >= EVICTION_SCAN) break;
      // A full bucket is indistinguishable from no bucket: dropping it changes nothing.
      if (tokensAt(bucket, now) >= bucket.burst - EPSILON) {
        this.buckets.delete(key);
        dropped++;
      }
    }
    if (dropped > 0) return;
    const oldest = this.buckets.keys().next();
    if (oldest.done !== true) this.buckets.delete(oldest.value);
  }
}
