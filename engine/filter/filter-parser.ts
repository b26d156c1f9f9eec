// The filter grammar (docs/api.md, "Search"): turns a user's filter object into a FilterNode, or throws
// EngineError('invalid_filter') with a message naming the path of the problem, e.g.
// `filter.$or[1].year: range bounds must be all numbers or all strings`.
//
// - A filter is a JSON object whose keys AND together: one key gives that condition itself,
//   several give an `and`, none (`{}`) gives match_all.
// - `{ "field": scalar }` is equality; `{ "field": [a, b] }` is equality with any of them
//   (a non-empty array of strings, numbers and booleans, mixed types allowed, deduplicated).
// - `{ "field": { "gte": 2020, "lt": 2024 } }` is a range: only gt, gte, lt, lte, at least
//   one, all finite numbers or all strings.
// - `{ "$or": [f1, f2, …] }` matches any (a single element is that element itself);
//   `{ "$not": f }` inverts. No other `$` operator exists.
// - At most MAX_FILTER_CLAUSES field conditions and MAX_FILTER_DEPTH levels of objects, both
//   checked while parsing, so an oversized filter costs no more than the limit to refuse.
// The AST mirrors the input: nothing is flattened or simplified beyond the rules above.

import { EngineError } from '../errors.ts';
import { MAX_FILTER_CLAUSES, MAX_FILTER_DEPTH } from './filter-types.ts';
import type { FilterNode, FilterScalar, RangeBounds } from './filter-types.ts';

/**
 * Longest metadata field name, in Unicode code points. The same limit as the server's
 * MAX_METADATA_FIELD_LENGTH (server/api/limits.ts), restated because the engine may not
 * import server/; a test checks the two agree.
 */
export const MAX_FIELD_NAME_LENGTH = 128;

/** The field-name rule in words, as docs/api.md states it, for error messages. */
export const FIELD_NAME_RULE = '1–128 characters; does not start with "$"; contains no "," or ":"';

/** The operators a filter object may use, in the order error messages list them. */
const OPERATORS = ['$or', '$not'] as const;

/** The keys a range object may use, in the order error messages list them. */
const RANGE_KEYS = ['gt', 'gte', 'lt', 'lte'] as const;

/** Field names and values longer than this are cut short when quoted in a message. */
const MAX_QUOTED_LENGTH = 64;

/** Field names shown bare in a path (`filter.year`); others are bracketed (`filter["a b"]`). */
const BARE_PATH_NAME = /^[\p{L}\p{N}_-]+$/u;

/**
 * Whether `name` may name a metadata field: 1–128 code points, not starting with `$`
 * (reserved for operators), with no `,` or `:` (the separators of `facets=a,b` and
 * `sort=year:desc`). The rule of server/api/document.ts (METADATA_FIELD_PATTERN).
 */
export function isAllowedFieldName(name: string): boolean {
  if (name.length === 0 || name.startsWith('$') || name.includes(',') || name.includes(':')) return false;
  return name.length <= MAX_FIELD_NAME_LENGTH || codePointCount(name) <= MAX_FIELD_NAME_LENGTH;
}

/** Parses a filter object (docs/api.md, "Search") into a FilterNode; throws EngineError('invalid_filter'). */
export function parseFilter(input: unknown): FilterNode {
  if (!isPlainObject(input)) fail('filter', `must be a JSON object, not ${describe(input)}`);
  return new FilterParser().parseObject(input, 'filter', 1);
}

/** Parses one filter; counts the field conditions seen so far against MAX_FILTER_CLAUSES. */
class FilterParser {
  private clauses = 0;

  /** A filter object at nesting `depth` (the whole filter is 1): its keys AND together. */
  parseObject(object: Record<string, unknown>, path: string, depth: number): FilterNode {
    if (depth > MAX_FILTER_DEPTH) fail(path, `filters may nest at most ${MAX_FILTER_DEPTH} objects deep`);
    const children: FilterNode[] = [];
    for (const key of Object.keys(object)) {
      const value = object[key];
      if (key.startsWith('$')) children.push(this.parseOperator(key, value, `${path}.${shorten(key)}`, depth));
      else children.push(this.parseField(key, value, fieldPath(path, key)));
    }
    if (children.length === 0) return { kind: 'match_all' };
    return children.length === 1 ? children[0] : { kind: 'and', children };
  }

  private parseOperator(operator: string, value: unknown, path: string, depth: number): FilterNode {
    if (operator === '$or') return this.parseOr(value, path, depth);
    if (operator === '$not') {
      if (!isPlainObject(value)) fail(path, `must be a filter object, not ${describe(value)}`);
      return { kind: 'not', child: this.parseObject(value, path, depth + 1) };
    }
    fail(
      path,
      `unknown operator ${quote(operator)}; the operators are ${OPERATORS.join(' and ')} ` +
        '(the keys of one object already AND together)',
    );
  }

  private parseOr(value: unknown, path: string, depth: number): FilterNode {
    if (!Array.isArray(value)) fail(path, `must be an array of filter objects, not ${describe(value)}`);
    if (value.length === 0) fail(path, 'must list at least one filter object');
    const children = value.map((element: unknown, i) => {
      const elementPath = `${path}[${i}]`;
      if (!isPlainObject(element)) fail(elementPath, `must be a filter object, not ${describe(element)}`);
      return this.parseObject(element, elementPath, depth + 1);
    });
    return children.length === 1 ? children[0] : { kind: 'or', children };
  }

  /** `field: scalar`, `field: [scalars]` or `field: { range }`: one field condition. */
  private parseField(field: string, value: unknown, path: string): FilterNode {
    if (!isAllowedFieldName(field)) fail(path, `${quote(field)} is not an allowed field name (${FIELD_NAME_RULE})`);
    this.clauses++;
    if (this.clauses > MAX_FILTER_CLAUSES) {
      fail(path, `too many clauses: a filter may have at most ${MAX_FILTER_CLAUSES} field conditions`);
    }
    if (isPlainObject(value)) return { kind: 'range', field, bounds: parseRange(value, path) };
    if (Array.isArray(value)) {
      if (value.length === 0) fail(path, 'must list at least one value (an empty list would match nothing)');
      const values = value.map((element: unknown, i) => parseScalar(element, `${path}[${i}]`));
      return { kind: 'in', field, values: [...new Set(values)] };
    }
    return { kind: 'in', field, values: [parseScalar(value, path)] };
  }
}

/** An equality value: a string, a finite number or a boolean. */
function parseScalar(value: unknown, path: string): FilterScalar {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(path, 'must be a finite number');
    return value;
  }
  fail(path, `must be a string, number or boolean, not ${describe(value)}`);
}

/** A range object: gt/gte/lt/lte only, at least one, all finite numbers or all strings. */
function parseRange(object: Record<string, unknown>, path: string): RangeBounds {
  const bounds: RangeBounds = {};
  let type: 'number' | 'string' | undefined;
  for (const key of Object.keys(object)) {
    if (!(RANGE_KEYS as readonly string[]).includes(key)) {
      fail(path, `${quote(key)} is not a range bound; a range may only have ${RANGE_KEYS.join(', ')}`);
    }
    const bound = object[key];
    const boundPath = `${path}.${key}`;
    if (typeof bound === 'number') {
      if (!Number.isFinite(bound)) fail(boundPath, 'must be a finite number');
    } else if (typeof bound !== 'string') {
      fail(boundPath, `a range bound must be a number or a string, not ${describe(bound)}`);
    }
    if (type !== undefined && typeof bound !== type) fail(path, 'range bounds must be all numbers or all strings');
    type = typeof bound === 'number' ? 'number' : 'string';
    bounds[key as keyof RangeBounds] = bound;
  }
  if (type === undefined) fail(path, `a range needs at least one of ${RANGE_KEYS.join(', ')}`);
  return bounds;
}

function fail(path: string, problem: string): never {
  throw new EngineError('invalid_filter', `${path}: ${problem}`);
}

/** A JSON object: not null, not an array, not a class instance. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** What a wrong value is, for "must be …, not …" messages. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string (${quote(value)})`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value;
}

/** The path of a field below `parent`: `filter.year`, or `filter["a b"]` for unusual names. */
function fieldPath(parent: string, field: string): string {
  return BARE_PATH_NAME.test(field) ? `${parent}.${shorten(field)}` : `${parent}[${quote(field)}]`;
}

/** A string in JSON quotes, cut short when very long. */
function quote(text: string): string {
  return JSON.stringify(shorten(text));
}

/** `text`, or its first MAX_QUOTED_LENGTH code units and `…` (never splitting a surrogate pair). */
function shorten(text: string): string {
  if (text.length <= MAX_QUOTED_LENGTH) return text;
  const last = text.charCodeAt(MAX_QUOTED_LENGTH - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_QUOTED_LENGTH - 1 : MAX_QUOTED_LENGTH;
  return `${text.slice(0, end)}…`;
}

function codePointCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
