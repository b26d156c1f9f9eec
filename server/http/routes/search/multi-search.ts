// Search across collections (docs/api.md "Search across collections"): every query is
// checked first — its collection (the auth plugin has checked the key may read each one), its
// parameters as for a single search, confined to what the key sees — so a bad query searches
// nothing. Without `federation` the queries run side by side and each answers a search response,
// in order. With it, keyword and hybrid queries first gather the statistics of every collection
// searched (federation.ts), then run with them, and their hits merge into one list by score.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { FederationSchema, MultiSearchBodySchema } from '../../../api/index.ts';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_WINDOW } from '../../../api/index.ts';
import { EngineError } from '../../../../engine/index.ts';
import type { SearchRequest } from '../../../../engine/index.ts';
import { FolioError } from '../../../errors/index.ts';
import type { Collection, SemanticParams } from '../../../indexing/index.ts';
import type { SearchPage } from '../../../pools/index.ts';
import { federatedCorpus, mergeHits } from './federation.ts';
import type { QueryAnswer } from './federation.ts';
import { pageMembers, searchOf } from './run-search.ts';

type MultiSearchBody = Static<typeof MultiSearchBodySchema>;
type Federation = Static<typeof FederationSchema>;

interface PlannedQuery {
  index: number;
  name: string;
  collection: Collection;
  request: SearchRequest;
  semantic: SemanticParams;
  /** Where its parameters are in the body, for errors (`body/queries/<i>`). */
  part: string;
}

/** Single-search parameters a federated query leaves to the federation. */
const FEDERATION_OWNS = { offset: 'the federation pages the merged hits', limit: 'the federation pages the merged hits', sort: 'merged hits rank by score' } as const;

export async function runMultiSearch(app: FastifyInstance, httpRequest: FastifyRequest, body: MultiSearchBody, reply: FastifyReply): Promise<FastifyReply> {
  const started = performance.now();
  const federation = body.federation ?? null;
  const window = federation === null ? 0 : federationWindow(federation);
  // Every collection searched stays open until the answer is sent (idle collections close).
  const releases = [...new Set(body.queries.map((query) => query.collection))].map((name) => app.registry.hold(name));
  try {
    return await answer(app, httpRequest, body, reply, started, federation, window);
  } finally {
    for (const release of releases) release();
  }
}

async function answer(app: FastifyInstance, httpRequest: FastifyRequest, body: MultiSearchBody, reply: FastifyReply, started: number, federation: Federation | null, window: number): Promise<FastifyReply> {
  const queries = body.queries.map((params, index) => planQuery(app, httpRequest, params, index, window));
  const search = (query: PlannedQuery): Promise<SearchPage> =>
    atQuery(query, () => app.searchAdmission.run(httpRequest.principal, () => query.collection.searchPage(query.request, query.semantic, query.part)));
  if (federation === null) {
    const results = await Promise.all(
      queries.map(async (query) => {
        const began = performance.now();
        const page = await search(query);
        return `{"collection":${JSON.stringify(query.name)},${pageMembers(page, query.request, Math.round(performance.now() - began))}}`;
      }),
    );
    for (let i = 0; i < queries.length; i++) app.searchActivity.record();
    return reply.type('application/json; charset=utf-8').send(`{"results":[${results.join(',')}]}`);
  }

  checkFacetsOncePerCollection(queries);
  await shareStatistics(app, httpRequest, queries);
  const pages = await Promise.all(queries.map(search));
  for (let i = 0; i < queries.length; i++) app.searchActivity.record();
  const answers = pages.map((page, i) => ({ ...(JSON.parse(`{${page.members}}`) as Omit<QueryAnswer, 'query' | 'collection'>), query: i, collection: queries[i].name }));
  const offset = federation.offset ?? 0;
  const limit = federation.limit ?? DEFAULT_SEARCH_LIMIT;
  const merged = mergeHits(answers, offset, limit);
  const response: Record<string, unknown> = { hits: merged.hits };
  const facets = facetsByCollection(queries, answers as unknown as Record<string, unknown>[]);
  if (facets !== null) response.facets_by_collection = facets;
  Object.assign(response, { total: merged.total, total_relation: merged.totalRelation, timed_out: merged.timedOut });
  const warnings = pages.flatMap((page, i) => (page.warnings ?? []).map((warning) => ({ code: warning.code, message: `query ${i} (${queries[i].name}): ${warning.message}` })));
  if (warnings.length > 0) response.warnings = warnings;
  Object.assign(response, { offset, limit, has_more: merged.hasMore, took_ms: Math.round(performance.now() - started) });
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(response));
}

/** The merged hits each query must find: offset + limit, within the search window. */
function federationWindow(federation: Federation): number {
  const window = (federation.offset ?? 0) + (federation.limit ?? DEFAULT_SEARCH_LIMIT);
  if (window > MAX_SEARCH_WINDOW) {
    throw new FolioError('validation_failed', `federation: offset + limit may not exceed ${MAX_SEARCH_WINDOW}`, [
      { path: '/body/federation/offset', message: `offset + limit must be at most ${MAX_SEARCH_WINDOW}` },
    ]);
  }
  return window;
}

/** A query's collection and engine request, checked as a single search's would be; federated (`window` > 0): its top `window` hits. */
function planQuery(app: FastifyInstance, httpRequest: FastifyRequest, params: MultiSearchBody['queries'][number], index: number, window: number): PlannedQuery {
  const part = `body/queries/${index}`;
  const { collection: name, ...searchParams } = params;
  if (window > 0) {
    for (const [field, reason] of Object.entries(FEDERATION_OWNS)) {
      if (searchParams[field as keyof typeof FEDERATION_OWNS] !== undefined) {
        const message = `is not allowed in a federated query (${reason}); set it on \`federation\`${field === 'sort' ? ' or search without it' : ''}`;
        throw new FolioError('validation_failed', `queries/${index}/${field} ${message}`, [{ path: `/${part}/${field}`, message }]);
      }
    }
  }
  let collection: Collection;
  try {
    collection = app.registry.get(name);
  } catch (error) {
    if (!(error instanceof FolioError)) throw error;
    throw new FolioError(error.code, `queries/${index}: ${error.message}`, [{ path: `/${part}/collection`, message: error.message }], error.retryAfterSeconds);
  }
  const { request, semantic } = atIndex(index, name, () => searchOf(searchParams, part, httpRequest.principal));
  if (window > 0) {
    request.offset = 0;
    request.limit = window;
  }
  return { index, name, collection, request, semantic, part };
}

/** Facets are counted per collection: two federated queries of one collection may not both ask for them. */
function checkFacetsOncePerCollection(queries: readonly PlannedQuery[]): void {
  const counted = new Map<string, number>();
  for (const query of queries) {
    if ((query.request.facets ?? []).length === 0) continue;
    const first = counted.get(query.name);
    if (first !== undefined) {
      const message = `query ${first} already counts facets of '${query.name}' (facets are answered per collection)`;
      throw new FolioError('validation_failed', `queries/${query.index}/facets: ${message}`, [{ path: `/${query.part}/facets`, message }]);
    }
    counted.set(query.name, query.index);
  }
}

/**
 * Keyword and hybrid queries of a federation over more than one collection weigh words with the
 * statistics of all their collections (federation.ts), gathered in a first pass.
 */
async function shareStatistics(app: FastifyInstance, httpRequest: FastifyRequest, queries: readonly PlannedQuery[]): Promise<void> {
  const worded = queries.filter((query) => query.semantic.mode !== 'semantic' && query.request.q.trim() !== '');
  if (new Set(worded.map((query) => query.name)).size < 2) return;
  const parts = await Promise.all(
    worded.map(async (query) => ({
      collection: query.name,
      statistics: await atQuery(query, () => app.searchAdmission.run(httpRequest.principal, () => query.collection.corpusStatistics(query.request, query.part))),
    })),
  );
  const corpus = federatedCorpus(parts);
  for (const query of worded) query.request.corpus = corpus;
}

/** Each collection's facets, from the query that asked for them; null when none did. */
function facetsByCollection(queries: readonly PlannedQuery[], answers: readonly Record<string, unknown>[]): Record<string, unknown> | null {
  const byCollection: Record<string, unknown> = {};
  queries.forEach((query, i) => {
    if ((query.request.facets ?? []).length === 0) return;
    const { facets, facet_stats } = answers[i];
    byCollection[query.name] = facet_stats === undefined ? { facets } : { facets, facet_stats };
  });
  return Object.keys(byCollection).length === 0 ? null : byCollection;
}

/** A query's failure says which query it was. */
async function atQuery<T>(query: PlannedQuery, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw named(error, query.index, query.name);
  }
}

function atIndex<T>(index: number, name: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw named(error, index, name);
  }
}

function named(error: unknown, index: number, name: string): unknown {
  const at = `queries/${index} (${name})`;
  if (error instanceof FolioError) return new FolioError(error.code, `${at}: ${error.message}`, error.errors, error.retryAfterSeconds);
  if (error instanceof EngineError) return new EngineError(error.code, `${at}: ${error.message}`);
  return error;
}
