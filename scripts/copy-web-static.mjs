// Part of `npm run build`: copies the dashboard's static files (web/static: the page, its icon and its
// stylesheet) beside its compiled modules in dist/web, so the server serves one folder.
import { cpSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../web/static/', import.meta.url));
const to = fileURLToPath(new URL('../dist/web/', import.meta.url));
mkdirSync(to, { recursive: true });
cpSync(from, to, { recursive: true });
