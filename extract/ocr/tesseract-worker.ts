// OCR with tesseract.js, strictly offline: one tesseract worker per thread, created on first
// use and reused while jobs ask for the same languages, reading their models from a local
// folder (ocr-languages.ts: English from @tesseract.js-data/eng, others from the add-ons;
// never the CDN), with no cache files written. Jobs run one at a time; a broken or stuck
// worker is thrown away, and a job in other languages replaces it, and the next call starts a
// fresh one.

import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Worker as WorkerThread } from 'node:worker_threads';
import type Tesseract from 'tesseract.js';
import type { OcrOptions } from '../extraction.ts';
import { DEFAULT_OCR_OPTIONS } from '../extraction.ts';
import { ocrDataDirFor, trainedDataFile } from './ocr-languages.ts';
/** Longest one image may take before its worker is terminated. */
const RECOGNIZE_TIMEOUT_MS = 60_000;
/** tesseract.js's OEM.LSTM_ONLY (the default core has no legacy engine). */
const OEM_LSTM_ONLY = 1;

/** Options for tesseract.js's createWorker that keep every byte local, reading `languages`. */
export function ocrWorkerOptions(ocr: OcrOptions = DEFAULT_OCR_OPTIONS): Partial<Tesseract.WorkerOptions> {
  const langPath = ocrDataDirFor(ocr.languages, ocr.dataDir);
  // A falsy langPath makes tesseract.js download from a CDN; a URL makes it fetch. Refuse both.
  const absent = ocr.languages.find((language) => !existsSync(trainedDataFile(langPath, language)));
  if (!isAbsolute(langPath) || absent !== undefined) {
    throw new Error(`the OCR language data of '${absent ?? ocr.languages[0]}' is missing from ${langPath}`);
  }
  return {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    workerBlobURL: false,
    // Without a handler tesseract.js rethrows a failed job inside a message listener, which
    // would crash the process; the job's own promise already carries the error.
    errorHandler: () => {},
  };
}

let workerPromise: Promise<Tesseract.Worker> | null = null;
/** The languages and folder the current worker reads (`deu+eng@/path`). */
let workerKey = '';
/** The tail of the job chain: each job starts when the previous one has settled. */
let queue: Promise<unknown> = Promise.resolve();
let running = 0;

async function startWorker(ocr: OcrOptions): Promise<Tesseract.Worker> {
  const options = ocrWorkerOptions(ocr);
  const { createWorker } = (await import('tesseract.js')).default;
  const worker = await createWorker(ocr.languages.join('+'), OEM_LSTM_ONLY, options);
  const thread = threadOf(worker);
  // An uncaught error in tesseract's thread would crash the process without a listener.
  thread?.on('error', () => discardWorker(worker));
  thread?.on('exit', () => discardWorker(worker));
  // Idle, the thread must not keep the process alive; it is ref'd while a job runs.
  if (running === 0) thread?.unref();
  return worker;
}

/** The worker_threads Worker tesseract.js runs in (its `worker` property in Node). */
function threadOf(worker: Tesseract.Worker): WorkerThread | undefined {
  return (worker as unknown as { worker?: WorkerThread | null }).worker ?? undefined;
}

function discardWorker(worker: Tesseract.Worker): void {
  const current = workerPromise;
  if (current === null) return;
  void current.then(
    (w) => {
      if (w === worker && workerPromise === current) workerPromise = null;
    },
    () => {},
  );
}

function keyOf(ocr: OcrOptions): string {
  return `${ocr.languages.join('+')}@${ocr.dataDir ?? ''}`;
}

async function getWorker(ocr: OcrOptions): Promise<Tesseract.Worker> {
  const key = keyOf(ocr);
  if (workerPromise !== null && workerKey !== key) {
    // Other languages: this worker's models are the wrong ones.
    const previous = workerPromise;
    workerPromise = null;
    const worker = await previous.catch(() => null);
    await worker?.terminate().catch(() => {});
  }
  if (workerPromise === null) {
    workerKey = key;
    const started = startWorker(ocr);
    workerPromise = started;
    started.catch(() => {
      if (workerPromise === started) workerPromise = null;
    });
  }
  return workerPromise;
}

async function runJob(image: Uint8Array, ocr: OcrOptions): Promise<string> {
  const worker = await getWorker(ocr);
  const thread = threadOf(worker);
  running += 1;
  thread?.ref();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        discardWorker(worker);
        void worker.terminate().catch(() => {});
        reject(new Error(`OCR took longer than ${RECOGNIZE_TIMEOUT_MS / 1000} s`));
      }, RECOGNIZE_TIMEOUT_MS);
    });
    // A Buffer, never a string: a string image would be read as a path or fetched as a URL.
    const result = await Promise.race([worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength)), timeout]);
    return result.data.text;
  } catch (error) {
    throw new Error(typeof error === 'string' ? error : error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    running -= 1;
    if (running === 0) thread?.unref();
  }
}

/** The text tesseract reads in an image (PNG, JPEG, GIF, TIFF, BMP, WebP or Netpbm bytes) in `ocr`'s languages. */
export function recognizeImage(image: Uint8Array, ocr: OcrOptions = DEFAULT_OCR_OPTIONS): Promise<string> {
  const job = queue.then(() => runJob(image, ocr));
  queue = job.catch(() => {});
  return job;
}

/** Ends this thread's tesseract worker, if one was started. */
export async function terminateOcrWorker(): Promise<void> {
  const current = workerPromise;
  workerPromise = null;
  if (current === null) return;
  const worker = await current.catch(() => null);
  await worker?.terminate().catch(() => {});
}
