// The `folio` command's saved settings: `$XDG_CONFIG_HOME/folio/config.json` (else
// `~/.config/folio/config.json`) holding the server URL and the API key `folio auth login`
// created. It holds a secret, so the folder is made 0700 and the file is written 0600,
// atomically (a temporary file, fsync, rename, fsync of the folder): a crash leaves the old
// file or the new one, never half of one.

import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { CliError } from './errors.ts';

export interface SavedConfig {
  url: string;
  api_key: string;
  /** The id of the key, so it can be found in `folio keys list`. */
  key_id?: string;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** Where the config file is. XDG says a relative XDG_CONFIG_HOME is to be ignored. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.config');
  return join(base, 'folio', 'config.json');
}

/** The saved config, or null when there is none yet. */
export async function readConfig(path: string = configPath()): Promise<SavedConfig | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError('invalid_config', `${path} is not valid JSON; run 'folio auth login' to write it again`);
  }
  const config = parsed as Partial<SavedConfig> | null;
  if (config === null || typeof config !== 'object' || typeof config.url !== 'string' || typeof config.api_key !== 'string') {
    throw new CliError('invalid_config', `${path} lacks url or api_key; run 'folio auth login' to write it again`);
  }
  return config as SavedConfig;
}

/** Replaces the config file atomically, readable by its owner only. */
export async function writeConfig(config: SavedConfig, path: string = configPath()): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  await chmod(dir, DIR_MODE);
  const temporary = join(dir, `.config.json.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const file = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, FILE_MODE);
    try {
      await file.chmod(FILE_MODE);
      await file.writeFile(`${JSON.stringify(config, null, 2)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const folder = await open(dir, constants.O_RDONLY);
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
