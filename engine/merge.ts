// Merges segments: the live documents of several segments are written as one new segment, so
// deleted documents are dropped and the segment count stays bounded. Segments without deleted
// documents (a bulk import's) that index the same searchable metadata fields are merged from
// what they encode (segment/segment-merger.ts); others — with deletes, of an older layout, or
// indexing other fields (a re-index after `searchable_fields` changed) — have their live
// documents indexed again, a bounded run of documents at a time: each run is written as a
// part, and the parts are merged from what they encode, so memory never holds every document.

import { rmSync } from 'node:fs';
import type { Analyzer } from './analysis/index.ts';
import type { IndexDocument } from './document.ts';
import type { SegmentView } from './search/segment-view.ts';
import { SegmentReader } from './segment/segment-reader.ts';
import { canMergeEncoded, mergeEncodedSegments } from './segment/segment-merger.ts';
import { writeSegment } from './segment/segment-writer.ts';
import type { SegmentWriteResult } from './segment/segment-writer.ts';

/** Most source bytes of documents indexed again at once (one part). */
export const REINDEX_PART_BYTES = 16 * 1024 * 1024;

/**
 * The order in which to merge `views` (indexes into it): by each one's smallest id, so that
 * segments of ids that grow as documents come (counters, time-ordered ids) merge into one whose
 * doc numbers still follow id order — where they do, a search skips docs merely tied with its
 * worst hit (search/relevance-sink.ts). Empty segments first.
 */
export function mergeOrder(views: readonly SegmentView[]): number[] {
  const smallest = views.map(({ reader }) => (reader.docCount === 0 ? -1 : reader.docsByIdOrder()[0]));
  return views
    .map((_, i) => i)
    .sort((a, b) => {
      if (smallest[a] < 0 || smallest[b] < 0) return smallest[a] - smallest[b];
      return views[a].reader.compareDocIds(smallest[a], views[b].reader, smallest[b]) || a - b;
    });
}

/**
 * Merges `views` into one segment at `outPath` that indexes the words of the metadata fields
 * `searchFields`; durable when it returns.
 */
export function mergeSegments(outPath: string, views: readonly SegmentView[], analyzer: Analyzer, searchFields: readonly string[] = []): SegmentWriteResult {
  if (canMergeEncoded(views, searchFields)) return mergeEncodedSegments(outPath, views.map((view) => view.reader));
  const parts: string[] = [];
  let docs: IndexDocument[] = [];
  let bytes = 0;
  const writePart = (): void => {
    const part = `${outPath}.part${parts.length}`;
    parts.push(part);
    writeSegment(part, docs, analyzer, searchFields);
    docs = [];
    bytes = 0;
  };
  try {
    for (const { reader, deleted } of views) {
      for (let doc = 0; doc < reader.docCount; doc++) {
        if (deleted !== null && deleted.has(doc)) continue;
        const document = reader.document(doc);
        if (docs.length > 0 && bytes + document.bytes > REINDEX_PART_BYTES) writePart();
        docs.push(document);
        bytes += document.bytes;
      }
    }
    if (parts.length === 0) return writeSegment(outPath, docs, analyzer, searchFields);
    if (docs.length > 0) writePart();
    const readers = parts.map((part) => SegmentReader.open(part));
    try {
      return mergeEncodedSegments(outPath, readers);
    } finally {
      for (const reader of readers) reader.close();
    }
  } finally {
    for (const part of parts) rmSync(part, { force: true });
  }
}
