// The running Folio version, read once from the project's package.json: reported by
// GET /v1/health, the OpenAPI document and `folio --version`. The file is found by walking up
// from this module, so the same code works from the sources and from the compiled dist/.

import { existsSync, readFileSync } from 'node:fs';

function findPackageJson(): URL {
  let dir = new URL('./', import.meta.url);
  for (let depth = 0; depth < 4; depth++) {
    const candidate = new URL('package.json', dir);
    if (existsSync(candidate)) return candidate;
    dir = new URL('../', dir);
  }
  throw new Error('package.json not found above server/version');
}

const packageJson = JSON.parse(readFileSync(findPackageJson(), 'utf8')) as { version: string };

export const FOLIO_VERSION: string = packageJson.version;
