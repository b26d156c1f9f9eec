// `npm run bench`: every speed benchmark, one after the other, each in its own process with
// its defaults: the metadata benchmark (metadata-search.ts, generated data), then the GCIDE
// throughput benchmark (gcide.ts) when ../shared/corpora/gcide is beside the checkout.
// Exits non-zero if any of them fails. Run one alone with `npm run bench:metadata` or
// `npm run bench:gcide`, which take options.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GCIDE_DIR, gcideAvailable } from './gcide-corpus.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function run(script: string): boolean {
  console.log(`\n> benchmarks/${script}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', `benchmarks/${script}`], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) console.error(`benchmarks/${script} failed (exit ${result.status ?? result.signal})`);
  return result.status === 0;
}

let ok = run('metadata-search.ts');
if (gcideAvailable()) ok = run('gcide.ts') && ok;
else console.log(`\nGCIDE benchmark skipped: no corpus at ${GCIDE_DIR} (it needs ../shared/corpora beside the checkout).`);
process.exit(ok ? 0 : 1);
