// How a pool starts its worker threads. Every pool's entry file is esm-worker-entry.mjs, which
// imports the pool's worker module as an ES module (see that file for why). Under tsx
// (development, tests) the modules are `.ts` and worker threads inherit the loader; compiled
// code runs `.js` files. The caller passes its own `import.meta.url`, so the worker module's
// extension follows the caller's.

import { fileURLToPath } from 'node:url';

/** Piscina options that run the worker module `name` (no extension) beside `callerUrl`. */
export function workerEntry(name: string, callerUrl: string): { filename: string; workerData: { workerModule: string } } {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return {
    filename: fileURLToPath(new URL('./esm-worker-entry.mjs', import.meta.url)),
    workerData: { workerModule: new URL(`./${name}${extension}`, callerUrl).href },
  };
}
