// Limits failed authentications per client address (docs/api.md, "API keys, sessions and rate limits": unknown-token answers are rate
// limited per client IP so keys cannot be guessed quickly). The caller asks `isBlocked` before
// authenticating a request and calls `recordFailure` when a token turns out missing or unknown;
// successful authentications are simply not counted (they do not reset an address's count, so
// a valid token cannot be used to wash away guesses made with others).
//
// The limit is a token bucket per address: `maxFailures` (default 20) may fail at once, and one
// more failure is allowed every `windowSeconds / maxFailures` (default 3 s), i.e. 20 a minute
// sustained. (A bucket, unlike a sliding log, can let up to 2·maxFailures − 1 through in the very
// first window, but it needs a few numbers per address instead of maxFailures timestamps.)
// Addresses are grouped as attackers get them: IPv4 by the whole address, IPv6 by its /64
// prefix, IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as the IPv4 address. Memory is bounded by
// `maxClients` (least recently used first; addresses whose allowance is whole again go first).

import { isIPv4, isIPv6 } from 'node:net';
import { DEFAULT_MAX_KEYS, TokenBucketLimiter } from './token-bucket-limiter.ts';

export const DEFAULT_MAX_FAILURES = 20;
export const DEFAULT_FAILURE_WINDOW_SECONDS = 60;

export interface FailedAuthLimiterOptions {
  /** Failures allowed at once, and per window sustained (≥ 1). Default 20. */
  maxFailures?: number;
  /** The window, in seconds (> 0). Default 60. */
  windowSeconds?: number;
  /** Most client addresses remembered at once. Default 100,000. */
  maxClients?: number;
  /** The clock, in milliseconds; only differences matter. Default: monotonic performance.now(). */
  now?: () => number;
}

export interface FailedAuthVerdict {
  /** Whether requests from this client are refused now (429 rate_limited). */
  blocked: boolean;
  /** Whole seconds until the client may try again (≥ 1 when blocked, 0 when not). */
  retryAfterSeconds: number;
}

/** The eight 16-bit groups of a valid IPv6 address (as `isIPv6` accepts it, without a zone). */
function ipv6Groups(address: string): number[] {
  let text = address;
  // A trailing dotted IPv4 part (`::ffff:1.2.3.4`) stands for the last two groups.
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string | undefined): number[] =>
    part === undefined || part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const [head, rest] = text.split('::') as [string, string | undefined];
  const headGroups = parse(head);
  if (rest === undefined) return headGroups;
  const restGroups = parse(rest);
  const zeros = new Array<number>(8 - headGroups.length - restGroups.length).fill(0);
  return [...headGroups, ...zeros, ...restGroups];
}

/**
 * The key a client address is limited under: an IPv4 address as itself; an IPv6 address as its
 * /64 prefix (`2001:db8:1:2::/64`); an IPv4-mapped IPv6 address as the IPv4 address. Brackets
 * and zone ids (`%eth0`) are ignored, case does not matter. Anything that is not an IP address
 * (e.g. a missing address) is its own key, `unknown` when empty.
 */
export function clientAddressKey(address: string | undefined): string {
  let text = (address ?? '').trim().toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (text === '') return 'unknown';
  if (isIPv4(text)) return text;
  if (!isIPv6(text)) return text;
  const groups = ipv6Groups(text);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high, low] = [groups[6]!, groups[7]!];
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

export class FailedAuthLimiter {
  private readonly buckets: TokenBucketLimiter;

  constructor(options: FailedAuthLimiterOptions = {}) {
    const maxFailures = options.maxFailures ?? DEFAULT_MAX_FAILURES;
    const windowSeconds = options.windowSeconds ?? DEFAULT_FAILURE_WINDOW_SECONDS;
    if (!Number.isInteger(maxFailures) || maxFailures < 1) {
      throw new RangeError(`maxFailures must be a whole number of at least 1, got ${maxFailures}`);
    }
    if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) {
      throw new RangeError(`windowSeconds must be a finite number above 0, got ${windowSeconds}`);
    }
    this.buckets = new TokenBucketLimiter({
      perSecond: maxFailures / windowSeconds,
      burst: maxFailures,
      maxKeys: options.maxClients ?? DEFAULT_MAX_KEYS,
      ...(options.now === undefined ? {} : { now: options.now }),
    });
  }

  /** Client groups remembered now (never more than maxClients). */
  get size(): number {
    return this.buckets.size;
  }

  /** Whether `ip` is refused before its token is even looked at. Changes nothing. */
  isBlocked(ip: string | undefined): FailedAuthVerdict {
    const state = this.buckets.peek(clientAddressKey(ip));
    return state.allowed ? { blocked: false, retryAfterSeconds: 0 } : { blocked: true, retryAfterSeconds: state.retryAfterSeconds };
  }

  /** Counts one failed authentication from `ip`; says whether the client is blocked from now on. */
  recordFailure(ip: string | undefined): FailedAuthVerdict {
    const state = this.buckets.take(clientAddressKey(ip));
    // Blocked if this failure was already over the limit, or used the last allowance.
    const blocked = !state.allowed || state.remaining < 1;
    return blocked ? { blocked: true, retryAfterSeconds: state.retryAfterSeconds } : { blocked: false, retryAfterSeconds: 0 };
  }
}
