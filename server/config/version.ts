// The running Folio version, read once from the project's package.json: reported by
// GET /v1/health, the OpenAPI document and `folio --version`; and the folder it is installed in
// (where addons/ is). The file is found by walking up from this module, so the same code works
// from the sources and from the compiled dist/.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function findPackageJson(): URL {
  let dir = new URL('./', import.meta.url);
  for (let depth = 0; depth < 4; depth++) {
    const candidate = new URL('package.json', dir);
    if (existsSync(candidate)) return candidate;
    dir = new URL('../', dir);
  }
  throw new Error('package.json not found above server/version');
}

const packageJsonUrl = findPackageJson();
const packageJson = JSON.parse(readFileSync(packageJsonUrl, 'utf8')) as { version: string };

/** The folder Folio is installed in (its package.json's), with no trailing separator. */
export const FOLIO_PACKAGE_ROOT: string = fileURLToPath(new URL('.', packageJsonUrl)).replace(/[\\/]$/, '');

export const FOLIO_VERSION: string = packageJson.version;
