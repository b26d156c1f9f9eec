#!/usr/bin/env node
// The `folio` command's entry point: loads the TypeScript CLI through tsx's loader, so the
// project runs from its sources with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../cli/folio.ts');
