// The facts every uploaded file carries as metadata (docs/api.md, "Files"), so a filter, facet or sort can
// use them like any field: `format` (the type it was read as: `pdf`, `docx`, `md`…),
// `extension` (of the file's name, lower case, when the name has one) and `size` (bytes).
// The caller's own metadata wins for a field of the same name.

import { extname } from 'node:path';
import type { Metadata } from '../../engine/index.ts';

/** An extension is 1–16 letters and digits after the last dot (`a.tar.gz` → `gz`; `v1.2 notes` → none). */
const EXTENSION = /^[a-z0-9]{1,16}$/;

export function fileFacts(fileName: string | null, format: string, bytes: number): Metadata {
  const facts: Metadata = { format, size: bytes };
  const extension = fileName === null ? '' : extname(fileName.replace(/\\/g, '/').split('/').pop() ?? '').slice(1).toLowerCase();
  if (EXTENSION.test(extension)) facts.extension = extension;
  return facts;
}

/** The caller's metadata, then each fact the caller did not set. */
export function withFileFacts(metadata: Metadata | undefined, facts: Metadata): Metadata {
  const merged: Metadata = { ...metadata };
  for (const [field, value] of Object.entries(facts)) if (!Object.hasOwn(merged, field)) merged[field] = value;
  return merged;
}
