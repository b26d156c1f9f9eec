// Which server and key a `folio` command uses: FOLIO_URL and FOLIO_API_KEY when set (for
// that one command), else the config file `folio auth login` wrote. The saved key is only
// ever sent to the saved URL: FOLIO_URL naming another server needs FOLIO_API_KEY too.
// `connect()` turns that into a FolioClient, or explains that `folio auth login` is needed.

import { FolioClient } from '../clients/typescript/index.ts';
import { urlArgument } from './arguments.ts';
import { configPath, readConfig } from './config-file.ts';
import { CliError, UsageError } from './errors.ts';

/** Where a setting came from, for `folio config list`. */
export type SettingSource = 'FOLIO_URL' | 'FOLIO_API_KEY' | 'config file';

export interface Connection {
  url?: string;
  apiKey?: string;
  urlSource?: SettingSource;
  keySource?: SettingSource;
  /** The config file's path (whether or not it exists). */
  file: string;
}

/** How many times a request refused with 429 is retried (after its Retry-After). */
const MAX_RETRIES = 5;

/** The server URL and key in effect, and where each came from. */
export async function resolveConnection(env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  const file = configPath(env);
  const saved = await readConfig(file);
  const connection: Connection = { file };
  if (env.FOLIO_URL) {
    try {
      connection.url = urlArgument(env.FOLIO_URL);
    } catch (error) {
      throw new UsageError(`FOLIO_URL: ${(error as Error).message}`);
    }
    connection.urlSource = 'FOLIO_URL';
  } else if (saved !== null) {
    connection.url = saved.url;
    connection.urlSource = 'config file';
  }
  if (env.FOLIO_API_KEY) {
    connection.apiKey = env.FOLIO_API_KEY;
    connection.keySource = 'FOLIO_API_KEY';
  } else if (saved !== null && saved.url === connection.url) {
    connection.apiKey = saved.api_key;
    connection.keySource = 'config file';
  }
  return connection;
}

/** A client for the server in effect; without a URL and key, an error saying what to do. */
export async function connect(): Promise<FolioClient> {
  const { url, apiKey } = await resolveConnection();
  if (url === undefined) {
    throw new CliError('not_logged_in', "no server configured: run 'folio auth login' (or set FOLIO_URL and FOLIO_API_KEY)");
  }
  if (apiKey === undefined) {
    throw new CliError('not_logged_in', `no API key for ${url}: run 'folio auth login --url ${url}' or set FOLIO_API_KEY`);
  }
  return new FolioClient({ url, apiKey, maxRetries: MAX_RETRIES });
}
