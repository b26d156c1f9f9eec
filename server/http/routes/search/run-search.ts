// Runs one search for either encoding (GET query string or POST body): turns the parameters
// into a SearchRequest, calls the collection, and answers the body of docs/api.md, "Search" — the hits,
// facets, facet stats (only when there are any) and total as JSON text from the search worker,
// wrapped with the paging fields and the timing; the search is counted for GET /v1/stats. A key's
// searches wait for its turn (search-admission.ts); a key with a filter sees only its documents.
// The text is sent as it is (the worker built
// it from the same typed hits the response schema describes), so the main thread does not
// re-serialize the hits.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Collection } from '../../../indexing/index.ts';
import { toSearchRequest, toSemanticParams } from './search-request.ts';
import type { RequestPart, SearchParams } from './search-request.ts';
import { bothFilters } from '../../../../engine/index.ts';
import type { FilterNode, SearchRequest } from '../../../../engine/index.ts';
import { visibleFilter } from '../../../auth/index.ts';
import type { Principal } from '../../../auth/index.ts';
import { FolioError } from '../../../errors/index.ts';
import type { SemanticParams } from '../../../indexing/index.ts';
import type { SearchPage } from '../../../pools/index.ts';

export async function runSearch(
  app: FastifyInstance,
  httpRequest: FastifyRequest,
  collection: Collection,
  params: SearchParams,
  part: RequestPart,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { request, semantic } = searchOf(params, part, httpRequest.principal);
  const started = performance.now();
  // One key runs at most its share of the search threads at once (search-admission.ts).
  const page = await app.searchAdmission.run(httpRequest.principal, () => collection.searchPage(request, semantic, part));
  app.searchActivity.record();
  return reply.type('application/json; charset=utf-8').send(`{${pageMembers(page, request, Math.round(performance.now() - started))}}`);
}

/** The parameters as the engine's request and what they ask of search by meaning, confined to what the caller's key sees. */
export function searchOf(params: SearchParams, part: RequestPart, principal: Principal | null): { request: SearchRequest; semantic: SemanticParams } {
  const request = toSearchRequest(params, part);
  const semantic = toSemanticParams(params);
  confineToKey(request, semantic, visibleFilter(principal), part);
  return { request, semantic };
}

/** The members of a search's response body: the worker's text, its warnings, the paging fields and the timing. */
export function pageMembers(page: SearchPage, request: SearchRequest, tookMs: number): string {
  const hasMore = request.offset + page.hitCount < page.total;
  const warnings = page.warnings === undefined ? '' : `,"warnings":${JSON.stringify(page.warnings)}`;
  return `${page.members}${warnings},"offset":${request.offset},"limit":${request.limit},"has_more":${hasMore},"took_ms":${tookMs}`;
}

/**
 * A key with a filter searches only the documents it sees (docs/api.md, "Keys with a filter"):
 * its filter ANDed with the search's, in every mode; a `similar_to` document outside it is
 * absent; no "did you mean" (corrections come from every document); and no `explain`, whose
 * document frequencies count every document.
 */
function confineToKey(request: SearchRequest, semantic: SemanticParams, visible: FilterNode | null, part: string): void {
  if (visible === null) return;
  if (request.explain === true) {
    const message = 'is not available to a key with a filter (it shows statistics of every document)';
    throw new FolioError('validation_failed', `explain ${message}`, [{ path: `/${part}/explain`, message }]);
  }
  request.filter = bothFilters(visible, request.filter ?? null);
  request.suggest = false;
  semantic.visible = visible;
}
