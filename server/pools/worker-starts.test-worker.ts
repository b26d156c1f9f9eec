// A stand-in worker module for worker-starts.test.ts that takes a while to load, as a thread
// importing the roaring native addon does. It appends `loading <threadId>` and, once loaded,
// `loaded <threadId>` to the file named by the FOLIO_SLOW_START_LOG environment variable
// (synchronously, so each line is written before the thread could report anything), letting
// the test see whether a pool closed while one of its threads was still loading.

import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

/** How long loading this module takes. */
const LOAD_MS = 500;

const log = process.env.FOLIO_SLOW_START_LOG;
if (log !== undefined) appendFileSync(log, `loading ${threadId}\n`);
await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
if (log !== undefined) appendFileSync(log, `loaded ${threadId}\n`);

/** The task: sleeps `ms` milliseconds, keeping its thread busy (so the pool starts another). */
export default async function slowStartTask(ms: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return threadId;
}
