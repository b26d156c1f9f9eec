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
import type { DocBitSet } from './doc-bitset.ts';
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

/**
 * Counts the groups among the matches of every segment (`total` of a grouped search): from a
 * segment's match set when the search has one, else doc by doc as they are offered. Adding a doc
 * twice counts it once, so both may feed it.
 */
export class GroupCounter {
  private readonly indexes: (FieldIndex | null)[];
  /** Per segment: which value ordinals were seen (by first value), and those ordinals in the order seen. */
  private readonly seenValues: (Uint8Array | null)[];
  private readonly seenOrdinals: number[][];
  /** Per segment: the docs without a value. */
  private readonly withoutValue: (Set<number> | null)[];

  constructor(views: readonly SegmentView[], field: string) {
    this.indexes = views.map((view) => view.reader.field(field));
    this.seenValues = views.map(() => null);
    this.seenOrdinals = views.map(() => []);
    this.withoutValue = views.map(() => null);
  }

  /** Adds one doc of a segment. */
  addDoc(segment: number, doc: number): void {
    const index = this.indexes[segment];
    if (index === null || index.docStarts[doc] === index.docStarts[doc + 1]) {
      (this.withoutValue[segment] ??= new Set()).add(doc);
      return;
    }
    const ord = index.docOrds[index.docStarts[doc]];
    const seen = (this.seenValues[segment] ??= new Uint8Array(index.distinct));
    if (seen[ord] === 1) return;
    seen[ord] = 1;
    this.seenOrdinals[segment].push(ord);
  }

  /** Adds one segment's matches. */
  add(segment: number, matches: DocBitSet): void {
    matches.forEach((doc) => this.addDoc(segment, doc));
  }

  get count(): number {
    let withoutValue = 0;
    for (const docs of this.withoutValue) withoutValue += docs?.size ?? 0;
    const withValues = this.seenOrdinals.filter((ordinals) => ordinals.length > 0);
    // One segment with values: its ordinals are its distinct values.
    if (withValues.length <= 1) return withoutValue + (withValues[0]?.length ?? 0);
    const values = new Set<FieldValue>();
    this.seenOrdinals.forEach((ordinals, segment) => {
      const index = this.indexes[segment];
      for (const ord of ordinals) values.add(index!.value(ord));
    });
    return values.size + withoutValue;
  }
}
