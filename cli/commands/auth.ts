// `folio auth login`: trades the master key (typed hidden, or read from standard input) for
// a session, creates an admin API key named after this machine with it, closes the session
// and saves the server URL and the key in the config file. The master key itself is never
// stored or sent anywhere but to POST /v1/sessions.

import { hostname } from 'node:os';
import type { Command } from 'commander';
import { FolioClient } from '../../clients/typescript/index.ts';
import { urlArgument } from '../arguments.ts';
import { configPath, readConfig, writeConfig } from '../config-file.ts';
import { resolveConnection } from '../connect.ts';
import { action, CliError, UsageError } from '../errors.ts';
import { maskSecret, say } from '../output.ts';
import { readSecret } from '../prompt.ts';

const DEFAULT_URL = 'http://127.0.0.1:7700';
/** Key names are 1–100 characters (docs/api.md). */
const MAX_KEY_NAME = 100;

interface LoginOptions {
  url?: string;
}

/** The URL to log in to: --url, else FOLIO_URL, else the saved one, else the local default. */
async function loginUrl(options: LoginOptions): Promise<string> {
  if (options.url !== undefined) return options.url;
  // A damaged config file is what logging in again repairs, so it is no reason to stop.
  const connection = await resolveConnection().catch((error: unknown) => {
    if (error instanceof CliError && error.code === 'invalid_config') return undefined;
    throw error;
  });
  return connection?.url ?? DEFAULT_URL;
}

async function login(options: LoginOptions): Promise<void> {
  const url = await loginUrl(options);
  const masterKey = await readSecret(`Master key for ${url}: `);
  if (masterKey === '') throw new UsageError('no master key given (type it at the prompt, or pipe it to standard input)');

  const session = await new FolioClient({ url }).createSession(masterKey);
  const asSession = new FolioClient({ url, apiKey: session.token });
  let created;
  try {
    const name = (hostname() || 'folio-cli').slice(0, MAX_KEY_NAME);
    created = await asSession.createKey({ name, scopes: ['admin'] });
  } finally {
    await asSession.deleteSession().catch(() => undefined);
  }

  const file = configPath();
  const previous = await readConfig(file).catch(() => null);
  await writeConfig({ url, api_key: created.key, key_id: created.id }, file);
  say(`Logged in to ${url} with a new admin key "${created.name}" (${created.id}, ${maskSecret(created.key)}).`);
  say(`Saved to ${file}.`);
  if (previous?.key_id !== undefined && previous.url === url) {
    say(`The key saved before (${previous.key_id}) still works; remove it with 'folio keys delete ${previous.key_id}' if it is no longer needed.`);
  }
}

export function registerAuth(program: Command): void {
  const auth = program.command('auth').description('log in to a Folio server');
  auth
    .command('login')
    .description('create an admin API key with the master key and save it with the server URL')
    .option('--url <url>', `server URL (default: FOLIO_URL, the saved URL, or ${DEFAULT_URL})`, urlArgument)
    .addHelpText(
      'after',
      '\nThe master key is asked for without echo on a terminal, or read from standard input:\n' +
        '  folio auth login --url http://127.0.0.1:7700 < folio-data/master.key',
    )
    .action(action(login));
}
