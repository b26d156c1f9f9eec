// The values of a field across the segments of a snapshot, numbered once: per segment, the
// number of each of its ordinals among all the segments' distinct values (the number 2020 and
// the string "2020" are two values), and each number's value. Kept per snapshot (the segments'
// field indexes), so counting groups (grouping.ts) or a facet's values (facet-value-search.ts)
// compares and adds numbers, not values.

import type { FieldIndex, FieldValue } from '../segment/field-index.ts';

export interface GlobalOrdinals {
  indexes: readonly (FieldIndex | null)[];
  /** Per segment (null: the field is not there): each ordinal's global number. */
  globals: (Uint32Array | null)[];
  /** How many distinct values the segments hold together. */
  size: number;
  /** Each global number's value. */
  values: FieldValue[];
  /** Per segment, made on the first count of groups: each doc's global number (grouping.ts). */
  docGroups?: (Uint16Array | Uint32Array | null)[];
  /** Per segment, made on first use: each global number's ordinal there, or -1. */
  locals?: (Int32Array | null)[];
}

/** The global ordinals of a field, by its index in the first segment that has it. */
const keptOrdinals = new WeakMap<FieldIndex, GlobalOrdinals>();

export function globalOrdinals(indexes: readonly (FieldIndex | null)[]): GlobalOrdinals {
  const first = indexes.find((index): index is FieldIndex => index !== null);
  if (first === undefined) return { indexes, globals: indexes.map(() => null), size: 0, values: [] };
  const kept = keptOrdinals.get(first);
  if (kept !== undefined && kept.indexes.length === indexes.length && kept.indexes.every((index, i) => index === indexes[i])) return kept;
  const numbers = new Map<FieldValue, number>();
  const values: FieldValue[] = [];
  const globals = indexes.map((index) => {
    if (index === null) return null;
    const global = new Uint32Array(index.distinct);
    for (let ord = 0; ord < index.distinct; ord++) {
      const value = index.value(ord);
      let number = numbers.get(value);
      if (number === undefined) {
        numbers.set(value, (number = values.length));
        values.push(value);
      }
      global[ord] = number;
    }
    return global;
  });
  const made = { indexes, globals, size: values.length, values };
  keptOrdinals.set(first, made);
  return made;
}

/** Per segment, each global number's ordinal there (-1: not in the segment), made once. */
export function localOrdinals(ordinals: GlobalOrdinals): (Int32Array | null)[] {
  return (ordinals.locals ??= ordinals.globals.map((global) => {
    if (global === null) return null;
    const local = new Int32Array(ordinals.size).fill(-1);
    for (let ord = 0; ord < global.length; ord++) local[global[ord]] = ord;
    return local;
  }));
}
