// `folio search <collection>[,<collection>…] <query>`: a readable list of hits (rank, title or path or id,
// page and its printed label, the other matching pages, score, and the highlighted snippet,
// matched words bold yellow on a terminal), then the facet counts; `--match all` asks for
// every word; with no hits, the server's suggestions ("did you mean");
// `--typos` sets typo tolerance for the search, `--prefix last` searches as you type,
// `--no-synonyms` leaves the collection's synonyms out, `--boost` ranks by fields, `--distinct`
// groups by a field, `--search-fields` chooses and weighs the fields searched,
// `--semantic` / `--hybrid` search by meaning (notes say when documents are still being
// embedded); `--json` prints the server's answer as it is, for scripts. Several collections,
// comma-separated, are searched as one (a federated multi-search: hits merged by score, each
// naming its collection, facets per collection).

import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import type { FederatedSearchResponse, MultiSearchQuery, SearchHit, SearchOptions as SearchOptionsOfClient, SearchResponse } from '../../clients/typescript/index.ts';
import { integerArgument, jsonArrayArgument, jsonObjectArgument, listArgument } from '../arguments.ts';
import { connect } from '../connect.ts';
import { UsageError, action } from '../errors.ts';
import { clean, colorEnabled, documentName, paint, printJson, renderHighlight, say } from '../output.ts';

/** Largest `limit` and `offset` the server takes (docs/api.md, Limits). */
const MAX_LIMIT = 100;
const MAX_OFFSET = 9_999;
const MAX_GROUP_SIZE = 100;

interface SearchOptions {
  filter?: Record<string, unknown>;
  facets?: string[];
  limit?: number;
  offset?: number;
  sort?: string;
  typos?: TypoOption;
  prefix?: PrefixOption;
  semantic?: boolean;
  hybrid?: boolean;
  ratio?: number;
  embedder?: string;
  match?: MatchOption;
  /** False with `--no-synonyms`. */
  synonyms?: boolean;
  boost?: unknown[];
  distinct?: string;
  groupSize?: number;
  searchFields?: string[];
  json?: boolean;
}

type MatchOption = 'any' | 'all';

/** `--match`: `any` or `all`. */
export function matchArgument(value: string): MatchOption {
  const text = value.trim();
  if (text === 'any' || text === 'all') return text;
  throw new InvalidArgumentError('expected any or all');
}

type TypoOption = 'auto' | 0 | 1 | 2;

/** `--typos`: `auto`, 0, 1 or 2. */
export function typosArgument(value: string): TypoOption {
  const text = value.trim();
  if (text === 'auto') return 'auto';
  if (text === '0' || text === '1' || text === '2') return Number(text) as TypoOption;
  throw new InvalidArgumentError('expected auto, 0, 1 or 2');
}

type PrefixOption = 'none' | 'last';

/** `--prefix`: `none` or `last`. */
export function prefixArgument(value: string): PrefixOption {
  const text = value.trim();
  if (text === 'none' || text === 'last') return text;
  throw new InvalidArgumentError('expected none or last');
}

/** What a hit is called: its title, else the file path `folio index` stored, else its id. */
function hitName(hit: SearchHit): string {
  return documentName(hit) ?? hit.id;
}

/**
 * `page 3`, or `page 3 (printed iv)` when the page's printed label says something else, then
 * the other pages that match (`also pages 5, 9`); '' without pages.
 */
export function pageText(hit: Pick<SearchHit, 'page' | 'page_label' | 'matched_pages'>): string {
  if (hit.page === null || hit.page === undefined) return '';
  const label = hit.page_label != null && hit.page_label !== String(hit.page) ? ` (printed ${hit.page_label})` : '';
  const others = (hit.matched_pages ?? []).filter((page) => page !== hit.page);
  const shown = others.slice(0, MAX_OTHER_PAGES).join(', ') + (others.length > MAX_OTHER_PAGES ? `, … (${others.length} in all)` : '');
  const also = others.length === 0 ? '' : ` · also ${others.length === 1 ? 'page' : 'pages'} ${shown}`;
  return `page ${hit.page}${label}${also}`;
}

/** Other matching pages listed after a hit's page before the rest are counted. */
const MAX_OTHER_PAGES = 8;

/** The hits as numbered entries: name, a line of details (with its collection, when several are searched), the snippet. */
export function renderHits(answer: { hits: (SearchHit & { collection?: string })[]; offset: number }, color: boolean): string {
  const width = String(answer.offset + answer.hits.length).length;
  return answer.hits
    .map((hit, index) => {
      const rank = `${String(answer.offset + index + 1).padStart(width)}.`;
      const name = clean(hitName(hit));
      const details = [hit.collection ?? '', hit.format === 'text' ? '' : (hit.format ?? ''), pageText(hit), `score ${hit.score.toFixed(3)}`, name === hit.id ? '' : hit.id];
      const lines = [`${rank} ${paint(name, 'bold', color)}`, `${' '.repeat(width + 2)}${paint(clean(details.filter(Boolean).join(' · ')), 'dim', color)}`];
      const snippet = renderHighlight(hit.highlight ?? '', color).trim();
      if (snippet !== '') lines.push(`${' '.repeat(width + 2)}${snippet}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

/** Each facet field with its values by count (most first), and min/max for numbers. */
export function renderFacets(answer: Pick<SearchResponse, 'facets' | 'facet_stats'>): string {
  return Object.entries(answer.facets)
    .map(([field, counts]) => {
      const values = Object.entries(counts)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([value, count]) => `${value} (${count})`);
      const stats = answer.facet_stats?.[field];
      const range = stats === undefined ? '' : `  [min ${stats.min}, max ${stats.max}]`;
      return clean(`  ${field}: ${values.length === 0 ? '-' : values.join(', ')}${range}`);
    })
    .join('\n');
}

/** `--ratio`: a number from 0 to 1. */
export function ratioArgument(value: string): number {
  const ratio = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
  return ratio;
}

async function search(collectionList: string, query: string, options: SearchOptions): Promise<void> {
  if (options.semantic === true && options.hybrid === true) throw new UsageError('choose --semantic or --hybrid, not both');
  if (options.ratio !== undefined && options.hybrid !== true) throw new UsageError('--ratio applies to --hybrid searches');
  const mode = options.semantic === true ? 'semantic' : options.hybrid === true ? 'hybrid' : undefined;
  const collections = [...new Set(collectionList.split(',').map((name) => name.trim()).filter((name) => name !== ''))];
  if (collections.length === 0) throw new UsageError('name a collection, or several separated by commas');
  const params: SearchOptionsOfClient = {
    ...(options.filter !== undefined && { filter: options.filter }),
    ...(options.facets !== undefined && { facets: options.facets }),
    ...(options.typos !== undefined && { typos: options.typos }),
    ...(options.prefix !== undefined && { prefix: options.prefix }),
    ...(mode !== undefined && { mode }),
    ...(options.ratio !== undefined && { semantic_ratio: options.ratio }),
    ...(options.embedder !== undefined && { embedder: options.embedder }),
    ...(options.match !== undefined && { match: options.match }),
    ...(options.synonyms === false && { synonyms: false }),
    ...(options.boost !== undefined && { boost: options.boost as NonNullable<SearchOptionsOfClient['boost']> }),
    ...(options.distinct !== undefined && { distinct: options.distinct }),
    ...(options.groupSize !== undefined && { group_size: options.groupSize }),
    ...(options.searchFields !== undefined && { search_fields: options.searchFields }),
  };
  const paging = { ...(options.limit !== undefined && { limit: options.limit }), ...(options.offset !== undefined && { offset: options.offset }) };
  const client = await connect();
  if (collections.length > 1) {
    if (options.sort !== undefined) throw new UsageError('--sort applies to one collection: hits of several are merged by relevance');
    const queries: MultiSearchQuery[] = collections.map((collection) => ({ collection, q: query, ...params }));
    const answer = await client.federatedSearch(queries, paging);
    if (options.json) return printJson(answer);
    return printAnswer(answer, collections.join(', '), answer.facets_by_collection ?? {});
  }
  const answer = await client.search(collections[0], query, { ...params, ...paging, ...(options.sort !== undefined && { sort: options.sort }) });
  if (options.json) return printJson(answer);
  printAnswer(answer, collections[0], Object.keys(answer.facets).length > 0 ? { '': answer } : {});
}

/** The hits, paging, notes and facets (by collection when `where` names several) of an answer. */
function printAnswer(answer: SearchResponse | FederatedSearchResponse, where: string, facets: Record<string, Pick<SearchResponse, 'facets' | 'facet_stats'>>): void {
  const color = colorEnabled(process.stdout);
  if (answer.hits.length === 0) {
    say(`No results in ${where} (${answer.total} matches, ${answer.took_ms} ms).`);
    const suggestions = 'suggestions' in answer ? (answer.suggestions ?? []) : [];
    if (suggestions.length > 0) say(`Did you mean: ${suggestions.map(({ text }) => clean(text)).join(' | ')}`);
  } else {
    const first = answer.offset + 1;
    const last = answer.offset + answer.hits.length;
    const total = answer.total_relation === 'gte' ? `At least ${answer.total.toLocaleString('en')}` : String(answer.total);
    say(`${total} ${answer.total === 1 ? 'match' : 'matches'} in ${where}, showing ${first}-${last} (${answer.took_ms} ms)\n`);
    say(renderHits(answer, color));
    if (answer.has_more) say(`\nMore: --offset ${last}`);
  }
  for (const warning of answer.warnings ?? []) say(paint(`Note: ${clean(warning.message)}`, 'dim', color));
  for (const [collection, counts] of Object.entries(facets)) {
    say(`\n${paint(collection === '' ? 'Facets' : `Facets in ${clean(collection)}`, 'bold', color)}\n${renderFacets(counts)}`);
  }
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('search a collection, or several as one')
    .argument('<collection>', 'the collection to search; several, comma-separated, are searched as one (hits merged by relevance)')
    .argument('<query>', 'words, "phrases", -excluded, +required, prefix*, title:word ("" matches all)')
    .option('--filter <json>', 'metadata filter, e.g. \'{"year":{"gte":2020}}\'', jsonObjectArgument)
    .option('--facets <list>', 'comma-separated metadata fields to count', listArgument)
    .option('--limit <n>', `hits to show (1-${MAX_LIMIT}, default 10)`, integerArgument(1, MAX_LIMIT))
    .option('--offset <n>', 'hits to skip, for the next page', integerArgument(0, MAX_OFFSET))
    .option('--sort <keys>', 'e.g. year:desc,title:asc (default: relevance)')
    .option('--match <mode>', 'any (default): documents with any of the words; all: only those with every word', matchArgument)
    .option('--typos <n>', "typos per word: auto (the collection's setting), 0 (off), 1 or 2", typosArgument)
    .option('--prefix <mode>', 'last: the last word is a prefix (search as you type); none (default)', prefixArgument)
    .option('--no-synonyms', "search the words as typed, without the collection's synonyms")
    .option('--search-fields <list>', 'fields to search and their weights, e.g. title^2,text (default: the collection\'s)', listArgument)
    .option('--distinct <field>', 'group by a metadata field: the best hit of each value (with --group-size, that many)')
    .option('--group-size <n>', `with --distinct: hits kept per group (1-${MAX_GROUP_SIZE})`, integerArgument(1, MAX_GROUP_SIZE))
    .option('--boost <json>', 'rank by fields, e.g. \'[{"field":"metadata.sales","modifier":"log1p"}]\' ([] turns the default off)', jsonArrayArgument)
    .option('--semantic', "search by meaning (the collection's embedder) instead of by words")
    .option('--hybrid', 'rank by words and meaning together')
    .option('--ratio <r>', "with --hybrid: weight of meaning, 0-1 (default: the embedder's)", ratioArgument)
    .option('--embedder <name>', 'which embedder, when the collection has several')
    .option('--json', "print the server's JSON answer")
    .action(action(search));
}
