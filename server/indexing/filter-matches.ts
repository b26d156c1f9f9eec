// Which live documents a filter matches right now, by their current version (realtime, like
// GET): a document with a pending (acknowledged, not yet refreshed) version is judged by that
// version with the reference matcher; any other by its committed segment, evaluated on the
// segment's value index, minus the snapshot's deleted docs. Used by delete by filter.
// The answer is a list of ids and may be as long as the collection (a few tens of bytes per
// matching document): acceptable for a delete, which has to log every id anyway.

import { deletedDocs, evaluateFilter, matchesFilter } from '../../engine/index.ts';
import type { FilterNode } from '../../engine/index.ts';
import { pendingDocument } from './pending-writes.ts';
import type { PendingWrites } from './pending-writes.ts';
import type { SegmentSet } from './segment-set.ts';

/** The ids of the live documents whose current version matches `filter`, each once. */
export function idsMatchingFilter(filter: FilterNode, snapshot: SegmentSet, pending: PendingWrites): string[] {
  const ids = new Set<string>();
  pending.forEach((id, change) => {
    if (change !== null && matchesFilter(filter, pendingDocument(change).metadata)) ids.add(id);
  });
  for (const view of snapshot.views) {
    const matches = evaluateFilter(filter, view.reader);
    const deleted = deletedDocs(view);
    if (deleted !== null) matches.removeAll(deleted);
    matches.forEach((doc) => {
      const id = view.reader.docId(doc);
      // A pending version (or pending delete) supersedes the committed one: judged above.
      if (pending.lookup(id) === undefined) ids.add(id);
    });
  }
  return [...ids];
}
