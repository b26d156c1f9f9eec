// Merges segments: the live documents of several segments are written as one new segment, so
// deleted documents are dropped and the segment count stays bounded. Segments without deleted
// documents (a bulk import's) are merged from what they encode (segment/segment-merger.ts);
// others, or those of an older layout, have their live documents indexed again.

import type { Analyzer } from './analysis/analyzer.ts';
import type { IndexDocument } from './document.ts';
import type { SegmentView } from './search/segment-view.ts';
import { canMergeEncoded, mergeEncodedSegments } from './segment/segment-merger.ts';
import { writeSegment } from './segment/segment-writer.ts';
import type { SegmentWriteResult } from './segment/segment-writer.ts';

export function mergeSegments(outPath: string, views: readonly SegmentView[], analyzer: Analyzer): SegmentWriteResult {
  if (canMergeEncoded(views)) return mergeEncodedSegments(outPath, views.map((view) => view.reader));
  const docs: IndexDocument[] = [];
  for (const { reader, deleted } of views) {
    for (let doc = 0; doc < reader.docCount; doc++) {
      if (deleted !== null && deleted.has(doc)) continue;
      docs.push(reader.document(doc));
    }
  }
  return writeSegment(outPath, docs, analyzer);
}
