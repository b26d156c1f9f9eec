// A search by meaning made ready for the engine (docs/api.md, "Search by meaning" `mode`, `embedder`, `semantic_ratio`,
// `vector`): which embedder, the query's vector (the caller's, checked, or `q` embedded in the
// embedding pool within QUERY_EMBEDDING_TIMEOUT_MS), the hybrid weight, and the warnings the
// answer carries. A query that cannot be embedded in time is answered by keywords, with a
// `semantic_fallback` warning rather than an error: a search box keeps working while a remote
// embedding service is down.

import { cutPassages, isRelevanceSort, matchesFilter, passageText } from '../../engine/index.ts';
import type { FilterNode, IndexDocument, SearchMode, SearchRequest } from '../../engine/index.ts';
import { FolioError } from '../errors/index.ts';
import type { EmbeddingPool, SearchNotice } from '../pools/index.ts';
import type { EmbedderConfig } from '../settings/index.ts';

/** Longest wait for a query's embedding before the search falls back to keywords. */
export const QUERY_EMBEDDING_TIMEOUT_MS = 3_000;

/** What a request asks of search by meaning (the route's parameters). */
export interface SemanticParams {
  mode: SearchMode;
  embedder?: string;
  ratio?: number;
  fusion?: 'convex' | 'rrf';
  vector?: number[];
  /** More like this: the id of a live document. */
  similarTo?: string;
  /** The caller's key filter: a `similarTo` document outside it is absent (404). */
  visible?: FilterNode | null;
}

/** A document as "more like this" needs it (the realtime view). */
export type DocumentLookup = (id: string) => IndexDocument | null;

export interface PreparedSearch {
  request: SearchRequest;
  warnings: SearchNotice[];
}

export async function prepareSemanticSearch(
  request: SearchRequest,
  params: SemanticParams,
  embedders: Readonly<Record<string, EmbedderConfig>>,
  pool: EmbeddingPool,
  part: string,
  lookup: DocumentLookup,
): Promise<PreparedSearch> {
  if (params.mode === 'keyword') return { request, warnings: [] };
  const names = Object.keys(embedders);
  if (names.length === 0) invalid(`/${part}/mode`, `mode ${params.mode} needs an embedder: add one to the collection's settings.embedders`);
  let name = params.embedder;
  if (name === undefined) {
    if (names.length > 1) invalid(`/${part}/embedder`, `the collection has several embedders: name one of ${names.join(', ')}`);
    name = names[0];
  } else if (embedders[name] === undefined) {
    invalid(`/${part}/embedder`, `no embedder '${name}' (the collection has ${names.join(', ')})`);
  }
  const config = embedders[name];
  if (!isRelevanceSort(request.sort ?? [])) invalid(`/${part}/sort`, `sort applies to keyword searches, not mode ${params.mode}`);
  const semantic = { embedder: name, ratio: params.mode === 'semantic' ? 1 : params.ratio ?? config.defaultSemanticRatio, fusion: params.fusion ?? 'convex' };
  if (params.similarTo !== undefined) return similarTo(request, params, semantic, config, pool, lookup, part);
  if (params.vector !== undefined) {
    if (config.dimensions !== null && params.vector.length !== config.dimensions) {
      throw new FolioError('invalid_vector', `vector has ${params.vector.length} dimensions; embedder '${name}' has ${config.dimensions}`, [
        { path: `/${part}/vector`, message: `must have ${config.dimensions} numbers` },
      ]);
    }
    return { request: { ...request, mode: params.mode, semantic: { ...semantic, vector: params.vector } }, warnings: [] };
  }
  // Nothing to embed: the search lists documents as a keyword search with no words does.
  if (request.q.trim() === '') return { request, warnings: [] };
  if (config.source === 'user') {
    invalid(`/${part}/vector`, `embedder '${name}' is a ${config.source} embedder, which embeds no text: send the query's vector (POST, \`vector\`)`);
  }
  let vector: number[];
  try {
    const runtime = { source: config.source, model: config.model, url: config.url, apiKey: config.apiKey, dimensions: config.dimensions };
    vector = await pool.embedQuery(runtime, request.q, QUERY_EMBEDDING_TIMEOUT_MS);
  } catch (error) {
    const reason = (error as Error).message;
    return { request, warnings: [{ code: 'semantic_fallback', message: `the query could not be embedded (${reason}); these are keyword results` }] };
  }
  return { request: { ...request, mode: params.mode, semantic: { ...semantic, vector } }, warnings: [] };
}

/**
 * More like this: the document's own vector (a `user` embedder), or its first passage embedded
 * like a query; the document itself is left out of the semantic side.
 */
async function similarTo(
  request: SearchRequest,
  params: SemanticParams,
  semantic: { embedder: string; ratio: number; fusion: 'convex' | 'rrf' },
  config: EmbedderConfig,
  pool: EmbeddingPool,
  lookup: DocumentLookup,
  part: string,
): Promise<PreparedSearch> {
  const id = params.similarTo!;
  const found = lookup(id);
  const document = found !== null && (params.visible == null || matchesFilter(params.visible, found.metadata)) ? found : null;
  if (document === null) throw new FolioError('document_not_found', `document '${id}' does not exist`, [{ path: `/${part}/similar_to`, message: 'names no document' }]);
  let vector: number[] | undefined;
  if (config.source === 'user') {
    vector = document.vectors?.[semantic.embedder];
    if (vector === undefined) invalid(`/${part}/similar_to`, `document '${id}' has no vector for embedder '${semantic.embedder}'`);
  } else {
    const text = passageText(config.documentTemplate, document, cutPassages(document)[0]);
    const runtime = { source: config.source, model: config.model, url: config.url, apiKey: config.apiKey, dimensions: config.dimensions };
    try {
      vector = await pool.embedQuery(runtime, text, QUERY_EMBEDDING_TIMEOUT_MS);
    } catch (error) {
      throw new FolioError('embedder_failed', `document '${id}' could not be embedded: ${(error as Error).message}`);
    }
  }
  return { request: { ...request, mode: params.mode, semantic: { ...semantic, vector, excludeIds: [id] } }, warnings: [] };
}

/** The warning a semantic or hybrid answer carries while some documents are not embedded yet. */
export function coverageWarning(coverage: number | undefined): SearchNotice[] {
  if (coverage === undefined || coverage >= 1) return [];
  return [{ code: 'semantic_incomplete', message: `${Math.round(coverage * 1000) / 10} % of the documents are embedded yet; the others are found by keywords only` }];
}

function invalid(path: string, message: string): never {
  throw new FolioError('validation_failed', message, [{ path, message }]);
}
