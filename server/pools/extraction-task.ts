// What an extraction worker does with one task, whatever reads the bytes: tell the pool the task
// has started (its time limit counts from here, not from when it was queued), read the
// temporary file from disk in this thread (a large upload is never copied across threads), run
// the extractor — or, for a page picture, draw it (extract/preview/) — and answer a plain reply. An extractor's own ExtractionError keeps its code;
// anything else it throws (a parser giving up, a stack overflow on deep nesting) means the file
// could not be read, so it comes back as `extraction_failed` too. Failing to read the temporary
// file is the server's fault and stays a plain error (500).

import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { ExtractionError, PreviewError, renderPageImage } from '../../extract/index.ts';
import type { Extraction, ExtractionOptions } from '../../extract/index.ts';
import { FolioError } from '../errors/index.ts';
import { replyOfAsync } from './worker-protocol.ts';
import type { ExtractionPoolTask, ExtractionStarted, PageImageTask, WorkerReply } from './worker-protocol.ts';

export type Extractor = (bytes: Uint8Array, fileName: string | null, limits: ExtractionOptions) => Promise<Extraction>;

/** Longest part of a parser's own message repeated to the client. */
const MAX_CAUSE_LENGTH = 300;

/** The default export of an extraction worker module that reads files with `extractor`. */
export function extractionTaskRunner(extractor: Extractor): (task: ExtractionPoolTask) => Promise<WorkerReply<Extraction | Uint8Array>> {
  return (task) => {
    const started: ExtractionStarted = { kind: 'extraction-started', taskId: task.taskId };
    parentPort?.postMessage(started);
    if ('kind' in task) return replyOfAsync(() => pageImage(task));
    return replyOfAsync(async () => {
      const bytes = await readFile(task.filePath);
      try {
        return await extractor(bytes, task.fileName, task.limits);
      } catch (error) {
        throw asExtractionError(error);
      }
    });
  };
}

/** A page picture; PreviewError `page_not_found` becomes `not_found`, the others `preview_unavailable`. */
async function pageImage(task: PageImageTask): Promise<Uint8Array> {
  const bytes = await readFile(task.filePath);
  try {
    return await renderPageImage(bytes, task.format, task.request, task.limits);
  } catch (error) {
    if (!(error instanceof PreviewError)) throw error;
    throw new FolioError(error.code === 'page_not_found' ? 'not_found' : 'preview_unavailable', error.message);
  }
}

function asExtractionError(error: unknown): ExtractionError {
  if (error instanceof ExtractionError) return error;
  let cause = error instanceof Error ? error.message : String(error);
  if (cause.length > MAX_CAUSE_LENGTH) cause = `${cause.slice(0, MAX_CAUSE_LENGTH)}…`;
  return new ExtractionError('extraction_failed', `the file could not be read: ${cause}`);
}
