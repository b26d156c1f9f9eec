// `folio keys create|list|delete`: API keys (docs/api.md, "API keys, sessions and rate limits"). `create` prints the new key once, alone
// on standard output (so `KEY=$(folio keys create …)` works), with what it may do on
// standard error (`--filter`: a key that sees only the documents matching it, docs/api.md
// "Keys with a filter"); `list` shows the records, never the keys.

import type { Command } from 'commander';
import type { ApiKey } from '../../clients/typescript/index.ts';
import { jsonObjectArgument, listArgument } from '../arguments.ts';
import { connect } from '../connect.ts';
import { action } from '../errors.ts';
import { formatTime } from '../../format/index.ts';
import { colorEnabled, note, paint, printJson, printTable, say } from '../output.ts';
import { addDeleteCommand, addListCommand } from '../resource-commands.ts';

interface CreateOptions {
  name?: string;
  scopes?: string[];
  collections?: string[];
  filter?: Record<string, unknown>;
  json?: boolean;
}

function describeCollections(key: Pick<ApiKey, 'collections'>): string {
  return key.collections === null ? 'all' : key.collections.join(', ');
}

async function create(options: CreateOptions): Promise<void> {
  const client = await connect();
  const created = await client.createKey({
    ...(options.name !== undefined && { name: options.name }),
    ...(options.scopes !== undefined && { scopes: options.scopes as ApiKey['scopes'] }),
    ...(options.collections !== undefined && { collections: options.collections }),
    ...(options.filter !== undefined && { filter: options.filter }),
  });
  if (options.json) return printJson(created);
  const color = colorEnabled(process.stderr);
  const sees = created.filter === null ? '' : `; sees only documents matching ${JSON.stringify(created.filter)}`;
  note(`Created API key ${created.id} "${created.name}": scopes ${created.scopes.join(', ')}; collections: ${describeCollections(created)}${sees}.`);
  note(paint('Copy the key now: it is not shown again.', 'bold', color));
  say(created.key);
}

async function list(options: { json?: boolean }): Promise<void> {
  const { keys } = await (await connect()).listKeys();
  if (options.json) return printJson({ keys });
  if (keys.length === 0) return note("No API keys. Create one with 'folio keys create --name NAME'.");
  const rows = keys.map((key) => [
    key.id,
    key.name,
    `${key.prefix}…`,
    key.scopes.join(','),
    describeCollections(key),
    key.filter === null ? '' : JSON.stringify(key.filter),
    formatTime(key.created_at),
    formatTime(key.last_used_at),
    formatTime(key.expires_at),
  ]);
  const header = ['ID', 'NAME', 'PREFIX', 'SCOPES', 'COLLECTIONS', 'FILTER', 'CREATED', 'LAST USED', 'EXPIRES'];
  printTable(header, rows);
}

async function remove(id: string): Promise<void> {
  await (await connect()).deleteKey(id);
  say(`Deleted API key ${id}.`);
}

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('manage API keys');
  keys
    .command('create')
    .description('create an API key and print it (this once)')
    .option('--name <name>', 'a name to tell the key apart (default "key")')
    .option('--scopes <list>', 'comma-separated: search, write, admin (default search,write)', listArgument)
    .option('--collections <list>', 'comma-separated collections the key is limited to (default all)', listArgument)
    .option('--filter <json>', 'the key sees only documents matching this filter, e.g. \'{"tenant":"acme"}\' (search scope only)', jsonObjectArgument)
    .option('--json', "print the server's JSON answer (key included)")
    .action(action(create));
  addListCommand(keys, 'list API keys (never the keys themselves)', list);
  addDeleteCommand(keys, 'delete an API key; it stops working at once', ['<id>', "the key's id (key_…)"], remove);
}
