// Segments written to a temporary folder for the engine's search tests: a plain-text document
// built with few words, and real segment files written with an analyzer, opened as the views a
// search runs over, closed and removed afterwards.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Analyzer } from '../../engine/analysis/analyzer.ts';
import type { IndexDocument, Metadata } from '../../engine/document.ts';
import type { SegmentView } from '../../engine/search/segment-view.ts';
import { SegmentReader } from '../../engine/segment/segment-reader.ts';
import { writeSegment } from '../../engine/segment/segment-writer.ts';

/** A plain-text document without pages. */
export function textDocument(id: string, text: string, metadata: Metadata = {}, title: string | null = null, pages: IndexDocument['pages'] = null): IndexDocument {
  return { id, title, text, pages, metadata, format: 'text', bytes: text.length, indexedAt: '2026-01-01T00:00:00.000Z' };
}

/**
 * Writes each list of documents as a segment (indexing the words of the metadata fields
 * `searchFields`: one list for all, or one per segment), runs `run` over their views, then
 * removes them.
 */
export function withSegments(analyzer: Analyzer, docsBySegment: IndexDocument[][], run: (views: SegmentView[]) => void, searchFields: string[] | string[][] = []): void {
  const dir = mkdtempSync(join(tmpdir(), 'folio-segments-'));
  try {
    const views = docsBySegment.map((docs, i) => {
      const path = join(dir, `seg-${i}.fseg`);
      const fields = Array.isArray(searchFields[0]) ? (searchFields as string[][])[i] : (searchFields as string[]);
      writeSegment(path, docs, analyzer, fields);
      return { reader: SegmentReader.open(path), deleted: null };
    });
    try {
      run(views);
    } finally {
      for (const view of views) view.reader.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
