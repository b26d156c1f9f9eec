// `npm run bench:setup` (run first by every `bench:*` script): installs the benchmarks' own
// tools and peers — autocannon, tinybench, better-sqlite3 (SQLite FTS5), MiniSearch,
// hnswlib-node, mysql2 (Sphinx's wire) — from benchmarks/package.json into
// benchmarks/node_modules, so that Folio's own `npm install` stays light (README.md, "Quick
// start"). Does nothing when they are installed and the lockfile has not changed since.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const dir = fileURLToPath(new URL('.', import.meta.url));
const lock = join(dir, 'package-lock.json');
const installed = join(dir, 'node_modules', '.package-lock.json');

function mtime(file) {
  return existsSync(file) ? statSync(file).mtimeMs : -1;
}

if (mtime(installed) >= Math.max(mtime(lock), mtime(join(dir, 'package.json')))) process.exit(0);

// Native peers build against Node's headers; point node-gyp at them when nothing else does, so
// it never tries to download them.
const env = { ...process.env };
if (env.npm_config_nodedir === undefined && existsSync('/usr/include/node')) env.npm_config_nodedir = '/usr';
console.error('Installing the benchmarks’ tools and peers into benchmarks/node_modules (once)…');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const args = [existsSync(lock) ? 'ci' : 'install', '--no-audit', '--no-fund', '--loglevel=error'];
const result = spawnSync(npm, args, { cwd: dir, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
