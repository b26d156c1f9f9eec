// `folio documents list|get|delete`: what a collection holds (docs/api.md, "Listing documents"). `list` prints a page
// of documents in id order (id, what it is called, format, pages, size, when indexed) and the
// command for the next page, or every document with `--all`; `get` prints one document's
// summary, metadata and text; `delete` removes one. `--json` prints the server's answers.

import type { Command } from 'commander';
import type { ListedDocument, StoredDocument } from '../../clients/typescript/index.ts';
import { integerArgument, jsonObjectArgument } from '../arguments.ts';
import { connect } from '../connect.ts';
import { action } from '../errors.ts';
import { formatBytes, formatTime } from '../../format/index.ts';
import { clean, colorEnabled, documentName, note, paint, printJson, printTable, say } from '../output.ts';

const MAX_LIST_LIMIT = 1000;

interface ListOptions {
  limit?: number;
  cursor?: string;
  filter?: Record<string, unknown>;
  all?: boolean;
  json?: boolean;
}

function row(document: ListedDocument): string[] {
  return [
    document.id,
    documentName(document) ?? '-',
    document.format ?? '-',
    document.pages === null || document.pages === undefined ? '-' : String(document.pages),
    document.bytes === undefined ? '-' : formatBytes(document.bytes),
    formatTime(document.indexed_at),
  ];
}

const HEADER = ['ID', 'TITLE OR PATH', 'FORMAT', 'PAGES', 'SIZE', 'INDEXED'];

async function list(collection: string, options: ListOptions): Promise<void> {
  const client = await connect();
  const filter = options.filter === undefined ? {} : { filter: options.filter };
  if (options.all === true) {
    const documents: ListedDocument[] = [];
    for await (const document of client.allDocuments(collection, { ...filter, limit: options.limit ?? 100 })) {
      if (options.json) process.stdout.write(`${JSON.stringify(document)}\n`);
      else documents.push(document);
    }
    if (options.json) return;
    if (documents.length === 0) return note(`No documents in ${collection}.`);
    return printTable(HEADER, documents.map(row));
  }
  const page = await client.listDocuments(collection, { ...filter, ...(options.limit !== undefined && { limit: options.limit }), ...(options.cursor !== undefined && { cursor: options.cursor }) });
  if (options.json) return printJson(page);
  if (page.documents.length === 0) return note(`No documents in ${collection}${options.cursor === undefined ? '' : ' after this cursor'}.`);
  printTable(HEADER, page.documents.map(row));
  if (page.next_cursor !== null) note(`More: --cursor ${page.next_cursor}`);
}

async function get(collection: string, id: string, options: { json?: boolean }): Promise<void> {
  const document: StoredDocument = await (await connect()).getDocument(collection, id);
  if (options.json) return printJson(document);
  const color = colorEnabled(process.stdout);
  const pages = document.page_list === null ? '' : ` · ${document.page_list.length} ${document.page_list.length === 1 ? 'page' : 'pages'}`;
  say(paint(clean(document.title ?? id), 'bold', color));
  say(paint(clean(`${document.id} · ${document.format}${pages} · ${formatBytes(document.bytes)} · indexed ${formatTime(document.indexed_at)}`), 'dim', color));
  for (const [field, value] of Object.entries(document.metadata)) say(clean(`  ${field}: ${Array.isArray(value) ? value.join(', ') : String(value)}`));
  // Line breaks kept, every other control character cleaned.
  if (document.text !== '') say(`\n${document.text.split('\n').map(clean).join('\n')}`);
}

async function remove(collection: string, id: string): Promise<void> {
  await (await connect()).deleteDocument(collection, id);
  say(`Deleted ${id} from ${collection}.`);
}

export function registerDocuments(program: Command): void {
  const documents = program.command('documents').description('list, show and delete the documents of a collection');
  documents
    .command('list')
    .description('list documents in id order, a page at a time')
    .argument('<collection>', 'the collection')
    .option('--limit <n>', `documents per page (1-${MAX_LIST_LIMIT}, default 20)`, integerArgument(1, MAX_LIST_LIMIT))
    .option('--cursor <cursor>', 'continue after the previous page (printed under it)')
    .option('--filter <json>', 'metadata filter, e.g. \'{"format":"pdf"}\'', jsonObjectArgument)
    .option('--all', 'every document, not one page (with --json: one JSON document per line)')
    .option('--json', "print the server's JSON answer")
    .action(action(list));
  documents
    .command('get')
    .description("show a document's summary, metadata and text")
    .argument('<collection>', 'the collection')
    .argument('<id>', 'the document id')
    .option('--json', "print the server's JSON answer")
    .action(action(get));
  documents
    .command('delete')
    .description('delete a document')
    .argument('<collection>', 'the collection')
    .argument('<id>', 'the document id')
    .action(action(remove));
}
