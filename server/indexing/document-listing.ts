// A collection's live documents in id order, a page at a time (GET …/documents): each segment's
// documents walked in id order from its id table (a binary search finds where the page starts),
// merged with the acknowledged writes not yet refreshed, so the listing is realtime like GET by
// id. Deleted documents are skipped; a document with a pending version or delete is judged by
// that; a filter is applied to the current version, as delete by filter judges it. A page
// costs a binary search per segment, then the documents it reads and those it steps over.

import { evaluateFilter, matchesFilter } from '../../engine/index.ts';
import type { FilterNode, IndexDocument, SegmentReader } from '../../engine/index.ts';
import { pendingDocument } from './pending-writes.ts';
import type { PendingWrites } from './pending-writes.ts';
import type { SegmentSet } from './segment-set.ts';

export interface DocumentListPage {
  /** Best first: ascending id (ids are ASCII, so code unit, code point and byte order agree). */
  documents: IndexDocument[];
  /** Whether documents follow the last one. */
  more: boolean;
}

/** One segment's documents from a starting id on, in id order, live and admitted only. */
class SegmentCursor {
  private readonly order: Uint32Array;
  private position: number;
  id: string | null = null;
  doc = -1;

  constructor(
    readonly segmentIndex: number,
    readonly reader: SegmentReader,
    private readonly skip: (doc: number, id: string) => boolean,
    after: string | null,
  ) {
    this.order = reader.docsByIdOrder();
    this.position = after === null ? 0 : this.firstAfter(after);
    this.advance();
  }

  /** Moves to the next document it may list (id null at the end). */
  advance(): void {
    while (this.position < this.order.length) {
      const doc = this.order[this.position++];
      const id = this.reader.docId(doc);
      if (this.skip(doc, id)) continue;
      this.id = id;
      this.doc = doc;
      return;
    }
    this.id = null;
    this.doc = -1;
  }

  private firstAfter(after: string): number {
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.reader.docId(this.order[middle]) > after) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}

/**
 * Up to `limit` live documents with ids after `after` (null: from the first), ascending by id,
 * whose current version matches `filter` (null: all).
 */
export function listDocuments(snapshot: SegmentSet, pending: PendingWrites, after: string | null, limit: number, filter: FilterNode | null): DocumentListPage {
  // Pending versions: few (bounded by the refresh), sorted once per page.
  const pendingDocs: IndexDocument[] = [];
  pending.forEach((id, change) => {
    if (change === null || (after !== null && id <= after)) return;
    const document = pendingDocument(change);
    if (filter === null || matchesFilter(filter, document.metadata)) pendingDocs.push(document);
  });
  pendingDocs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const cursors = snapshot.segments.map(({ reader, deleted }, segmentIndex) => {
    const admitted = filter === null ? null : evaluateFilter(filter, reader);
    // Anything pending (a newer version or a delete) is listed, or not, from the pending side.
    const skip = (doc: number, id: string): boolean =>
      (deleted?.has(doc) ?? false) || (admitted !== null && !admitted.has(doc)) || pending.lookup(id) !== undefined;
    return new SegmentCursor(segmentIndex, reader, skip, after);
  });

  const documents: IndexDocument[] = [];
  let nextPending = 0;
  for (;;) {
    // The smallest id among the segments (the newest segment's copy should two hold it) and the pending side.
    let smallest: SegmentCursor | null = null;
    for (const cursor of cursors) {
      if (cursor.id === null) continue;
      if (smallest === null || cursor.id < smallest.id! || (cursor.id === smallest.id && cursor.segmentIndex > smallest.segmentIndex)) smallest = cursor;
    }
    const pendingDoc = nextPending < pendingDocs.length ? pendingDocs[nextPending] : null;
    if (smallest === null && pendingDoc === null) return { documents, more: false };
    if (documents.length === limit) return { documents, more: true };
    if (pendingDoc !== null && (smallest === null || pendingDoc.id < smallest.id!)) {
      documents.push(pendingDoc);
      nextPending++;
      continue;
    }
    const id = smallest!.id!;
    documents.push(smallest!.reader.document(smallest!.doc));
    for (const cursor of cursors) if (cursor.id === id) cursor.advance();
  }
}
