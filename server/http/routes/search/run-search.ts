// Runs one search for either encoding (GET query string or POST body): turns the parameters
// into a SearchRequest, calls the collection, and answers the body of SPEC §6 — the hits,
// facets, facet stats (only when there are any) and total as JSON text from the search worker,
// wrapped with the paging fields and the timing; the search is counted for GET /v1/stats. A key's
// searches wait for its turn (search-admission.ts). The text is sent as it is (the worker built
// it from the same typed hits the response schema describes), so the main thread does not
// re-serialize the hits.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Collection } from '../../../indexing/index.ts';
import { toSearchRequest, toSemanticParams } from './search-request.ts';
import type { RequestPart, SearchParams } from './search-request.ts';

export async function runSearch(
  app: FastifyInstance,
  httpRequest: FastifyRequest,
  collection: Collection,
  params: SearchParams,
  part: RequestPart,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const request = toSearchRequest(params, part);
  const started = performance.now();
  // One key runs at most its share of the search threads at once (search-admission.ts).
  const page = await app.searchAdmission.run(httpRequest.principal, () => collection.searchPage(request, toSemanticParams(params), part));
  const tookMs = Math.round(performance.now() - started);
  app.searchActivity.record();
  const hasMore = request.offset + page.hitCount < page.total;
  const warnings = page.warnings === undefined ? '' : `,"warnings":${JSON.stringify(page.warnings)}`;
  const body = `{${page.members}${warnings},"offset":${request.offset},"limit":${request.limit},"has_more":${hasMore},"took_ms":${tookMs}}`;
  return reply.type('application/json; charset=utf-8').send(body);
}
