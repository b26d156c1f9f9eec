// Rate limits shared by every node (`--redis`): one token bucket per credential in Redis, taken
// by a Lua script (read, refill from Redis's own clock, take, write back and expire when full
// again) so concurrent takes from any node are atomic. While Redis cannot be reached, each node
// falls back to its share of the limit in memory, as without `--redis`.

import { Redis } from 'ioredis';
import { rateDecision } from '../auth/index.ts';
import type { RateDecision, RateLimit, RequestRateLimiter, TokenBucketLimiter } from '../auth/index.ts';

const TAKE_SCRIPT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1])
local at = tonumber(bucket[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local allowed = 0
if tokens >= 1 - 1e-9 then
  tokens = math.max(0, tokens - 1)
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return {allowed, tostring(tokens)}
`;

/** Longest a take waits for Redis before the node decides alone. */
const COMMAND_TIMEOUT_MS = 500;
const KEY_PREFIX = 'folio:rate:';

type TakingRedis = Redis & { folioTake(key: string, perSecond: number, burst: number): Promise<[number, string]> };

export class RedisRateLimiter implements RequestRateLimiter {
  private readonly redis: TakingRedis;

  constructor(
    url: string,
    readonly defaultRate: RateLimit,
    /** This node's share of the limit, used while Redis is away. */
    private readonly fallback: TokenBucketLimiter,
  ) {
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: COMMAND_TIMEOUT_MS, lazyConnect: false });
    // Connection errors are expected while Redis is away; takes fall back meanwhile.
    redis.on('error', () => {});
    redis.defineCommand('folioTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as TakingRedis;
  }

  async take(key: string, limit?: RateLimit): Promise<RateDecision> {
    const rate = limit ?? this.defaultRate;
    try {
      const [allowed, tokens] = await this.redis.folioTake(KEY_PREFIX + key, rate.perSecond, rate.burst);
      return rateDecision(allowed === 1, Number(tokens), rate);
    } catch {
      return this.fallback.take(key, limit);
    }
  }

  forget(key: string): void {
    this.fallback.forget(key);
    this.redis.del(KEY_PREFIX + key).catch(() => {});
  }

  close(): void {
    this.redis.disconnect();
  }
}
