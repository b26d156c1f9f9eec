// The entry file of every pool's worker threads. Piscina first tries to `require()` a worker
// file; under tsx that would load the TypeScript sources as CommonJS (re-exports become getter
// calls on hot paths). An `.mjs` file cannot be required, so Piscina imports this one as an ES
// module, and it imports the real worker module named in `workerData`, keeping the ES module
// graph the main thread runs too. TypeScript sources (development, tests) need tsx's ES module
// hooks in this thread, registered here; compiled `.js` modules need nothing.

import { parentPort, threadId, workerData } from 'node:worker_threads';

if (workerData.workerModule.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const workerModule = await import(workerData.workerModule);
// Tells the pool this thread has loaded (server/pools/worker-starts.ts): a pool being closed
// waits for it, as terminating a thread mid-import can abort the process.
parentPort?.postMessage({ folioWorkerStarted: threadId });

export default workerModule.default;
// Piscina runs another export when a task names it (the search worker's `statistics` and `facetSearch`).
export const statistics = workerModule.statistics;
export const facetSearch = workerModule.facetSearch;
