// Unit tests of the master key: the generated format, unbiased base62, the 0600 key file
// created once and then reused, and the environment variable taking precedence.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateMasterKey, MASTER_KEY_FILE, resolveMasterKey } from './master-key.ts';
import { randomBase62 } from './secret-tokens.ts';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'folio-key-'));
});
after(() => rm(root, { recursive: true, force: true }));

test('a generated key is folio_ + 40 base62 characters, different every time', () => {
  const keys = new Set(Array.from({ length: 100 }, generateMasterKey));
  assert.equal(keys.size, 100);
  for (const key of keys) assert.match(key, /^folio_[0-9A-Za-z]{40}$/);
});

test('base62 characters are uniformly distributed (no modulo bias)', () => {
  const counts = new Map<string, number>();
  const sample = randomBase62(62 * 2_000);
  for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
  assert.equal(counts.size, 62);
  // Expected 2,000 each; with modulo bias the first 8 characters would get about 2,420.
  for (const [char, count] of counts) assert.ok(count > 1_700 && count < 2_300, `${char}: ${count}`);
});

test('first resolve generates the key file with mode 0600; later ones read it', async () => {
  const dataDir = join(root, 'fresh', 'nested');
  const first = await resolveMasterKey(dataDir);
  assert.equal(first.source, 'generated');
  const file = join(dataDir, MASTER_KEY_FILE);
  assert.equal((await readFile(file, 'utf8')).trim(), first.key);
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  const second = await resolveMasterKey(dataDir);
  assert.deepEqual(second, { key: first.key, source: 'file', file });
});

test('FOLIO_MASTER_KEY wins and writes no file; short keys are refused', async () => {
  const dataDir = join(root, 'env');
  const resolved = await resolveMasterKey(dataDir, 'a-long-enough-master-key');
  assert.deepEqual(resolved, { key: 'a-long-enough-master-key', source: 'environment' });
  assert.equal(existsSync(join(dataDir, MASTER_KEY_FILE)), false);
  await assert.rejects(resolveMasterKey(dataDir, 'short'), /FOLIO_MASTER_KEY/);
});

test('an empty key file is an error, not a silently weak key', async () => {
  const dataDir = join(root, 'empty');
  await resolveMasterKey(dataDir);
  await writeFile(join(dataDir, MASTER_KEY_FILE), '\n');
  await assert.rejects(resolveMasterKey(dataDir), /master\.key/);
});
