// `folio collections create|list|delete`: collections (SPEC §4), each an independent index
// with its own language.

import type { Command } from 'commander';
import { connect } from '../connect.ts';
import { action } from '../errors.ts';
import { formatBytes, formatTime, note, printJson, printTable, say } from '../output.ts';

async function create(name: string, options: { language?: string; json?: boolean }): Promise<void> {
  const client = await connect();
  const collection = await client.createCollection(name, options.language === undefined ? {} : { language: options.language });
  if (options.json) return printJson(collection);
  say(`Created collection ${collection.name} (${collection.language}).`);
}

async function list(options: { json?: boolean }): Promise<void> {
  const { collections } = await (await connect()).listCollections();
  if (options.json) return printJson({ collections });
  if (collections.length === 0) return note("No collections. Create one with 'folio collections create NAME'.");
  const rows = collections.map((collection) => [
    collection.name,
    collection.language,
    String(collection.documents),
    formatBytes(collection.size_bytes),
    String(collection.segments),
    formatTime(collection.created_at),
  ]);
  const header = ['NAME', 'LANGUAGE', 'DOCUMENTS', 'SIZE', 'SEGMENTS', 'CREATED'];
  printTable(header, rows);
}

async function remove(name: string): Promise<void> {
  await (await connect()).deleteCollection(name);
  say(`Deleted collection ${name}.`);
}

export function registerCollections(program: Command): void {
  const collections = program.command('collections').description('manage collections');
  collections
    .command('create')
    .description('create a collection')
    .argument('<name>', 'lower-case letters, digits, _ and - (at most 64)')
    .option('--language <language>', 'stemming language, fixed for good (default english; none turns stemming off)')
    .option('--json', "print the server's JSON answer")
    .action(action(create));
  collections
    .command('list')
    .description('list collections with their size')
    .option('--json', "print the server's JSON answer")
    .action(action(list));
  collections
    .command('delete')
    .description('delete a collection and every document in it')
    .argument('<name>', 'the collection')
    .action(action(remove));
}
