// `folio config list`: the server URL and API key the next command would use, the key
// masked (`folio_AbCd…wxyz`), where each comes from (FOLIO_URL / FOLIO_API_KEY or the
// config file), and the config file's path.

import type { Command } from 'commander';
import { resolveConnection } from '../connect.ts';
import { action } from '../errors.ts';
import { maskSecret, note, printTable } from '../output.ts';

async function list(): Promise<void> {
  const connection = await resolveConnection();
  const from = (source: string | undefined) => (source === undefined ? '' : `(${source})`);
  const rows = [
    ['url', connection.url ?? '(not set)', from(connection.urlSource)],
    ['api_key', connection.apiKey === undefined ? '(not set)' : maskSecret(connection.apiKey), from(connection.keySource)],
    ['file', connection.file, ''],
  ];
  printTable(['SETTING', 'VALUE', 'FROM'], rows);
  if (connection.url === undefined || connection.apiKey === undefined) {
    note("Run 'folio auth login' to save a server URL and API key.");
  }
}

export function registerConfig(program: Command): void {
  const config = program.command('config').description('show the saved settings');
  config
    .command('list')
    .description('show the server URL and API key in use (the key masked) and where they come from')
    .action(action(list));
}
