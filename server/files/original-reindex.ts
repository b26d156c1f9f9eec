// After `folio check --repair` (issue 18): documents lost with a damaged file are rebuilt from
// their kept originals (`--keep-files`): each original is read again by the extractors, in this
// process, and the documents are logged in the collection's WAL, which the server replays at
// its next start. The document keeps its id and the original's `indexed_at`, and gets the
// file's facts (format, extension, size) as metadata; metadata the client had added is lost.

import fs from 'node:fs';
import { extractFile } from '../../extract/index.ts';
import type { IndexDocument } from '../../engine/index.ts';
import { appendRecoveredDocuments } from '../indexing/index.ts';
import { buildFileDocument } from './file-document.ts';
import { fileFacts, withFileFacts } from './file-facts.ts';
import { OriginalFiles } from './original-files.ts';

export interface OriginalsReindexed {
  /** Ids rebuilt from their originals. */
  reindexed: string[];
  /** Ids that had an original that could not be read again, with why. */
  failed: { id: string; reason: string }[];
}

export async function reindexFromOriginals(collectionDir: string, ids: readonly string[]): Promise<OriginalsReindexed> {
  const originals = new OriginalFiles(collectionDir);
  const outcome: OriginalsReindexed = { reindexed: [], failed: [] };
  const docs: IndexDocument[] = [];
  for (const id of ids) {
    const original = originals.find(id);
    if (original === null) continue;
    const { record } = original;
    try {
      const bytes = new Uint8Array(fs.readFileSync(original.path));
      const extraction = await extractFile(bytes, record.file_name ?? `${id}.${record.format}`);
      docs.push(
        buildFileDocument(
          { id, sha256: record.sha256, title: undefined, metadata: withFileFacts(undefined, fileFacts(record.file_name, extraction.format, record.bytes)), bytes: record.bytes, indexedAt: record.indexed_at },
          extraction,
        ),
      );
      outcome.reindexed.push(id);
    } catch (error) {
      outcome.failed.push({ id, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  await appendRecoveredDocuments(collectionDir, docs);
  return outcome;
}
