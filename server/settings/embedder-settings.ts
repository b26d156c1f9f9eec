// A collection's embedders (docs/api.md, "Damaged files and `folio check`" `embedders`): the settings a client writes, checked and
// completed with each source's defaults, stored in collection.json (the API key too: the file is
// private to the server's user) and shown without the key. Which sources this server runs:
//  - `builtin`: Universal Sentence Encoder lite, shipped in npm packages (512 dimensions);
//  - `openai`: any OpenAI-compatible `/v1/embeddings` endpoint (`url`, `model`, `api_key`).
//  - `local`: an ONNX sentence-transformer in the server's models directory (`--models-dir`);
//  - `user`: vectors the documents carry (`vectors: { <name>: [..] }`), of its `dimensions`.

import { DEFAULT_DOCUMENT_TEMPLATE } from '../../engine/index.ts';
import { EMBEDDER_NAME_PATTERN, MAX_EMBEDDERS } from './embedder-shapes.ts';
import type { EmbedderSettingsInput, EmbedderSettingsWire, EmbedderSource, EmbeddersPatch } from './embedder-shapes.ts';
import { FolioError } from '../errors/index.ts';

/** The builtin model: its name in vector files and its dimensions. */
export const BUILTIN_MODEL = 'use-lite';
export const BUILTIN_DIMENSIONS = 512;
/**
 * Weight of meaning in hybrid searches by default, per source. The builtin model is weak on
 * technical text (SciFact dense nDCG@10 0.21 against BM25's 0.69), so it only nudges the
 * keyword ranking: 0.1, the best on SciFact's train queries (benchmarks/README.md); stronger
 * models may be given more (`default_semantic_ratio`).
 */
export const DEFAULT_SEMANTIC_RATIO: Readonly<Record<EmbedderSource, number>> = { builtin: 0.1, local: 0.5, openai: 0.5, user: 0.5 };

export interface EmbedderConfig {
  source: EmbedderSource;
  model: string;
  url: string | null;
  apiKey: string | null;
  dimensions: number | null;
  documentTemplate: string;
  defaultSemanticRatio: number;
}

const namePattern = new RegExp(EMBEDDER_NAME_PATTERN);

/** Why the server cannot run a local model of this name (its runtime or the model missing), or null. */
export type LocalModelCheck = (model: string) => string | null;

/**
 * `patch` over `current` (null removes an embedder); `path` names the patch in the request for
 * errors; `localModelProblem` says why a `local` model cannot run here.
 */
export function applyEmbeddersPatch(
  current: Readonly<Record<string, EmbedderConfig>>,
  patch: EmbeddersPatch | undefined,
  path: string,
  localModelProblem: LocalModelCheck,
): Record<string, EmbedderConfig> {
  const next: Record<string, EmbedderConfig> = { ...current };
  if (patch === undefined) return next;
  for (const [name, input] of Object.entries(patch)) {
    if (!namePattern.test(name)) invalid(`${path}/${name}`, `embedder names must match ${EMBEDDER_NAME_PATTERN}`);
    if (input === null) delete next[name];
    else next[name] = embedderConfig(input, `${path}/${name}`, localModelProblem);
  }
  if (Object.keys(next).length > MAX_EMBEDDERS) invalid(path, `a collection has at most ${MAX_EMBEDDERS} embedders`);
  return next;
}

function embedderConfig(input: EmbedderSettingsInput, path: string, localModelProblem: LocalModelCheck): EmbedderConfig {
  const base = {
    documentTemplate: input.document_template ?? DEFAULT_DOCUMENT_TEMPLATE,
    defaultSemanticRatio: input.default_semantic_ratio ?? DEFAULT_SEMANTIC_RATIO[input.source],
  };
  switch (input.source) {
    case 'builtin':
      if (input.model !== undefined && input.model !== BUILTIN_MODEL) invalid(`${path}/model`, `the builtin source has one model, '${BUILTIN_MODEL}'`);
      if (input.dimensions !== undefined && input.dimensions !== BUILTIN_DIMENSIONS) invalid(`${path}/dimensions`, `the builtin model has ${BUILTIN_DIMENSIONS} dimensions`);
      if (input.url !== undefined || input.api_key !== undefined) invalid(path, 'the builtin source takes no url or api_key');
      return { source: 'builtin', model: BUILTIN_MODEL, url: null, apiKey: null, dimensions: BUILTIN_DIMENSIONS, ...base };
    case 'openai': {
      if (input.url === undefined) invalid(`${path}/url`, 'an openai embedder needs the base URL of an OpenAI-compatible API (e.g. http://localhost:11434/v1)');
      let url: URL;
      try {
        url = new URL(input.url!);
      } catch {
        return invalid(`${path}/url`, 'must be an absolute http(s) URL');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') invalid(`${path}/url`, 'must be an http(s) URL');
      if (input.model === undefined) invalid(`${path}/model`, 'an openai embedder needs a model name');
      return { source: 'openai', model: input.model!, url: url.toString().replace(/\/$/, ''), apiKey: input.api_key ?? null, dimensions: input.dimensions ?? null, ...base };
    }
    case 'local':
      if (input.model === undefined) invalid(`${path}/model`, 'a local embedder needs a model name (a directory of the models directory, e.g. bge-small-en-v1.5)');
      if (input.url !== undefined || input.api_key !== undefined) invalid(path, 'a local embedder takes no url or api_key');
      {
        const problem = localModelProblem(input.model!);
        if (problem !== null) invalid(`${path}/model`, problem);
      }
      return { source: 'local', model: input.model!, url: null, apiKey: null, dimensions: input.dimensions ?? null, ...base };
    case 'user':
      if (input.dimensions === undefined) invalid(`${path}/dimensions`, 'a user embedder needs the dimensions of the vectors documents carry');
      if (input.url !== undefined || input.api_key !== undefined || input.model !== undefined) invalid(path, 'a user embedder takes no url, api_key or model');
      return { source: 'user', model: 'user', url: null, apiKey: null, dimensions: input.dimensions!, ...base };
    default:
      return invalid(`${path}/source`, `unknown source '${String(input.source)}'`);
  }
}

function invalid(path: string, message: string): never {
  throw new FolioError('validation_failed', `${path}: ${message}`, [{ path, message }]);
}

/** An embedder's settings in the API's names (as shown and as stored), its API key aside. */
function embedderMembers(config: EmbedderConfig): Omit<EmbedderSettingsWire, 'api_key_set'> {
  return {
    source: config.source,
    model: config.model,
    url: config.url,
    dimensions: config.dimensions,
    document_template: config.documentTemplate,
    default_semantic_ratio: config.defaultSemanticRatio,
  };
}

/** As the collection record shows them: no API key, only whether one is set. */
export function embeddersToWire(embedders: Readonly<Record<string, EmbedderConfig>>): Record<string, EmbedderSettingsWire> {
  return Object.fromEntries(Object.entries(embedders).map(([name, config]) => [name, { ...embedderMembers(config), api_key_set: config.apiKey !== null }]));
}

/** As collection.json stores them (the API key included). */
export function embeddersToStored(embedders: Readonly<Record<string, EmbedderConfig>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(embedders).map(([name, config]) => [name, { ...embedderMembers(config), api_key: config.apiKey }]));
}

/** The embedders collection.json stores, or null when they are not valid. */
export function embeddersFromStored(value: unknown): Record<string, EmbedderConfig> | null {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) return null;
  const embedders: Record<string, EmbedderConfig> = {};
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    const e = entry as Record<string, unknown> | null;
    if (
      !namePattern.test(name) ||
      typeof e !== 'object' ||
      e === null ||
      (e.source !== 'builtin' && e.source !== 'openai' && e.source !== 'local' && e.source !== 'user') ||
      typeof e.model !== 'string' ||
      (e.url !== null && typeof e.url !== 'string') ||
      (e.api_key !== null && typeof e.api_key !== 'string') ||
      (e.dimensions !== null && !Number.isSafeInteger(e.dimensions)) ||
      typeof e.document_template !== 'string' ||
      typeof e.default_semantic_ratio !== 'number'
    ) {
      return null;
    }
    embedders[name] = {
      source: e.source,
      model: e.model,
      url: e.url as string | null,
      apiKey: e.api_key as string | null,
      dimensions: e.dimensions as number | null,
      documentTemplate: e.document_template,
      defaultSemanticRatio: e.default_semantic_ratio,
    };
  }
  return embedders;
}

/** Whether two configurations give the same vectors (a change of either re-embeds). */
export function sameVectors(a: EmbedderConfig, b: EmbedderConfig): boolean {
  return a.source === b.source && a.model === b.model && a.url === b.url && a.dimensions === b.dimensions && a.documentTemplate === b.documentTemplate;
}
