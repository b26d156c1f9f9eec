// Grouping (docs/api.md, "Grouping"): `distinct=<field>` keeps the best `groupSize` hits of each
// value of a metadata field (Meilisearch's `distinct`, Typesense's `group_by`, Elasticsearch's
// `collapse`). A document's group is its field's first value (the smallest, in the field's
// value order; the number 2020 and the string "2020" are two values); a document without the
// field is a group of its own.
//
// The searcher ranks a window of docs (by relevance with WAND, or by sort keys), groups it in
// rank order — a group ranks by its first (best) member — and widens the window while it is too
// narrow to be sure: fewer groups than the page needs, or a group on the page with fewer
// members than `groupSize` while some matches lie past the window. A group absent from the
// window has no doc ranked above the window's last, so the groups it holds are exactly the
// best ones. `GroupCounter` counts the groups among the matches, for `total`: exactly when the
// search counts every match, else among those it offered (a lower bound, as `total` is then).

import type { FieldIndex, FieldValue } from '../segment/field-index.ts';
import { DocBitSet } from './doc-bitset.ts';
import { globalOrdinals } from './global-ordinals.ts';
import type { GlobalOrdinals } from './global-ordinals.ts';
import type { SegmentView } from './segment-view.ts';

/** Each doc's group key, across the segments of a search. */
export class GroupKeys {
  private readonly indexes: (FieldIndex | null)[];

  constructor(views: readonly SegmentView[], readonly field: string) {
    this.indexes = views.map((view) => view.reader.field(field));
  }

  /** The doc's group: its first value, or a key of its own when it has none. */
  keyOf(segment: number, doc: number): FieldValue {
    const index = this.indexes[segment];
    if (index === null || index.docStarts[doc] === index.docStarts[doc + 1]) return `\u0000${segment}:${doc}`;
    return index.value(index.docOrds[index.docStarts[doc]]);
  }
}

export interface GroupedWindow<T> {
  /** Groups in rank order, each with its best `groupSize` members in rank order. */
  groups: T[][];
  /** Whether the window decides the first `wanted` groups and their members. */
  complete: boolean;
}

/**
 * Groups a ranked window (best first). `exhaustive`: the window holds every match (nothing lies
 * past it), so whatever it gives is final.
 */
export function groupWindow<T extends { segment: number; doc: number }>(
  ranked: readonly T[],
  keys: GroupKeys,
  groupSize: number,
  wanted: number,
  exhaustive: boolean,
): GroupedWindow<T> {
  const byKey = new Map<FieldValue, T[]>();
  const groups: T[][] = [];
  for (const hit of ranked) {
    const key = keys.keyOf(hit.segment, hit.doc);
    let group = byKey.get(key);
    if (group === undefined) {
      byKey.set(key, (group = []));
      groups.push(group);
    }
    if (group.length < groupSize) group.push(hit);
  }
  const complete = exhaustive || (groups.length >= wanted && groups.slice(0, wanted).every((group) => group.length === groupSize));
  return { groups, complete };
}

/** The number a doc without a value has in the docGroups arrays of `size` values. */
function docGroupNone(size: number): number {
  return size < 0xffff ? 0xffff : 0xffffffff;
}

/** Each doc's global number, in 2 bytes a doc while there are fewer than 65,535 values: one small read a doc. */
function docGroupsOf(ordinals: GlobalOrdinals, docCounts: readonly number[]): (Uint16Array | Uint32Array | null)[] {
  return (ordinals.docGroups ??= ordinals.indexes.map((index, segment) => {
    const global = ordinals.globals[segment];
    if (index === null || global === null) return null;
    const none = docGroupNone(ordinals.size);
    const groups = none === 0xffff ? new Uint16Array(docCounts[segment]) : new Uint32Array(docCounts[segment]);
    for (let doc = 0; doc < groups.length; doc++) {
      groups[doc] = index.docStarts[doc] === index.docStarts[doc + 1] ? none : global[index.docOrds[index.docStarts[doc]]];
    }
    return groups;
  }));
}

/**
 * Counts the groups among the matches of every segment (`total` of a grouped search): from a
 * segment's match set when the search has one, else doc by doc as they are offered. Adding a doc
 * twice counts it once, so both may feed it. A doc's group is its first value's global ordinal
 * (or the doc itself, without a value), kept per doc with the global ordinals: one small read
 * and one bit a group, no value read.
 */
export class GroupCounter {
  /** Per segment: each doc's global number (null: the field is not in the segment). */
  private readonly docGroups: (Uint16Array | Uint32Array | null)[];
  /** Which global numbers were seen; allocated on the first doc with a value. */
  private seen: Uint8Array | null = null;
  private readonly size: number;
  /** The number of a doc without a value. */
  private readonly none: number;
  private valued = 0;
  /** Per segment: the docs without a value seen, and how many. */
  private readonly withoutValue: (DocBitSet | null)[];
  private unvalued = 0;
  private readonly docCounts: number[];

  constructor(views: readonly SegmentView[], field: string) {
    this.docCounts = views.map((view) => view.reader.docCount);
    const ordinals = globalOrdinals(views.map((view) => view.reader.field(field)));
    this.docGroups = docGroupsOf(ordinals, this.docCounts);
    this.size = ordinals.size;
    this.none = docGroupNone(ordinals.size);
    this.withoutValue = views.map(() => null);
  }

  /** Adds one doc of a segment. */
  addDoc(segment: number, doc: number): void {
    const groups = this.docGroups[segment];
    const global = groups === null ? -1 : groups[doc];
    if (global === -1 || global === this.none) {
      const docs = (this.withoutValue[segment] ??= new DocBitSet(this.docCounts[segment]));
      if (!docs.has(doc)) {
        docs.add(doc);
        this.unvalued++;
      }
      return;
    }
    const seen = (this.seen ??= new Uint8Array(this.size));
    if (seen[global] === 0) {
      seen[global] = 1;
      this.valued++;
    }
  }

  /** Adds one segment's matches. */
  add(segment: number, matches: DocBitSet): void {
    matches.forEach((doc) => this.addDoc(segment, doc));
  }

  get count(): number {
    return this.valued + this.unvalued;
  }
}
