// The embedding pool: one worker thread per core, at most two (started with the first
// embedding task, then kept)
// that runs embedding models off the main thread and off the search threads — a query's text
// for a semantic search, or a whole segment's passages, written as the segment's vector file.
// Several tasks run on the thread at once, so a query never queues behind a segment: the
// segment's embedding yields to it between batches (embedding-worker.ts).

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { FolioError } from '../errors/index.ts';
import { LazyPiscina } from './lazy-piscina.ts';
import { LOCAL_MODEL_FILES, localRuntimeProblem } from '../embedders/index.ts';
import type { EmbedderRuntime } from '../embedders/index.ts';
import { workerEntry } from './worker-file.ts';
import { EMBEDDING_WORKER_HEAP, workerResourceLimits } from './worker-heap-limits.ts';
import { unwrapReply, workerCrashed } from './worker-protocol.ts';
import type { EmbeddedRange, EmbeddingResult, EmbeddingTask, SegmentEmbedded, SegmentEmbedding, WorkerReply } from './worker-protocol.ts';

/** A local model's name: one directory of the models directory. */
export const LOCAL_MODEL_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** Tasks one thread runs at once: segments being embedded, and the queries that pass them. */
const CONCURRENT_TASKS = 16;

/** Embedding threads by default: one per core, at most two (each holds its own copy of a model). */
export function defaultEmbeddingThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

export class EmbeddingPool {
  /** Threads the pool runs once started: segments a collection embeds at once. */
  readonly threadCount: number;
  private readonly workers: LazyPiscina<EmbeddingTask, WorkerReply<EmbeddingResult>>;

  /** Where `local` models are (`<modelsDir>/<model>/`), or null when none are configured. */
  readonly modelsDir: string | null;
  /** Where add-ons are installed (the local embedder's runtime), or null when none are configured. */
  readonly addonsDir: string | null;

  constructor(options: { threads?: number; modelsDir?: string | null; addonsDir?: string | null } = {}) {
    this.threadCount = options.threads ?? defaultEmbeddingThreads();
    this.modelsDir = options.modelsDir ?? null;
    this.addonsDir = options.addonsDir ?? null;
    this.workers = new LazyPiscina({
      ...workerEntry('embedding-worker', import.meta.url),
      minThreads: this.threadCount,
      maxThreads: this.threadCount,
      idleTimeout: Infinity,
      atomics: 'disabled',
      concurrentTasksPerWorker: CONCURRENT_TASKS,
      resourceLimits: workerResourceLimits(EMBEDDING_WORKER_HEAP),
    });
  }

  /**
   * The query's vector within `timeoutMs`; rejects with `embedder_failed` when the embedder
   * fails or has not answered by then (the thread is never interrupted: an endpoint's request
   * ends at the same deadline, a model's computation finishes and is dropped).
   */
  async embedQuery(runtime: EmbedderRuntime, text: string, timeoutMs: number): Promise<number[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new FolioError('embedder_failed', `no answer in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return (await Promise.race([this.run({ kind: 'embed-query', runtime, text, timeoutMs }), timeout])) as number[];
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Embeds a segment's live documents and writes its vector file: the documents are split in
   * one range per thread, embedded at once, and the file is written from the ranges.
   */
  async embedSegment(task: SegmentEmbedding): Promise<SegmentEmbedded> {
    const { runtime, documentTemplate, segmentPath, docCount, deletedDocs } = task;
    // The least busy thread takes each task: with every thread up, the ranges go one a thread.
    await this.workers.started();
    const parts = Math.max(1, Math.min(this.threadCount, docCount));
    const ranges = await Promise.all(
      Array.from({ length: parts }, (_, part) => {
        const fromDoc = Math.floor((docCount * part) / parts);
        const toDoc = Math.floor((docCount * (part + 1)) / parts);
        const deleted = deletedDocs.filter((doc) => doc >= fromDoc && doc < toDoc);
        return this.run({ kind: 'embed-docs', runtime, embedder: task.embedder, documentTemplate, segmentPath, fromDoc, toDoc, deletedDocs: deleted }) as Promise<EmbeddedRange>;
      }),
    );
    const model = `${runtime.source}:${runtime.model}`;
    return (await this.run({ kind: 'write-vectors', outPath: task.outPath, embedder: task.embedder, model, docCount, ranges })) as SegmentEmbedded;
  }

  /**
   * Why a `local` embedder of `model` cannot run here, or null when it can: the runtime must be
   * installed in the models directory, and the directory must hold `model` in the layout a local
   * embedder runs (config, tokenizer and an ONNX file); its name is one directory name, never a path.
   */
  localModelProblem(model: string): string | null {
    const runtime = localRuntimeProblem(this.addonsDir);
    if (runtime !== null) return runtime;
    if (this.modelsDir === null) return 'no models directory is configured (--models-dir)';
    const dir = path.join(this.modelsDir, model);
    const present =
      LOCAL_MODEL_NAME.test(model) &&
      existsSync(path.join(dir, 'config.json')) &&
      existsSync(path.join(dir, 'tokenizer.json')) &&
      (existsSync(path.join(dir, LOCAL_MODEL_FILES.fp32)) || existsSync(path.join(dir, LOCAL_MODEL_FILES.q8)));
    if (present) return null;
    return `no model '${model}' in the server's models directory (--models-dir): fetch it with \`folio models pull ${model}\` on a machine with internet, or copy it there`;
  }

  private async run(task: EmbeddingTask): Promise<EmbeddingResult> {
    if ('runtime' in task && task.runtime.source === 'local' && this.modelsDir !== null) {
      task = { ...task, runtime: { ...task.runtime, modelsDir: this.modelsDir, ...(this.addonsDir !== null && { addonsDir: this.addonsDir }) } };
    }
    let reply: WorkerReply<EmbeddingResult>;
    try {
      reply = await this.workers.pool.run(task);
    } catch (error) {
      throw workerCrashed(error);
    }
    return unwrapReply(reply);
  }

  /** The worker thread (none before the first embedding). */
  get threads(): readonly Worker[] {
    return this.workers.threads;
  }

  async close(): Promise<void> {
    await this.workers.close();
  }
}
