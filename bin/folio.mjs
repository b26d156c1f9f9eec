#!/usr/bin/env node
// The `folio` command's entry point: runs the compiled CLI in dist/ (built by `npm install`,
// or by `npm run build` after changing the sources).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/folio.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write("folio: the compiled server is missing; run 'npm run build' in the Folio checkout\n");
  process.exit(1);
}
await import(cli.href);
