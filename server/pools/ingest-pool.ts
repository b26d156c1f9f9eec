// The ingest pool: one worker thread that parses and checks batch bodies (NDJSON or a JSON
// array), so the main thread never parses a large batch: it hands the body's bytes over and gets back each
// document's id, size and byte span (server/ingest/batch-body.ts), or the 400/413 its client
// gets. A body under INLINE_PARSE_BYTES is parsed on the calling thread, where a thread
// round trip would cost more than the parse. The thread starts with the first large body
// (lazy-piscina.ts) and then stays, ready for the next.

import type { Worker } from 'node:worker_threads';
import { BatchBody, parseBatchBody } from '../ingest/index.ts';
import type { BatchFormat, VectorRules } from '../ingest/index.ts';
import { LazyPiscina } from './lazy-piscina.ts';
import { workerEntry } from './worker-file.ts';
import { INGEST_WORKER_HEAP, workerResourceLimits } from './worker-heap-limits.ts';
import { unwrapReply, workerCrashed } from './worker-protocol.ts';
import type { IngestTask, ParsedBody, WorkerReply } from './worker-protocol.ts';

/** Bodies smaller than this are parsed on the calling thread. */
export const INLINE_PARSE_BYTES = 64 * 1024;

export class IngestPool {
  private readonly workers = new LazyPiscina<IngestTask, WorkerReply<ParsedBody>>({
    ...workerEntry('ingest-worker', import.meta.url),
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Infinity,
    atomics: 'disabled',
    resourceLimits: workerResourceLimits(INGEST_WORKER_HEAP),
  });

  /** Parses and checks a batch body; rejects with the FolioError its client gets. */
  async parse(bytes: Uint8Array, format: BatchFormat, rules: VectorRules = {}): Promise<BatchBody> {
    if (bytes.length < INLINE_PARSE_BYTES) return parseBatchBody(bytes, format, rules);
    let reply: WorkerReply<ParsedBody>;
    try {
      // The bytes are copied across (structured clone); the body stays the caller's.
      reply = await this.workers.pool.run({ bytes, format, rules });
    } catch (error) {
      throw workerCrashed(error);
    }
    const { ids, sizes, spans } = unwrapReply(reply);
    return new BatchBody(format, bytes, ids, sizes, spans);
  }

  /** The worker thread (none before the first large body). */
  get threads(): readonly Worker[] {
    return this.workers.threads;
  }

  async close(): Promise<void> {
    await this.workers.close();
  }
}
