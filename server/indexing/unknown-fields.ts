// The `unknown_field` warnings of a search (docs/api.md, Response): a filter, facet, sort,
// `distinct` or boost that names a metadata field no searchable document of the collection has
// matches, counts, orders, groups or boosts nothing, silently; the answer says so, naming the field and where it was used
// (a typo such as `fromat` is the usual cause). The known fields are the union of the
// snapshot's segments' field lists, computed once per snapshot.

import type { FilterNode, SearchRequest } from '../../engine/index.ts';
import type { SearchNotice } from '../pools/index.ts';
import type { SegmentSet } from './segment-set.ts';

const knownFields = new WeakMap<SegmentSet, ReadonlySet<string>>();

function fieldsOf(snapshot: SegmentSet): ReadonlySet<string> {
  let fields = knownFields.get(snapshot);
  if (fields === undefined) {
    fields = new Set(snapshot.segments.flatMap(({ reader }) => reader.fieldNames()));
    knownFields.set(snapshot, fields);
  }
  return fields;
}

function filterFields(node: FilterNode, into: Set<string>): void {
  switch (node.kind) {
    case 'and':
    case 'or':
      for (const child of node.children) filterFields(child, into);
      return;
    case 'not':
      filterFields(node.child, into);
      return;
    case 'in':
    case 'range':
      into.add(node.field);
      return;
    case 'match_all':
      return;
  }
}

/** One warning per (use, field) the snapshot has no document with; none for an empty collection. */
export function unknownFieldWarnings(request: SearchRequest, snapshot: SegmentSet): SearchNotice[] {
  if (snapshot.liveCount === 0) return [];
  const known = fieldsOf(snapshot);
  const uses: [string, Set<string>][] = [
    ['filter', new Set()],
    ['facets', new Set(request.facets ?? [])],
    ['sort', new Set((request.sort ?? []).flatMap((key) => (key.kind === 'field' ? [key.field] : [])))],
    ['distinct', new Set(request.distinct === undefined ? [] : [request.distinct])],
    ['boost', new Set((request.boost ?? []).map((boost) => boost.field))],
  ];
  if (request.filter) filterFields(request.filter, uses[0][1]);
  const warnings: SearchNotice[] = [];
  for (const [use, fields] of uses) {
    for (const field of fields) {
      if (!known.has(field)) {
        warnings.push({ code: 'unknown_field', message: `${use}: no document of this collection has the field '${field}'` });
      }
    }
  }
  return warnings;
}
