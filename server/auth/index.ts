// Who may do what: the master key, API keys and sessions (hashed at rest), scopes and
// collection limits, the access table of every route, and rate limits (token buckets per
// credential, failed authentications per address).

export { MASTER_KEY_FILE, resolveMasterKey } from './master-key.ts';
export { KEYS_FILE } from './key-store.ts';
export { SESSIONS_FILE } from './session-store.ts';
export { KeyStore } from './key-store.ts';
export type { KeyRecord } from './key-store.ts';
export { SessionStore } from './session-store.ts';
export type { SharedKeyRow, SharedKeys, SharedSessionRow, SharedSessions } from './shared-auth-state.ts';
export { TokenBucketLimiter, decision as rateDecision } from './token-bucket-limiter.ts';
export type { RateDecision, RateLimit, RequestRateLimiter } from './token-bucket-limiter.ts';
export { FailedAuthLimiter } from './failed-auth-limiter.ts';
export { ROUTE_ACCESS, routeKey } from './access-table.ts';
export type { RouteNeed } from './access-table.ts';
export { authorizeCollection, authorizeRoute } from './authorize.ts';
export { canSeeCollection, grantsOf, visibleFilter } from './principal.ts';
export type { Principal } from './principal.ts';
export { DEFAULT_SCOPES, expandScopes, isSubset } from './scopes.ts';
export type { Scope } from './scopes.ts';
export { randomBase62 } from './secret-tokens.ts';
export { Credentials } from './credentials.ts';
export { ApiKeys } from './api-keys.ts';
export type { KeyEvents } from './api-keys.ts';
