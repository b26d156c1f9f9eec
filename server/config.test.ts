// Unit tests of config resolution: flags win over FOLIO_* variables, which win over defaults;
// bad values are refused with a message naming the flag or variable.

import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { ConfigError, DEFAULT_HOST, DEFAULT_PORT, resolveConfig } from './config.ts';

test('defaults work on a laptop: ./folio-data, port 7700, loopback only', () => {
  const config = resolveConfig({}, {});
  assert.deepEqual(config, {
    port: DEFAULT_PORT,
    host: DEFAULT_HOST,
    dataDir: resolve('./folio-data'),
    masterKey: undefined,
    logLevel: 'info',
    allowPrivateWebhooks: false,
    searchThreads: undefined,
    indexThreads: undefined,
    searchCacheMb: undefined,
  });
  assert.equal(config.port, 7700);
  assert.equal(config.host, '127.0.0.1');
});

test('FOLIO_* variables override the defaults', () => {
  const config = resolveConfig({}, {
    FOLIO_PORT: '8800',
    FOLIO_HOST: '0.0.0.0',
    FOLIO_DATA_DIR: '/srv/folio',
    FOLIO_MASTER_KEY: 'k'.repeat(20),
    FOLIO_LOG_LEVEL: 'WARN',
    FOLIO_ALLOW_PRIVATE_WEBHOOKS: 'true',
    FOLIO_SEARCH_THREADS: '3',
    FOLIO_INDEX_THREADS: '1',
    FOLIO_SEARCH_CACHE_MB: '0',
  });
  assert.deepEqual(config, {
    port: 8800,
    host: '0.0.0.0',
    dataDir: '/srv/folio',
    masterKey: 'k'.repeat(20),
    logLevel: 'warn',
    allowPrivateWebhooks: true,
    searchThreads: 3,
    indexThreads: 1,
    searchCacheMb: 0,
  });
});

test('flags override the variables; empty variables count as unset', () => {
  const env = { FOLIO_PORT: '8800', FOLIO_HOST: '', FOLIO_DATA_DIR: '/srv/folio', FOLIO_LOG_LEVEL: 'debug' };
  const config = resolveConfig({ port: '0', host: '::1', data: 'rel', logLevel: 'error', allowPrivateWebhooks: true }, env);
  assert.equal(config.port, 0);
  assert.equal(config.host, '::1');
  assert.equal(config.dataDir, resolve('rel'));
  assert.equal(config.logLevel, 'error');
  assert.equal(config.allowPrivateWebhooks, true);
  assert.equal(resolveConfig({ searchThreads: '4' }, { FOLIO_SEARCH_THREADS: '2' }).searchThreads, 4);
  assert.equal(resolveConfig({}, { FOLIO_HOST: '  ' }).host, DEFAULT_HOST);
});

test('bad values name their source', () => {
  assert.throws(() => resolveConfig({ port: '70000' }, {}), (error: Error) => error instanceof ConfigError && /--port/.test(error.message));
  assert.throws(() => resolveConfig({}, { FOLIO_PORT: 'http' }), /FOLIO_PORT/);
  assert.throws(() => resolveConfig({}, { FOLIO_PORT: '-1' }), /FOLIO_PORT/);
  assert.throws(() => resolveConfig({ logLevel: 'loud' }, {}), /--log-level/);
  assert.throws(() => resolveConfig({}, { FOLIO_ALLOW_PRIVATE_WEBHOOKS: 'perhaps' }), /FOLIO_ALLOW_PRIVATE_WEBHOOKS/);
  assert.throws(() => resolveConfig({ searchThreads: '0' }, {}), /--search-threads/);
  assert.throws(() => resolveConfig({ indexThreads: 'many' }, {}), /--index-threads/);
  assert.throws(() => resolveConfig({}, { FOLIO_SEARCH_THREADS: '65' }), /FOLIO_SEARCH_THREADS/);
  assert.throws(() => resolveConfig({ searchCacheMb: '-1' }, {}), /--search-cache-mb/);
});
