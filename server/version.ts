// The running Folio version, read once from package.json: reported by GET /v1/health, the
// OpenAPI document and `folio --version`.

import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const FOLIO_VERSION: string = packageJson.version;
