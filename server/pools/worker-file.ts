// Where a pool's worker entry file is. Under tsx (development, tests) the modules are `.ts` and
// worker threads inherit the loader; compiled code runs `.js` files. The caller passes its own
// `import.meta.url`, so the worker's extension follows the caller's.

import { fileURLToPath } from 'node:url';

/** The path of the worker module `name` (no extension) beside the module at `callerUrl`. */
export function workerFilePath(name: string, callerUrl: string): string {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`./${name}${extension}`, callerUrl));
}
