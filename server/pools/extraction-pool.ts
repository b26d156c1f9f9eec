// The extraction pool: Piscina worker threads (one by default) that turn uploaded files into
// pages, so a file is never parsed on the main thread or in the search pool. The main thread
// streams an upload to a temporary file and hands over its path; the worker reads it itself.
// A hostile file is contained: each task has a time limit, counted from when a worker starts
// it (a worker still looping is stopped and replaced), and each thread has a heap limit (a
// worker that runs out of memory dies and is replaced). Either way the caller gets a 422
// `extraction_failed` and the server keeps running. The line of files waiting for a thread is
// bounded (issue 18): past it an upload is refused with 503 `overloaded` and `Retry-After`
// before its body is read. The threads start with the first file (lazy-piscina.ts).

import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { DEFAULT_EXTRACTION_OPTIONS } from '../../extract/index.ts';
import type { Extraction, ExtractionOptions, OcrOptions, PageImageRequest } from '../../extract/index.ts';
import { FolioError } from '../errors/index.ts';
import { LazyPiscina } from './lazy-piscina.ts';
import { workerEntry } from './worker-file.ts';
import { isExtractionStarted, unwrapReply } from './worker-protocol.ts';
import type { ExtractionPoolTask, WorkerReply } from './worker-protocol.ts';

/** One thread per two cores (at least one): extraction never takes every core from searches. */
export function defaultExtractionThreads(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}
/** Files that may wait for a thread, per thread; more are refused with 503 `overloaded`. */
export const QUEUED_FILES_PER_THREAD = 4;
/** What a refused upload is told to wait before sending again, in seconds. */
export const EXTRACTION_RETRY_AFTER_S = 5;
/** How long one file may take once a worker has started on it. */
export const DEFAULT_EXTRACTION_TIME_LIMIT_MS = 120_000;
/** The old-generation heap limit of each extraction thread. */
export const DEFAULT_EXTRACTION_MEMORY_MB = 1024;

export interface ExtractionPoolOptions {
  /** Worker threads; default one per two cores (at least one). */
  threads?: number;
  /** Files that may wait for a thread; default QUEUED_FILES_PER_THREAD per thread. */
  maxQueued?: number;
  /** Per-file time limit in milliseconds, from when a worker starts the file; default 120 s. */
  timeLimitMs?: number;
  /** Each thread's old-generation heap limit in MiB; default 1024. */
  maxOldGenerationSizeMb?: number;
  /** Each thread's young-generation heap limit in MiB; default V8's. */
  maxYoungGenerationSizeMb?: number;
  /** Bounds handed to the extractors (unpacked bytes, archive depth). */
  limits?: ExtractionOptions;
  /** The worker module beside this file, without extension; default `extraction-worker` (tests swap it). */
  workerModule?: string;
}

interface RunningTask {
  controller: AbortController;
  timer: NodeJS.Timeout | null;
  timedOut: boolean;
  timeLimitMs: number;
}

/** Longest one page picture may take to draw (a preview is asked for by a person waiting). */
export const PREVIEW_TIME_LIMIT_MS = 30_000;

export class ExtractionPool {
  readonly threadCount: number;
  readonly maxQueued: number;
  readonly timeLimitMs: number;
  private readonly limits: ExtractionOptions;
  private readonly workers: LazyPiscina<ExtractionPoolTask, WorkerReply<unknown>>;
  private readonly tasks = new Map<number, RunningTask>();
  private nextTaskId = 1;
  private closed = false;

  constructor(options: ExtractionPoolOptions = {}) {
    this.threadCount = options.threads ?? defaultExtractionThreads();
    if (!Number.isInteger(this.threadCount) || this.threadCount < 1) throw new RangeError('extraction threads must be a positive integer');
    this.maxQueued = options.maxQueued ?? QUEUED_FILES_PER_THREAD * this.threadCount;
    this.timeLimitMs = options.timeLimitMs ?? DEFAULT_EXTRACTION_TIME_LIMIT_MS;
    if (!(this.timeLimitMs > 0)) throw new RangeError('the extraction time limit must be positive');
    this.limits = { ...DEFAULT_EXTRACTION_OPTIONS, ...options.limits };
    this.workers = new LazyPiscina({
      ...workerEntry(options.workerModule ?? 'extraction-worker', import.meta.url),
      // Every thread stays started: a replacement is started as soon as one is stopped or
      // dies, while the pool is healthy (Piscina stops replacing threads that die starting).
      minThreads: this.threadCount,
      maxThreads: this.threadCount,
      idleTimeout: Infinity,
      atomics: 'disabled',
      resourceLimits: {
        maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? DEFAULT_EXTRACTION_MEMORY_MB,
        ...(options.maxYoungGenerationSizeMb !== undefined && { maxYoungGenerationSizeMb: options.maxYoungGenerationSizeMb }),
      },
    }, (pool) => {
      pool.on('message', (message: unknown) => {
        if (isExtractionStarted(message)) this.startClock(message.taskId);
      });
      // A thread that fails while idle is replaced; with no task to fail, the failure has no one
      // to report to, and it must not become an unhandled 'error' event that stops the server.
      pool.on('error', () => {});
    });
  }

  /**
   * Reads the file at `filePath` (which the caller keeps and removes) into pages. `fileName` is
   * the name the client gave it. `signal` gives up early (the client went away): the worker
   * is stopped and the signal's reason is thrown. `ocr`: the languages images and scanned pages
   * are read in (default English).
   */
  async extract(filePath: string, fileName: string | null, signal?: AbortSignal, ocr?: OcrOptions): Promise<Extraction> {
    const limits = ocr === undefined ? this.limits : { ...this.limits, ocr };
    return this.run<Extraction>((taskId) => ({ taskId, filePath, fileName, limits }), this.timeLimitMs, 'extraction_failed', signal);
  }

  /**
   * Draws page `request.page` of the kept file at `filePath` (of `format`, the registry's name)
   * as a picture (extract/preview/), within PREVIEW_TIME_LIMIT_MS and the thread's memory; a
   * file that cannot be drawn is FolioError `preview_unavailable`, a page it lacks `not_found`.
   */
  async renderPage(filePath: string, format: string, request: PageImageRequest, signal?: AbortSignal): Promise<Uint8Array> {
    const image = await this.run<Uint8Array>((taskId) => ({ kind: 'page-image', taskId, filePath, format, request, limits: this.limits }), PREVIEW_TIME_LIMIT_MS, 'preview_unavailable', signal);
    return new Uint8Array(image.buffer, image.byteOffset, image.byteLength);
  }

  /** Runs one task in a thread, its clock started when the thread takes it up. */
  private async run<T>(task: (taskId: number) => ExtractionPoolTask, timeLimitMs: number, failure: 'extraction_failed' | 'preview_unavailable', signal?: AbortSignal): Promise<T> {
    if (this.closed) throw closing();
    signal?.throwIfAborted();
    this.assertRoom();
    const taskId = this.nextTaskId++;
    const running: RunningTask = { controller: new AbortController(), timer: null, timedOut: false, timeLimitMs };
    const onCallerAbort = (): void => running.controller.abort(signal?.reason);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    this.tasks.set(taskId, running);
    let reply: WorkerReply<unknown>;
    try {
      reply = await this.workers.pool.run(task(taskId), { signal: running.controller.signal });
    } catch (error) {
      if (running.timedOut) throw tooSlow(timeLimitMs, failure);
      if (signal?.aborted) throw signal.reason;
      if (this.closed) throw closing();
      throw workerDied(error, failure);
    } finally {
      if (running.timer !== null) clearTimeout(running.timer);
      signal?.removeEventListener('abort', onCallerAbort);
      this.tasks.delete(taskId);
    }
    return unwrapReply(reply) as T;
  }

  /** Throws 503 `overloaded` (Retry-After) when every thread is busy and the line of waiting files is full. */
  assertRoom(): void {
    if (this.tasks.size < this.threadCount + this.maxQueued) return;
    throw new FolioError(
      'overloaded',
      `every extraction thread is busy and ${this.maxQueued} files are waiting: nothing was written; send the file again after Retry-After seconds`,
      undefined,
      EXTRACTION_RETRY_AFTER_S,
    );
  }

  /** Files handed to the pool and not answered yet (running, or queued for a thread). */
  get inFlight(): number {
    return this.tasks.size;
  }

  /** The worker threads (tests use them to see the pool recover). */
  get threads(): readonly Worker[] {
    return this.workers.threads;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.workers.close();
  }

  private startClock(taskId: number): void {
    const running = this.tasks.get(taskId);
    if (running === undefined || running.timer !== null) return;
    running.timer = setTimeout(() => {
      running.timedOut = true;
      running.controller.abort();
    }, running.timeLimitMs);
  }
}

/** The error for a task stopped at its time limit. */
function tooSlow(timeLimitMs: number, failure: 'extraction_failed' | 'preview_unavailable'): FolioError {
  const seconds = Number((timeLimitMs / 1000).toFixed(3));
  if (failure === 'preview_unavailable') return new FolioError(failure, `drawing the page took longer than ${seconds} s`);
  return new FolioError(failure, `extraction took longer than ${seconds} s; the file was refused`);
}

/** The error for a file whose worker died (out of memory, or a crash) while reading it. */
function workerDied(cause: unknown, failure: 'extraction_failed' | 'preview_unavailable'): FolioError {
  const outOfMemory = (cause as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
  const doing = failure === 'extraction_failed' ? ['read', 'the file was refused'] : ['drawn', 'no picture was made'];
  const error = new FolioError(
    failure,
    outOfMemory
      ? `the file could not be ${doing[0]} within the memory limit; ${doing[1]}`
      : `the extraction worker stopped while the file was ${doing[0]}; ${doing[1]}`,
  );
  (error as { cause?: unknown }).cause = cause;
  return error;
}

function closing(): FolioError {
  return new FolioError('internal', 'extraction was stopped: the server is closing');
}
