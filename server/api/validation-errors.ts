// Turns the raw schema-validation errors of a request into the short `errors: [{ path,
// message }]` list of a problem body. Raw errors are noisy: a union reports a failure for
// every branch, and `additionalProperties: false` reports both the object and the property.
// Here each union keeps only the branch that fits the value best, branch failures that all
// say "wrong type" merge into one message, and summaries that repeat a finer error go.

import type { FieldError } from '../errors/index.ts';
import { MAX_LISTED_FIELD_ERRORS } from './limits.ts';

/** The shape of one error from the TypeBox (or Ajv) validator. */
export interface RawValidationError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** Schema keywords that step one level into the instance; the next segment is a name. */
const NAMED_STEPS = new Set(['properties', 'patternProperties', 'prefixItems', 'dependentSchemas']);
/** Schema keywords that step one level into the instance on their own. */
const PLAIN_STEPS = new Set(['items', 'additionalProperties', 'propertyNames', 'contains', 'unevaluatedProperties']);
/** Union keywords; the next segment is the branch index. */
const UNION_KEYWORDS = new Set(['anyOf', 'oneOf']);
/** Summaries that only repeat the finer errors reported beside them. */
const SUMMARY_KEYWORDS = new Set(['anyOf', 'oneOf', 'additionalProperties', 'propertyNames']);

interface Located {
  error: RawValidationError;
  /** Position in the validator's list, to report in its order. */
  order: number;
  segments: string[];
  /** Index in `segments` from which unions are still unresolved. */
  cursor: number;
  /** Instance segments consumed by the schema path before `cursor`. */
  depth: number;
}

function instanceSegments(error: RawValidationError): string[] {
  return error.instancePath === '' ? [] : error.instancePath.split('/').slice(1);
}

/** Advances to the next union in the schema path, or returns null when there is none. */
function nextUnion(item: Located): { at: number; depth: number } | null {
  let depth = item.depth;
  for (let i = item.cursor; i < item.segments.length; i++) {
    const segment = item.segments[i];
    if (UNION_KEYWORDS.has(segment) && i + 1 < item.segments.length) return { at: i, depth };
    if (NAMED_STEPS.has(segment)) {
      depth += 1;
      i += 1;
    } else if (PLAIN_STEPS.has(segment)) {
      depth += 1;
    }
  }
  return null;
}

/** Higher is a better fit: deeper errors, and at equal depth not a bare type mismatch. */
function fitScore(errors: Located[]): number {
  let best = -1;
  for (const { error } of errors) {
    const score = instanceSegments(error).length * 2 + (error.keyword === 'type' ? 0 : 1);
    if (score > best) best = score;
  }
  return best;
}

/** Tied branches that each failed one type or constant check on the same value merge. */
function mergeAlternatives(branches: Located[][]): Located[] | null {
  if (!branches.every((b) => b.length === 1)) return null;
  const first = branches[0][0];
  const alternatives: string[] = [];
  for (const [{ error }] of branches) {
    if (error.instancePath !== first.error.instancePath) return null;
    if (error.keyword === 'type') alternatives.push(String(error.params?.type));
    else if (error.keyword === 'const') alternatives.push(JSON.stringify(error.params?.allowedValue));
    else return null;
  }
  const unique = [...new Set(alternatives)];
  const message = `must be ${unique.length > 1 ? `one of ${unique.join(', ')}` : unique[0]}`;
  return [{ ...first, error: { ...first.error, message } }];
}

function resolveUnions(items: Located[]): Located[] {
  const settled: Located[] = [];
  const groups = new Map<string, { at: number; branches: Map<string, Located[]> }>();
  for (const item of items) {
    const union = nextUnion(item);
    if (union === null) {
      settled.push(item);
      continue;
    }
    const location = instanceSegments(item.error).slice(0, union.depth).join('/');
    const key = `${item.segments.slice(0, union.at).join('/')}@${location}`;
    const group = groups.get(key) ?? { at: union.at, branches: new Map<string, Located[]>() };
    groups.set(key, group);
    const branch = item.segments[union.at + 1];
    const advanced = { ...item, cursor: union.at + 2, depth: union.depth };
    group.branches.set(branch, [...(group.branches.get(branch) ?? []), advanced]);
  }
  for (const { branches } of groups.values()) {
    const candidates = [...branches.values()].map((b) => resolveUnions(b));
    const best = Math.max(...candidates.map(fitScore));
    const tied = candidates.filter((b) => fitScore(b) === best);
    settled.push(...(tied.length > 1 ? mergeAlternatives(tied) ?? tied.flat() : tied[0]));
  }
  return settled;
}

function describe(error: RawValidationError, parentKeyword: string | undefined): string {
  if (error.keyword === 'boolean' && parentKeyword === 'additionalProperties') return 'is not an allowed property';
  if (parentKeyword === 'propertyNames') return 'is not an allowed field name';
  if (error.keyword === 'minProperties' && error.params?.limit === 1) return 'must not be empty';
  return error.message ?? 'is invalid';
}

/**
 * Condenses raw validation errors of one request part (`body`, `querystring`, `params`)
 * into field errors, at most MAX_LISTED_FIELD_ERRORS of them.
 */
export function toFieldErrors(part: string, errors: readonly RawValidationError[]): FieldError[] {
  const located = errors
    .filter((error) => !SUMMARY_KEYWORDS.has(error.keyword))
    .map((error, order) => ({ error, order, segments: error.schemaPath.replace(/^#\/?/, '').split('/'), cursor: 0, depth: 0 }));
  const seen = new Set<string>();
  const result: FieldError[] = [];
  const resolved = resolveUnions(located).sort((a, b) => a.order - b.order);
  for (const { error, segments } of resolved) {
    const path = `/${part}${error.instancePath}`;
    const message = describe(error, segments.at(-1));
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ path, message });
    if (result.length === MAX_LISTED_FIELD_ERRORS) break;
  }
  if (result.length === 0) result.push({ path: `/${part}`, message: 'is invalid' });
  return result;
}
