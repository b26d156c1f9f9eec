// The server's settings: flags, then FOLIO_* environment variables, then defaults; and the
// version it reports.

export { ConfigError, DEFAULT_ADDONS_DIR, DEFAULT_RATE_LIMIT, resolveConfig } from './config.ts';
export type { ConfigFlags, FolioConfig, LogFormat, RateLimitSetting } from './config.ts';
export { FOLIO_PACKAGE_ROOT, FOLIO_VERSION } from './version.ts';
