// Runs every *.test.ts file in the project with Node's own test runner (node:test) under tsx.
// Node 20's `--test` cannot glob TypeScript files itself, so this script finds them and passes
// them on. Extra arguments narrow the run: `npm test -- engine` runs test files whose path
// contains "engine". Test files run one at a time on two cores (Node's default: one fewer than
// the cores); TEST_CONCURRENCY=<n> runs n at a time. Two at a time took 1,300 s instead of 1,750
// on two cores, but the descriptor-exhaustion test of many-collections.test.ts then saw a
// connection reset (benchmarks/README.md, "eighth session"), so it is not the default yet.
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', '.git', 'folio-data', '.tmp', 'fixtures']);

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(path));
    else if (entry.name.endsWith('.test.ts')) found.push(relative(root, path));
  }
  return found;
}

const filters = process.argv.slice(2);
const files = findTests(root)
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
/** Test files run at once. */
const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(1, availableParallelism() - 1);
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
