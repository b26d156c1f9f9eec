// Facet value search (docs/api.md "Facet value search"): the values of one facet field
// matching what was typed, counted among the documents the search text and filter match — a key
// with a filter only among its documents (the search request is built and confined as a single
// search's is).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { FacetSearchBodySchema } from '../../../api/index.ts';
import { DEFAULT_FACET_VALUES, FIELD_NAME_RULE, isAllowedFieldName } from '../../../../engine/index.ts';
import { FolioError } from '../../../errors/index.ts';
import type { Collection } from '../../../indexing/index.ts';
import { searchOf } from './run-search.ts';

type FacetSearchBody = Static<typeof FacetSearchBodySchema>;

export async function runFacetSearch(app: FastifyInstance, httpRequest: FastifyRequest, collection: Collection, body: FacetSearchBody, reply: FastifyReply): Promise<FastifyReply> {
  if (!isAllowedFieldName(body.facet)) {
    const message = `${JSON.stringify(body.facet)} is not an allowed field name (${FIELD_NAME_RULE})`;
    throw new FolioError('validation_failed', `facet: ${message}`, [{ path: '/body/facet', message }]);
  }
  const { request } = searchOf({ q: body.query ?? '', filter: body.filter, match: body.match, typos: body.typos }, 'body', httpRequest.principal);
  const started = performance.now();
  const facetQuery = { field: body.facet, prefix: body.q ?? '', limit: body.limit ?? DEFAULT_FACET_VALUES };
  const found = await app.searchAdmission.run(httpRequest.principal, () => collection.facetSearch(request, facetQuery));
  const tookMs = Math.round(performance.now() - started);
  return reply.type('application/json; charset=utf-8').send(JSON.stringify({ values: found.values, timed_out: found.timedOut, took_ms: tookMs }));
}
