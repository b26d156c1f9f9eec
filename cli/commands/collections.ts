// `folio collections create|list|settings|delete`: collections (docs/api.md, "Collections"),
// each an independent index with its own language; `settings` shows a collection's search
// settings and changes them (`--set` a settings object as PATCH takes it, `--synonyms` a JSON
// file of synonym entries, which replaces the list).

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Collection, UpdateCollectionBody } from '../../clients/typescript/index.ts';
import { jsonObjectArgument } from '../arguments.ts';
import { connect } from '../connect.ts';
import { UsageError, action } from '../errors.ts';
import { formatBytes, formatTime } from '../../format/index.ts';
import { note, printJson, printTable, say } from '../output.ts';
import { addDeleteCommand, addListCommand } from '../resource-commands.ts';

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

/** `--synonyms FILE`: a JSON array of entries, or an object with a `synonyms` array. */
function readSynonymsFile(file: string): UpdateCollectionBody['synonyms'] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--synonyms: cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const entries = Array.isArray(parsed) ? parsed : (parsed as { synonyms?: unknown } | null)?.synonyms;
  if (!Array.isArray(entries)) throw new UsageError('--synonyms: expected a JSON array of entries such as [{"words": ["laptop", "notebook"]}]');
  return entries as UpdateCollectionBody['synonyms'];
}

/** The settings as a person reads them. */
function describeSettings(collection: Collection): string {
  const { typo_tolerance: typos, embedders, synonyms, searchable_fields: fields } = collection.settings;
  const lines = [`Settings of ${collection.name} (${collection.language}):`];
  lines.push(`  searchable fields: ${fields.map(({ field, weight }) => `${field} ×${weight}`).join(', ')}`);
  const reindexing = collection.reindexing;
  if (reindexing !== null) {
    const share = reindexing.documents_total === 0 ? 0 : Math.floor((100 * reindexing.documents_done) / reindexing.documents_total);
    lines.push(`    indexing ${reindexing.fields.join(', ')}: ${reindexing.documents_done} of ${reindexing.documents_total} documents (${share} %); searched once done`);
  }
  const sizes = `one typo from ${typos.min_word_size.one_typo} letters, two from ${typos.min_word_size.two_typos}`;
  const exact = [...(typos.disable_on_numbers ? ['numbers'] : []), ...typos.disable_on_fields];
  lines.push(`  typo tolerance: ${typos.enabled ? `on, ${sizes}${exact.length > 0 ? `; exact on ${exact.join(', ')}` : ''}` : 'off'}`);
  const names = Object.entries(embedders).map(([name, embedder]) => `${name} (${embedder.source}${embedder.source === 'user' ? `, ${embedder.dimensions} dimensions` : `: ${embedder.model}`})`);
  lines.push(`  embedders: ${names.length === 0 ? 'none' : names.join(', ')}`);
  lines.push(`  synonyms: ${synonyms.length === 0 ? 'none' : `${synonyms.length} ${synonyms.length === 1 ? 'entry' : 'entries'}`}`);
  for (const entry of synonyms.slice(0, SYNONYMS_SHOWN)) {
    lines.push(`    ${entry.input === undefined ? entry.words.join(' = ') : `${entry.input.join(', ')} -> ${entry.words.join(', ')}`}`);
  }
  if (synonyms.length > SYNONYMS_SHOWN) lines.push(`    … and ${synonyms.length - SYNONYMS_SHOWN} more (--json shows them all)`);
  return lines.join('\n');
}

/** Synonym entries listed by `settings` before it says how many more there are. */
const SYNONYMS_SHOWN = 20;

async function settings(name: string, options: { set?: Record<string, unknown>; synonyms?: string; json?: boolean }): Promise<void> {
  const client = await connect();
  const patch: UpdateCollectionBody = { ...(options.set as UpdateCollectionBody | undefined) };
  if (options.synonyms !== undefined) patch.synonyms = readSynonymsFile(options.synonyms);
  const changing = Object.keys(patch).length > 0;
  const collection = changing ? await client.updateCollection(name, patch) : await client.getCollection(name);
  if (options.json) return printJson(collection.settings);
  if (changing) say(`Changed the settings of ${name}; searches use them now${collection.reindexing === null ? '' : ' (new metadata fields once they are indexed)'}.`);
  say(describeSettings(collection));
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
  addListCommand(collections, 'list collections with their size', list);
  collections
    .command('settings')
    .description("show a collection's search settings, or change them")
    .argument('<name>', 'the collection')
    .option('--set <json>', 'settings to change, as PATCH takes them, e.g. \'{"typo_tolerance":{"enabled":false}}\'', jsonObjectArgument)
    .option('--synonyms <file>', 'a JSON file of synonym entries (- for standard input); replaces the list')
    .option('--json', 'print the settings as JSON')
    .action(action(settings));
  addDeleteCommand(collections, 'delete a collection and every document in it', ['<name>', 'the collection'], remove);
}
