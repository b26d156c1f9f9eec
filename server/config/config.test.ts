// Unit tests of config resolution: flags win over FOLIO_* variables, which win over defaults;
// bad values are refused with a message naming the flag or variable.

import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError, DEFAULT_ADDONS_DIR, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RATE_LIMIT, resolveConfig } from './config.ts';

test('defaults work on a laptop: ./folio-data, port 7700, loopback only', () => {
  const config = resolveConfig({}, {});
  assert.deepEqual(config, {
    port: DEFAULT_PORT,
    host: DEFAULT_HOST,
    dataDir: resolve('./folio-data'),
    masterKey: undefined,
    logLevel: 'info',
    logFormat: undefined,
    allowPrivateWebhooks: false,
    searchThreads: undefined,
    indexThreads: undefined,
    searchCacheMb: undefined,
    previewCacheMb: undefined,
    openCollections: undefined,
    maxFileBytes: undefined,
    rateLimit: undefined,
    keepFiles: false,
    extractionTimeoutSeconds: undefined,
    extractionThreads: undefined,
    searchTimeoutSeconds: undefined,
    keySearchConcurrency: undefined,
    modelsDir: resolve('./folio-data/models'),
    addonsDir: DEFAULT_ADDONS_DIR,
    cluster: null,
  });
  // Add-ons go beside Folio's own files (the checkout's addons/), wherever the server starts.
  assert.equal(DEFAULT_ADDONS_DIR, fileURLToPath(new URL('../../addons', import.meta.url)));
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
    FOLIO_LOG_FORMAT: 'json',
    FOLIO_ALLOW_PRIVATE_WEBHOOKS: 'true',
    FOLIO_SEARCH_THREADS: '3',
    FOLIO_INDEX_THREADS: '1',
    FOLIO_SEARCH_CACHE_MB: '0',
    FOLIO_OPEN_COLLECTIONS: '250',
    FOLIO_RATE_LIMIT: '50/s',
    FOLIO_MAX_FILE_SIZE: '10MiB',
    FOLIO_KEEP_FILES: 'yes',
    FOLIO_EXTRACTION_TIMEOUT: '600',
    FOLIO_EXTRACTION_THREADS: '2',
    FOLIO_SEARCH_TIMEOUT: '0.5',
    FOLIO_KEY_SEARCH_CONCURRENCY: '4',
    FOLIO_ADDONS_DIR: '/opt/folio-addons',
    FOLIO_PREVIEW_CACHE_MB: '64',
  });
  assert.deepEqual(config, {
    port: 8800,
    host: '0.0.0.0',
    dataDir: '/srv/folio',
    masterKey: 'k'.repeat(20),
    logLevel: 'warn',
    logFormat: 'json',
    allowPrivateWebhooks: true,
    searchThreads: 3,
    indexThreads: 1,
    searchCacheMb: 0,
    previewCacheMb: 64,
    openCollections: 250,
    maxFileBytes: 10 * 1024 * 1024,
    rateLimit: { perSecond: 50, burst: 100 },
    keepFiles: true,
    extractionTimeoutSeconds: 600,
    extractionThreads: 2,
    searchTimeoutSeconds: 0.5,
    keySearchConcurrency: 4,
    modelsDir: '/srv/folio/models',
    addonsDir: '/opt/folio-addons',
    cluster: null,
  });
});

test('cluster mode: --cluster with --object-store and FOLIO_MASTER_KEY; the other cluster flags need them', () => {
  const env = { FOLIO_MASTER_KEY: 'k'.repeat(32), FOLIO_S3_ENDPOINT: 'http://127.0.0.1:9000' };
  const config = resolveConfig({ cluster: 'postgres://pg.internal/folio', objectStore: 's3://bucket/prod', redis: 'redis://cache:6379', clusterRole: 'replica', clusterLease: '3' }, env);
  assert.deepEqual(config.cluster, {
    postgresUrl: 'postgres://pg.internal/folio',
    objectStoreUrl: 's3://bucket/prod',
    s3Endpoint: 'http://127.0.0.1:9000',
    redisUrl: 'redis://cache:6379',
    role: 'replica',
    leaseSeconds: 3,
    graceSeconds: 600,
  });
  assert.equal(resolveConfig({ cluster: 'postgres://pg/folio', objectStore: 's3://bucket' }, env).cluster?.role, 'writer');
  assert.throws(() => resolveConfig({ cluster: 'postgres://pg/folio' }, env), /--cluster needs --object-store/);
  assert.throws(() => resolveConfig({ cluster: 'postgres://pg/folio', objectStore: 's3://bucket' }, {}), /FOLIO_MASTER_KEY/);
  assert.throws(() => resolveConfig({ redis: 'redis://cache' }, { FOLIO_MASTER_KEY: 'k'.repeat(32) }), /--redis is for cluster mode/);
  assert.throws(() => resolveConfig({ cluster: 'mysql://db', objectStore: 's3://bucket' }, env), /--cluster must be a postgres: or postgresql: URL/);
  assert.throws(() => resolveConfig({ cluster: 'postgres://pg', objectStore: 's3://bucket', clusterRole: 'leader' }, env), /--cluster-role must be 'writer' or 'replica'/);
  assert.throws(() => resolveConfig({ cluster: 'postgres://pg', objectStore: 's3://bucket', clusterLease: '0' }, env), /--cluster-lease must be seconds from 1 to 300/);
});

test('--extraction-timeout takes whole seconds from 1 to a day', () => {
  assert.equal(resolveConfig({ extractionTimeout: '30' }, { FOLIO_EXTRACTION_TIMEOUT: '600' }).extractionTimeoutSeconds, 30);
  for (const bad of ['0', '-5', '1.5', '2m', '86401']) {
    assert.throws(() => resolveConfig({ extractionTimeout: bad }, {}), (error: unknown) => error instanceof ConfigError && /--extraction-timeout/.test(error.message), bad);
  }
  assert.throws(() => resolveConfig({}, { FOLIO_KEEP_FILES: 'maybe' }), /FOLIO_KEEP_FILES/);
});

test('--open-collections takes a whole number of at least 1', () => {
  assert.equal(resolveConfig({ openCollections: '40' }, { FOLIO_OPEN_COLLECTIONS: '600' }).openCollections, 40);
  for (const bad of ['0', '-1', '2.5', 'many']) {
    assert.throws(() => resolveConfig({ openCollections: bad }, {}), (error: unknown) => error instanceof ConfigError && /--open-collections/.test(error.message), bad);
  }
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
  for (const bad of ['-1', 'soon', '', '3601']) assert.throws(() => resolveConfig({ searchTimeout: bad }, {}), /--search-timeout/, bad);
  assert.throws(() => resolveConfig({ keySearchConcurrency: '0' }, {}), /--key-search-concurrency/);
  assert.equal(resolveConfig({ searchTimeout: '0' }, {}).searchTimeoutSeconds, 0, '0 turns the limit off');
  assert.throws(() => resolveConfig({ searchCacheMb: '-1' }, {}), /--search-cache-mb/);
  assert.throws(() => resolveConfig({ rateLimit: 'fast' }, {}), (error: Error) => error instanceof ConfigError && /--rate-limit/.test(error.message));
  assert.throws(() => resolveConfig({}, { FOLIO_RATE_LIMIT: '-5/s' }), /FOLIO_RATE_LIMIT/);
});

test('--rate-limit: rate per second, optional burst (default twice the rate), off or 0 disables', () => {
  assert.deepEqual(DEFAULT_RATE_LIMIT, { perSecond: 100, burst: 200 });
  const rate = (value: string | number) => resolveConfig({ rateLimit: value }, {}).rateLimit;
  assert.deepEqual(rate('100/s'), { perSecond: 100, burst: 200 });
  assert.deepEqual(rate('100'), { perSecond: 100, burst: 200 });
  assert.deepEqual(rate(25), { perSecond: 25, burst: 50 });
  assert.deepEqual(rate('100/s,burst=500'), { perSecond: 100, burst: 500 });
  assert.deepEqual(rate(' 10 /s , burst = 3 '), { perSecond: 10, burst: 3 });
  assert.deepEqual(rate('7,burst=1'), { perSecond: 7, burst: 1 });
  assert.deepEqual(rate('0.5/s'), { perSecond: 0.5, burst: 1 });
  assert.deepEqual(rate('1.25/S'), { perSecond: 1.25, burst: 3 });
  assert.equal(rate('off'), null);
  assert.equal(rate('OFF'), null);
  assert.equal(rate('0'), null);
  assert.equal(rate(0), null);
  // The flag wins over the variable; an empty variable counts as unset.
  assert.deepEqual(resolveConfig({ rateLimit: '5/s' }, { FOLIO_RATE_LIMIT: 'off' }).rateLimit, { perSecond: 5, burst: 10 });
  assert.equal(resolveConfig({}, { FOLIO_RATE_LIMIT: 'off' }).rateLimit, null);
  assert.equal(resolveConfig({}, { FOLIO_RATE_LIMIT: '  ' }).rateLimit, undefined);
  for (const bad of ['', 'fast', '100/m', '100/s,burst=0', '100/s,burst=1.5', '100/s,burst=', '0/s,burst=5', '-1', '1e3', '2000000/s', '100/s,burst=2000000', '100/s;burst=2', 'burst=200']) {
    assert.throws(() => rate(bad), (error: Error) => error instanceof ConfigError && /--rate-limit/.test(error.message) && error.message.includes(`'${bad}'`), bad);
  }
});

test('--max-file-size takes bytes or a binary unit, and names itself when wrong', () => {
  assert.equal(resolveConfig({ maxFileSize: '1048576' }, {}).maxFileBytes, 1_048_576);
  assert.equal(resolveConfig({ maxFileSize: '2gib' }, {}).maxFileBytes, 2 * 1024 ** 3);
  assert.equal(resolveConfig({ maxFileSize: '5 MB' }, {}).maxFileBytes, 5 * 1024 ** 2);
  assert.throws(() => resolveConfig({ maxFileSize: '0' }, {}), /--max-file-size/);
  assert.throws(() => resolveConfig({}, { FOLIO_MAX_FILE_SIZE: 'big' }), /FOLIO_MAX_FILE_SIZE/);
});
