// Tests for the extraction pool with real worker threads, running the stand-in worker
// extraction-pool.test-worker.ts: answers come back; extraction errors keep their codes; a file over
// the time limit and a file that exhausts the heap are refused with `extraction_failed`, and the
// pool goes on reading the next file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FolioError } from '../errors/folio-error.ts';
import { ExtractionPool } from './extraction-pool.ts';
import type { ExtractionPoolOptions } from './extraction-pool.ts';

interface Setup {
  pool: ExtractionPool;
  /** Writes `text` to a temporary file and returns its path. */
  file(text: string): string;
}

function setup(t: { after(fn: () => unknown): void }, options: ExtractionPoolOptions = {}): Setup {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-extraction-'));
  const pool = new ExtractionPool({ workerModule: 'extraction-pool.test-worker', threads: 1, ...options });
  t.after(async () => {
    await pool.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  let count = 0;
  return {
    pool,
    file(text) {
      const filePath = path.join(dir, `upload-${++count}`);
      fs.writeFileSync(filePath, text);
      return filePath;
    },
  };
}

function isRefused(code: string, pattern: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof FolioError, `expected a FolioError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    return true;
  };
}

test('a file is read in a worker and its pages come back', async (t) => {
  const { pool, file } = setup(t);
  const extraction = await pool.extract(file('first page\fsecond page'), 'notes.txt');
  assert.deepEqual(extraction, {
    format: 'text',
    title: null,
    pages: [
      { number: 1, label: null, text: 'first page' },
      { number: 2, label: null, text: 'second page' },
    ],
  });
  assert.equal(pool.inFlight, 0);
  assert.equal(pool.threadCount, 1);
});

test('extraction errors come back as FolioErrors with the same code', async (t) => {
  const { pool, file } = setup(t);
  await assert.rejects(pool.extract(file('x'), 'unsupported.bin'), isRefused('unsupported_file_type', /no extractor reads/));
  await assert.rejects(pool.extract(file('x'), 'damaged.txt'), isRefused('extraction_failed', /damaged/));
  // Anything else an extractor throws means the file could not be read.
  await assert.rejects(pool.extract(file('x'), 'parser-bug.txt'), isRefused('extraction_failed', /could not be read: unexpected token/));
  // A missing temporary file is the server's fault, not the client's.
  await assert.rejects(pool.extract('/nonexistent/folio-upload', 'a.txt'), (error: unknown) => {
    assert.ok(!(error instanceof FolioError));
    assert.equal((error as { code?: unknown }).code, 'ENOENT');
    return true;
  });
  assert.equal((await pool.extract(file('still fine'), 'a.txt')).pages[0].text, 'still fine');
});

test('a file over the time limit is refused and the pool recovers', async (t) => {
  const { pool, file } = setup(t, { timeLimitMs: 300 });
  const started = Date.now();
  await assert.rejects(pool.extract(file('x'), 'loop.txt'), isRefused('extraction_failed', /longer than 0\.3 s; the file was refused/));
  assert.ok(Date.now() - started >= 300);
  assert.equal(pool.inFlight, 0);
  // The looping thread was stopped and a new one started; the next file is read normally
  // (the limit counts from when a worker starts the file, not while the new thread starts).
  const extraction = await pool.extract(file('after the loop'), 'b.txt');
  assert.equal(extraction.pages[0].text, 'after the loop');
  assert.equal(pool.threads.length, 1);
});

test('the time limit counts from when a worker starts the file, not while it waits', async (t) => {
  const { pool, file } = setup(t, { timeLimitMs: 400 });
  const looping = pool.extract(file('x'), 'loop.txt');
  // Queued behind the looping file for about 400 ms, then read in well under the limit.
  const queued = pool.extract(file('queued'), 'c.txt');
  assert.equal(pool.inFlight, 2);
  await assert.rejects(looping, isRefused('extraction_failed', /longer than/));
  assert.equal((await queued).pages[0].text, 'queued');
});

test('a file that exhausts the heap is refused and the pool recovers', async (t) => {
  const { pool, file } = setup(t, { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 });
  await assert.rejects(pool.extract(file('x'), 'oom.txt'), isRefused('extraction_failed', /within the memory limit/));
  const extraction = await pool.extract(file('after the bomb'), 'd.txt');
  assert.equal(extraction.pages[0].text, 'after the bomb');
  assert.equal(pool.threads.length, 1);
});

test('a caller that gives up stops the worker', async (t) => {
  const { pool, file } = setup(t);
  const controller = new AbortController();
  const looping = pool.extract(file('x'), 'loop.txt', controller.signal);
  setTimeout(() => controller.abort(new Error('client went away')), 100);
  await assert.rejects(looping, /client went away/);
  assert.equal((await pool.extract(file('next'), 'e.txt')).pages[0].text, 'next');
});

test('past the line of waiting files, a file is refused with 503 overloaded and Retry-After, and the line moves on', async (t) => {
  const { pool, file } = setup(t, { timeLimitMs: 500, maxQueued: 2 });
  const looping = pool.extract(file('x'), 'loop.txt');
  const waiting = [pool.extract(file('one'), 'f.txt'), pool.extract(file('two'), 'g.txt')];
  await assert.rejects(pool.extract(file('three'), 'h.txt'), (error: unknown) => {
    assert.ok(error instanceof FolioError);
    assert.equal(error.code, 'overloaded');
    assert.equal(error.retryAfterSeconds, 5);
    return true;
  });
  assert.throws(() => pool.assertRoom(), (error: unknown) => error instanceof FolioError && error.code === 'overloaded');
  await assert.rejects(looping, isRefused('extraction_failed', /longer than/));
  assert.deepEqual((await Promise.all(waiting)).map((extraction) => extraction.pages[0].text), ['one', 'two']);
  assert.equal((await pool.extract(file('room again'), 'i.txt')).pages[0].text, 'room again');
});

test('by default a thread per two cores and four waiting files per thread', () => {
  const pool = new ExtractionPool({ workerModule: 'extraction-pool.test-worker' });
  assert.equal(pool.threadCount, Math.max(1, Math.floor(os.availableParallelism() / 2)));
  assert.equal(pool.maxQueued, 4 * pool.threadCount);
});

test('options are checked', () => {
  assert.throws(() => new ExtractionPool({ threads: 0 }), RangeError);
  assert.throws(() => new ExtractionPool({ timeLimitMs: 0 }), RangeError);
});
