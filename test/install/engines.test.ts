// No package that `npm install` puts in node_modules asks for a newer Node.js than the one the
// README promises (20): npm would print an EBADENGINE warning on the first install, and the
// package might not work. Reads every installed package's `engines.node` from package-lock.json.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../helpers/spawn-cli.ts';

const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean; validRange(range: string): string | null };

/**
 * Node.js versions that must install without warnings: the current releases of the lines the
 * README promises (20 and later; npm checks the running version, so this one too).
 */
const SUPPORTED = [...new Set(['20.20.0', '22.12.0', '24.0.0', process.versions.node])];

interface LockedPackage {
  engines?: { node?: string } | string[];
  os?: string[];
  cpu?: string[];
}

/** Whether npm installs the package on this machine at all (platform packages are skipped elsewhere). */
function installedHere(info: LockedPackage): boolean {
  const allows = (list: string[] | undefined, value: string) => list === undefined || list.some((entry) => (entry.startsWith('!') ? entry.slice(1) !== value : entry === value));
  return allows(info.os, process.platform) && allows(info.cpu, process.arch);
}

test('every installed package runs on Node 20 (no EBADENGINE warning at install)', () => {
  const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
  const refused: string[] = [];
  for (const [path, info] of Object.entries(lock.packages)) {
    const range = Array.isArray(info.engines) ? undefined : info.engines?.node;
    if (path === '' || range === undefined || semver.validRange(range) === null || !installedHere(info)) continue;
    const failing = SUPPORTED.filter((version) => !semver.satisfies(version, range));
    if (failing.length > 0) refused.push(`${path.replace(/^node_modules\//, '')} (node ${range}; not ${failing.join(', ')})`);
  }
  assert.deepEqual(refused, [], 'these packages want a newer Node.js; pin an older version with "overrides" in package.json');
});
