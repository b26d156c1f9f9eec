// The master key (docs/api.md, "API keys, sessions and rate limits"): taken from FOLIO_MASTER_KEY, else read from `<data>/master.key`,
// else generated on first start — `folio_` + 40 base62 characters (≈ 238 bits) — and written
// to that file with mode 0600. Only the caller that created it gets `generated: true`, so the
// key is shown once on the console and never logged or sent anywhere after.

import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBase62 } from './secret-tokens.ts';

export const MASTER_KEY_FILE = 'master.key';
export const MASTER_KEY_PREFIX = 'folio_';
export const MASTER_KEY_RANDOM_CHARS = 40;
/** Shortest master key accepted from the environment or the key file. */
export const MIN_MASTER_KEY_LENGTH = 16;

const KEY_FILE_MODE = 0o600;

export function generateMasterKey(): string {
  return MASTER_KEY_PREFIX + randomBase62(MASTER_KEY_RANDOM_CHARS);
}

export interface ResolvedMasterKey {
  key: string;
  source: 'environment' | 'file' | 'generated';
  /** The key file, when the key lives in one. */
  file?: string;
}

function checkLength(key: string, source: string): string {
  if (key.length < MIN_MASTER_KEY_LENGTH) {
    throw new Error(`${source} holds a master key shorter than ${MIN_MASTER_KEY_LENGTH} characters`);
  }
  return key;
}

async function readKeyFile(file: string): Promise<string> {
  return checkLength((await readFile(file, 'utf8')).trim(), MASTER_KEY_FILE);
}

/** Creates the key file exclusively, so two servers starting at once cannot both write one. */
async function createKeyFile(dataDir: string, file: string, key: string): Promise<boolean> {
  await mkdir(dataDir, { recursive: true });
  let handle;
  try {
    handle = await open(file, 'wx', KEY_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(`${key}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  const directory = await open(dataDir, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
  return true;
}

export async function resolveMasterKey(dataDir: string, fromEnvironment?: string): Promise<ResolvedMasterKey> {
  if (fromEnvironment !== undefined) {
    return { key: checkLength(fromEnvironment, 'FOLIO_MASTER_KEY'), source: 'environment' };
  }
  const file = join(dataDir, MASTER_KEY_FILE);
  try {
    return { key: await readKeyFile(file), source: 'file', file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = generateMasterKey();
  if (await createKeyFile(dataDir, file, key)) return { key, source: 'generated', file };
  return { key: await readKeyFile(file), source: 'file', file };
}
