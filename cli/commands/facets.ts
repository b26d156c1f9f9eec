// `folio facets <collection> <field> [typed]`: the values of a facet field with a word starting
// with what is typed (typo-tolerant; docs/api.md "Facet value search"), each with its count, most
// first; `--query` and `--filter` count among the documents they match; `--json` prints the
// server's answer as it is.

import type { Command } from 'commander';
import { integerArgument, jsonObjectArgument } from '../arguments.ts';
import { connect } from '../connect.ts';
import { action } from '../errors.ts';
import { clean, printJson, say } from '../output.ts';
import { typosArgument } from './search.ts';

/** Values the server returns at most (docs/api.md, "Facet value search"). */
const MAX_VALUES = 100;

interface FacetsOptions {
  query?: string;
  filter?: Record<string, unknown>;
  limit?: number;
  typos?: 'auto' | 0 | 1 | 2;
  json?: boolean;
}

async function facets(collection: string, field: string, typed: string | undefined, options: FacetsOptions): Promise<void> {
  const client = await connect();
  const answer = await client.facetSearch(collection, field, typed ?? '', {
    ...(options.query !== undefined && { query: options.query }),
    ...(options.filter !== undefined && { filter: options.filter }),
    ...(options.limit !== undefined && { limit: options.limit }),
    ...(options.typos !== undefined && { typos: options.typos }),
  });
  if (options.json) return printJson(answer);
  const what = typed === undefined || typed === '' ? `Values of ${field}` : `Values of ${field} matching "${typed}"`;
  if (answer.values.length === 0) return say(clean(`${what}: none (${answer.took_ms} ms).`));
  say(clean(`${what} (${answer.took_ms} ms):`));
  const width = Math.max(...answer.values.map(({ count }) => String(count).length));
  for (const { value, count } of answer.values) say(clean(`  ${String(count).padStart(width)}  ${String(value)}`));
}

export function registerFacets(program: Command): void {
  program
    .command('facets')
    .description("find a facet's values as you type, with their counts")
    .argument('<collection>', 'the collection')
    .argument('<field>', 'the metadata field')
    .argument('[typed]', 'the start of a word of the values ("kn" finds "Donald Knuth"); none: the most frequent values')
    .option('--query <words>', 'count among the documents these words match')
    .option('--filter <json>', 'count among the documents this filter admits', jsonObjectArgument)
    .option('--limit <n>', `values to show (1-${MAX_VALUES}, default 10)`, integerArgument(1, MAX_VALUES))
    .option('--typos <n>', "typos per word: auto (the collection's setting), 0 (off), 1 or 2", typosArgument)
    .option('--json', "print the server's JSON answer")
    .action(action(facets));
}
