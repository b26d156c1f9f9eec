// Evaluates a filter (engine/filter) over one segment's metadata to the set of matching docs
// (deleted docs included; the searcher removes them). Equality looks values up in each
// field's dictionary; ranges find their run of values by binary search and take the docs of
// that run in one slice, so neither scans every value. $or unites, $not complements, and
// fields intersect.

import type { FilterNode, FilterScalar, RangeBounds } from '../filter/index.ts';
import type { FieldIndex } from '../segment/field-index.ts';
import type { SegmentReader } from '../segment/segment-reader.ts';
import { DocBitSet } from './doc-bitset.ts';

export function evaluateFilter(node: FilterNode, reader: SegmentReader): DocBitSet {
  const size = reader.docCount;
  switch (node.kind) {
    case 'match_all':
      return DocBitSet.full(size);
    case 'and': {
      const result = evaluateFilter(node.children[0], reader);
      for (let i = 1; i < node.children.length; i++) result.and(evaluateFilter(node.children[i], reader));
      return result;
    }
    case 'or': {
      const result = evaluateFilter(node.children[0], reader);
      for (let i = 1; i < node.children.length; i++) result.or(evaluateFilter(node.children[i], reader));
      return result;
    }
    case 'not': {
      const result = evaluateFilter(node.child, reader);
      result.invert();
      return result;
    }
    case 'in': {
      const result = new DocBitSet(size);
      const field = reader.field(node.field);
      if (field !== null) for (const value of node.values) addValue(result, field, value);
      return result;
    }
    case 'range': {
      const result = new DocBitSet(size);
      const field = reader.field(node.field);
      if (field !== null) {
        const [from, to] = rangeOrdinals(field, node.bounds);
        result.addRange(field.docsByValue, field.valueStarts[from], field.valueStarts[to]);
      }
      return result;
    }
  }
}

function addValue(result: DocBitSet, field: FieldIndex, value: FilterScalar): void {
  const ord = field.ordOf(value);
  if (ord >= 0) result.addRange(field.docsByValue, field.valueStarts[ord], field.valueStarts[ord + 1]);
}

/** One side of a range: its value and whether it is included, or null when open. */
type Bound = { value: number | string; inclusive: boolean } | null;

function stricter(inclusive: number | string | undefined, exclusive: number | string | undefined, isLow: boolean): Bound {
  if (inclusive === undefined && exclusive === undefined) return null;
  if (inclusive === undefined) return { value: exclusive!, inclusive: false };
  if (exclusive === undefined) return { value: inclusive, inclusive: true };
  // Both given: the tighter one wins (an exclusive bound at the same value is tighter).
  const exclusiveIsTighter = isLow ? exclusive >= inclusive : exclusive <= inclusive;
  return exclusiveIsTighter ? { value: exclusive, inclusive: false } : { value: inclusive, inclusive: true };
}

/** The run of ordinals [from, to) whose values satisfy every bound. */
export function rangeOrdinals(field: FieldIndex, bounds: RangeBounds): [number, number] {
  const low = stricter(bounds.gte, bounds.gt, true);
  const high = stricter(bounds.lte, bounds.lt, false);
  if (typeof (low ?? high)!.value === 'number') {
    return field.numberRange(
      (low?.value as number | undefined) ?? -Infinity,
      low?.inclusive ?? true,
      (high?.value as number | undefined) ?? Infinity,
      high?.inclusive ?? true,
    );
  }
  return field.stringRange(
    (low?.value as string | undefined) ?? null,
    low?.inclusive ?? true,
    (high?.value as string | undefined) ?? null,
    high?.inclusive ?? true,
  );
}
