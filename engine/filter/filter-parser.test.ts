// The filter syntax, as a user writes it (docs/api.md, "Search"), and the AST the searcher is given. Each
// test is one rule of the manual or one error a user may meet. A property test renders random
// ASTs as JSON and checks the parsed filter matches the same documents; a fuzz test checks no
// input breaks the parser with anything but an invalid_filter error.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError } from '../errors.ts';
import type { Metadata } from '../document.ts';
import { FIELD_NAME_RULE, MAX_FIELD_NAME_LENGTH, isAllowedFieldName, parseFilter } from './filter-parser.ts';
import { matchesFilter } from './filter-matcher.ts';
import { MAX_FILTER_CLAUSES, MAX_FILTER_DEPTH } from './filter-types.ts';
import type { FilterNode, FilterScalar, RangeBounds } from './filter-types.ts';
import { MAX_METADATA_FIELD_LENGTH, METADATA_FIELD_PATTERN } from '../../server/names/index.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';

/** The message of the invalid_filter error `input` raises (fails the test if it parses). */
function errorOf(input: unknown): string {
  try {
    parseFilter(input);
  } catch (error) {
    assert.ok(error instanceof EngineError, `expected an EngineError, got ${String(error)}`);
    assert.equal(error.code, 'invalid_filter');
    return error.message;
  }
  assert.fail(`expected ${JSON.stringify(input)} to be refused`);
}

/** `{ "$not": { "$not": … } }` wrapped round `inner` until the whole has `levels` objects. */
function nestedNots(levels: number, inner: object = { a: 1 }): object {
  let filter = inner;
  for (let level = 1; level < levels; level++) filter = { $not: filter };
  return filter;
}

describe('filter syntax: equality', () => {
  it('{ field: value } keeps documents whose field has that value', () => {
    assert.deepEqual(parseFilter({ category: 'news' }), { kind: 'in', field: 'category', values: ['news'] });
    assert.deepEqual(parseFilter({ year: 2021 }), { kind: 'in', field: 'year', values: [2021] });
    assert.deepEqual(parseFilter({ draft: false }), { kind: 'in', field: 'draft', values: [false] });
  });

  it('{ field: [a, b] } keeps documents with any of the values; repeats are dropped, types kept apart', () => {
    assert.deepEqual(parseFilter({ tags: ['a', 'b', 'a'] }), { kind: 'in', field: 'tags', values: ['a', 'b'] });
    assert.deepEqual(parseFilter({ code: [1, '1', true, 'true', 1] }), {
      kind: 'in',
      field: 'code',
      values: [1, '1', true, 'true'],
    });
  });

  it('a one-value list is the same as the value', () => {
    assert.deepEqual(parseFilter({ tags: ['a'] }), parseFilter({ tags: 'a' }));
  });

  it('an empty list is refused: it would match nothing', () => {
    assert.equal(errorOf({ tags: [] }), 'filter.tags: must list at least one value (an empty list would match nothing)');
  });

  it('values are strings, finite numbers or booleans: null, nested lists and objects in lists are refused', () => {
    assert.equal(errorOf({ year: null }), 'filter.year: must be a string, number or boolean, not null');
    assert.equal(errorOf({ tags: ['a', ['b']] }), 'filter.tags[1]: must be a string, number or boolean, not an array');
    assert.equal(errorOf({ tags: ['a', { gte: 1 }] }), 'filter.tags[1]: must be a string, number or boolean, not an object');
    assert.equal(errorOf({ tags: ['a', null] }), 'filter.tags[1]: must be a string, number or boolean, not null');
    assert.equal(errorOf({ year: Number.NaN }), 'filter.year: must be a finite number');
    assert.equal(errorOf({ year: [1, Infinity] }), 'filter.year[1]: must be a finite number');
  });
});

describe('filter syntax: ranges', () => {
  it('{ field: { gte, lt } } keeps documents with a value in the range', () => {
    assert.deepEqual(parseFilter({ year: { gte: 2020, lt: 2024 } }), {
      kind: 'range',
      field: 'year',
      bounds: { gte: 2020, lt: 2024 },
    });
    assert.deepEqual(parseFilter({ price: { gt: 1.5 } }), { kind: 'range', field: 'price', bounds: { gt: 1.5 } });
    assert.deepEqual(parseFilter({ price: { lte: 0 } }), { kind: 'range', field: 'price', bounds: { lte: 0 } });
  });

  it('string bounds compare strings (by code point), e.g. ISO dates', () => {
    assert.deepEqual(parseFilter({ date: { gte: '2024-01-01', lt: '2024-02-01' } }), {
      kind: 'range',
      field: 'date',
      bounds: { gte: '2024-01-01', lt: '2024-02-01' },
    });
  });

  it('bounds are all numbers or all strings', () => {
    assert.equal(
      errorOf({ $or: [{ a: 1 }, { year: { gte: 2020, lt: '2024' } }] }),
      'filter.$or[1].year: range bounds must be all numbers or all strings',
    );
  });

  it('a bound is a finite number or a string: booleans, null, lists and objects are refused', () => {
    assert.equal(errorOf({ year: { gte: true } }), 'filter.year.gte: a range bound must be a number or a string, not boolean true');
    assert.equal(errorOf({ year: { gte: null } }), 'filter.year.gte: a range bound must be a number or a string, not null');
    assert.equal(errorOf({ year: { gte: [1] } }), 'filter.year.gte: a range bound must be a number or a string, not an array');
    assert.equal(errorOf({ year: { lt: Infinity } }), 'filter.year.lt: must be a finite number');
  });

  it('a range has only gt, gte, lt, lte, and at least one of them; errors name the allowed keys', () => {
    assert.equal(errorOf({ year: { from: 2020 } }), 'filter.year: "from" is not a range bound; a range may only have gt, gte, lt, lte');
    assert.equal(
      errorOf({ year: { gte: 2020, $or: [] } }),
      'filter.year: "$or" is not a range bound; a range may only have gt, gte, lt, lte',
    );
    assert.equal(errorOf({ year: {} }), 'filter.year: a range needs at least one of gt, gte, lt, lte');
  });

  it('bounds that exclude everything are allowed (they match nothing)', () => {
    assert.deepEqual(parseFilter({ year: { gt: 5, lt: 3 } }), { kind: 'range', field: 'year', bounds: { gt: 5, lt: 3 } });
  });
});

describe('filter syntax: combining', () => {
  it('{} is the empty filter: every document', () => {
    assert.deepEqual(parseFilter({}), { kind: 'match_all' });
  });

  it('the keys of one object AND together, in the order written', () => {
    assert.deepEqual(parseFilter({ category: 'news', year: { gte: 2020 } }), {
      kind: 'and',
      children: [
        { kind: 'in', field: 'category', values: ['news'] },
        { kind: 'range', field: 'year', bounds: { gte: 2020 } },
      ],
    });
  });

  it('$or keeps documents matching any of its filters; one filter is that filter itself', () => {
    assert.deepEqual(parseFilter({ $or: [{ a: 1 }, { b: 2, c: 3 }] }), {
      kind: 'or',
      children: [
        { kind: 'in', field: 'a', values: [1] },
        {
          kind: 'and',
          children: [
            { kind: 'in', field: 'b', values: [2] },
            { kind: 'in', field: 'c', values: [3] },
          ],
        },
      ],
    });
    assert.deepEqual(parseFilter({ $or: [{ a: 1 }] }), { kind: 'in', field: 'a', values: [1] });
  });

  it('$not keeps documents its filter does not match', () => {
    assert.deepEqual(parseFilter({ $not: { status: 'draft' } }), {
      kind: 'not',
      child: { kind: 'in', field: 'status', values: ['draft'] },
    });
  });

  it('operators and fields mix in one object', () => {
    assert.deepEqual(parseFilter({ lang: 'en', $not: { tags: ['x', 'y'] }, $or: [{ a: 1 }, {}] }), {
      kind: 'and',
      children: [
        { kind: 'in', field: 'lang', values: ['en'] },
        { kind: 'not', child: { kind: 'in', field: 'tags', values: ['x', 'y'] } },
        { kind: 'or', children: [{ kind: 'in', field: 'a', values: [1] }, { kind: 'match_all' }] },
      ],
    });
  });

  it('an empty object inside $or or $not is the empty filter', () => {
    assert.deepEqual(parseFilter({ $not: {} }), { kind: 'not', child: { kind: 'match_all' } });
    assert.deepEqual(parseFilter({ $or: [{}] }), { kind: 'match_all' });
  });

  it('$or takes a non-empty array of filter objects', () => {
    assert.equal(errorOf({ $or: { a: 1 } }), 'filter.$or: must be an array of filter objects, not an object');
    assert.equal(errorOf({ $or: [] }), 'filter.$or: must list at least one filter object');
    assert.equal(errorOf({ $or: [{ a: 1 }, 'b'] }), 'filter.$or[1]: must be a filter object, not a string ("b")');
    assert.equal(errorOf({ $or: [{ a: 1 }, [{ b: 1 }]] }), 'filter.$or[1]: must be a filter object, not an array');
    assert.equal(errorOf({ $or: [null] }), 'filter.$or[0]: must be a filter object, not null');
  });

  it('$not takes one filter object', () => {
    assert.equal(errorOf({ $not: [{ a: 1 }] }), 'filter.$not: must be a filter object, not an array');
    assert.equal(errorOf({ $not: 'a' }), 'filter.$not: must be a filter object, not a string ("a")');
  });

  it('other $ operators are refused, listing the ones there are', () => {
    assert.equal(
      errorOf({ $and: [{ a: 1 }] }),
      'filter.$and: unknown operator "$and"; the operators are $or and $not (the keys of one object already AND together)',
    );
    assert.match(errorOf({ $not: { $in: [1] } }), /^filter\.\$not\.\$in: unknown operator "\$in"; the operators are \$or and \$not/);
    assert.match(errorOf({ $: 1 }), /^filter\.\$: unknown operator "\$"/);
  });
});

describe('filter syntax: the filter itself', () => {
  it('must be a JSON object', () => {
    assert.equal(errorOf(null), 'filter: must be a JSON object, not null');
    assert.equal(errorOf([{ a: 1 }]), 'filter: must be a JSON object, not an array');
    assert.equal(errorOf('{"a":1}'), 'filter: must be a JSON object, not a string ("{\\"a\\":1}")');
    assert.equal(errorOf(3), 'filter: must be a JSON object, not number 3');
    assert.equal(errorOf(undefined), 'filter: must be a JSON object, not undefined');
    assert.equal(errorOf(new Date(0)), 'filter: must be a JSON object, not an object');
  });

  it('accepts an object without a prototype', () => {
    const filter = Object.assign(Object.create(null) as object, { a: 1 });
    assert.deepEqual(parseFilter(filter), { kind: 'in', field: 'a', values: [1] });
  });
});

describe('filter syntax: field names', () => {
  it('follow the metadata rule: 1–128 characters, no leading $, no "," or ":"', () => {
    const rule = `(${FIELD_NAME_RULE})`;
    assert.equal(errorOf({ '': 1 }), `filter[""]: "" is not an allowed field name ${rule}`);
    assert.equal(errorOf({ 'a,b': 1 }), `filter["a,b"]: "a,b" is not an allowed field name ${rule}`);
    assert.equal(errorOf({ $or: [{ 'x:y': 1 }] }), `filter.$or[0]["x:y"]: "x:y" is not an allowed field name ${rule}`);
    const long = 'f'.repeat(MAX_FIELD_NAME_LENGTH + 1);
    assert.match(errorOf({ [long]: 1 }), /^filter\.f{64}…: "f{64}…" is not an allowed field name/);
  });

  it('any other name is a field, even a "$" later on, spaces or an object method’s name', () => {
    assert.deepEqual(parseFilter({ 'price $': 1 }), { kind: 'in', field: 'price $', values: [1] });
    assert.deepEqual(parseFilter({ 'my field': 'x' }), { kind: 'in', field: 'my field', values: ['x'] });
    assert.deepEqual(parseFilter(JSON.parse('{"__proto__": 1}')), { kind: 'in', field: '__proto__', values: [1] });
    assert.deepEqual(parseFilter({ constructor: 1 }), { kind: 'in', field: 'constructor', values: [1] });
  });

  it('length counts code points, as the metadata schema does', () => {
    const emoji = '😀'.repeat(MAX_FIELD_NAME_LENGTH); // 256 UTF-16 units, 128 code points
    assert.equal(isAllowedFieldName(emoji), true);
    assert.equal(isAllowedFieldName(`${emoji}x`), false);
  });

  it('is the same rule as the server’s metadata schema', () => {
    assert.equal(MAX_FIELD_NAME_LENGTH, MAX_METADATA_FIELD_LENGTH);
    const pattern = new RegExp(METADATA_FIELD_PATTERN, 'u');
    const names = ['a', '', '$a', 'a$', 'a,b', 'a:b', ' ', '_id', 'é', ',', ':', 'a b', '$', 'x'.repeat(128), 'x'.repeat(129)];
    for (const name of names) {
      const schemaAllows = pattern.test(name) && [...name].length <= MAX_METADATA_FIELD_LENGTH;
      assert.equal(isAllowedFieldName(name), schemaAllows, JSON.stringify(name));
    }
  });

  it('paths show plain names bare and others quoted', () => {
    assert.match(errorOf({ 'année': null }), /^filter\.année: /);
    assert.match(errorOf({ 'my-field_2': null }), /^filter\.my-field_2: /);
    assert.match(errorOf({ 'a.b': null }), /^filter\["a\.b"\]: /);
  });
});

describe('filter syntax: limits', () => {
  it(`at most ${MAX_FILTER_CLAUSES} field conditions (a list of values is one)`, () => {
    const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, [1, 2, 3]]));
    const atLimit = parseFilter(fields(MAX_FILTER_CLAUSES));
    assert.equal(atLimit.kind === 'and' && atLimit.children.length, MAX_FILTER_CLAUSES);
    assert.equal(
      errorOf(fields(MAX_FILTER_CLAUSES + 1)),
      `filter.f${MAX_FILTER_CLAUSES}: too many clauses: a filter may have at most ${MAX_FILTER_CLAUSES} field conditions`,
    );
  });

  it('conditions are counted across $or and $not, and ranges count too', () => {
    const half = MAX_FILTER_CLAUSES / 2;
    const ors = Array.from({ length: half }, (_, i) => ({ [`f${i}`]: i }));
    const nots = Object.fromEntries(Array.from({ length: half }, (_, i) => [`g${i}`, { gte: i }]));
    parseFilter({ $or: ors, $not: nots });
    assert.match(errorOf({ $or: ors, $not: { ...nots, extra: 1 } }), /^filter\.\$not\.extra: too many clauses/);
  });

  it('a huge $or is refused without parsing all of it', () => {
    const huge = Array.from({ length: 100_000 }, () => ({ a: 1 }));
    assert.match(errorOf({ $or: huge }), /^filter\.\$or\[64\]\.a: too many clauses/);
  });

  it(`objects nest at most ${MAX_FILTER_DEPTH} deep (the whole filter is the first)`, () => {
    const atLimit = parseFilter(nestedNots(MAX_FILTER_DEPTH));
    let depth = 1;
    for (let node = atLimit; node.kind === 'not'; node = node.child) depth++;
    assert.equal(depth, MAX_FILTER_DEPTH);
    const path = `filter${'.$not'.repeat(MAX_FILTER_DEPTH)}`;
    assert.equal(errorOf(nestedNots(MAX_FILTER_DEPTH + 1)), `${path}: filters may nest at most ${MAX_FILTER_DEPTH} objects deep`);
    assert.match(errorOf({ $or: [{ $or: [nestedNots(MAX_FILTER_DEPTH - 1)] }] }), /filters may nest at most/);
  });

  it('a very deep filter is refused quickly, not with a stack overflow', () => {
    assert.match(errorOf(nestedNots(100_000)), /filters may nest at most/);
  });

  it('long names and values are cut short in messages', () => {
    const name = `$${'x'.repeat(10_000)}`;
    assert.equal(
      errorOf({ [name]: 1 }),
      `filter.$${'x'.repeat(63)}…: unknown operator "$${'x'.repeat(63)}…"; the operators are $or and $not (the keys of one object already AND together)`,
    );
    assert.match(errorOf({ $not: 'y'.repeat(10_000) }), /^filter\.\$not: must be a filter object, not a string \("y{64}…"\)$/);
  });
});

// ---- Property: any AST, written as JSON the way a user would, parses to an equivalent AST ----

const FIELDS = ['a', 'b', 'c'];
const NUMBERS = [-1, 0, 1, 2, 10, 2.5];
const STRINGS = ['', '1', '10', '2', 'a', 'B', 'é', '\uE000', '😀', 'true'];
const BOUND_KEYS = ['gt', 'gte', 'lt', 'lte'] as const;

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function randomScalar(random: () => number): FilterScalar {
  const r = random();
  if (r < 0.45) return pick(random, NUMBERS);
  if (r < 0.9) return pick(random, STRINGS);
  return random() < 0.5;
}

function randomBounds(random: () => number): RangeBounds {
  const values: readonly (number | string)[] = random() < 0.5 ? NUMBERS : STRINGS;
  const bounds: RangeBounds = {};
  for (const key of BOUND_KEYS) if (random() < 0.4) bounds[key] = pick(random, values);
  if (Object.keys(bounds).length === 0) bounds[pick(random, BOUND_KEYS)] = pick(random, values);
  return bounds;
}

/** A random AST with at most `depth` levels of and/or/not above its leaves. */
function randomNode(random: () => number, depth: number): FilterNode {
  const r = random();
  if (depth === 0 || r < 0.35) {
    const field = pick(random, FIELDS);
    if (random() < 0.6) {
      const values = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomScalar(random));
      return { kind: 'in', field, values: [...new Set(values)] };
    }
    return { kind: 'range', field, bounds: randomBounds(random) };
  }
  if (r < 0.4) return { kind: 'match_all' };
  if (r < 0.6) return { kind: 'not', child: randomNode(random, depth - 1) };
  const children = Array.from({ length: 2 + Math.floor(random() * 2) }, () => randomNode(random, depth - 1));
  return { kind: r < 0.8 ? 'and' : 'or', children };
}

/**
 * The node as a user would write it. `and` merges its children's objects when their keys
 * differ; otherwise (two conditions on one field) it becomes `$not` of `$or` of `$not`s.
 * A node of depth d renders at most 1 + 3d objects deep.
 */
function render(node: FilterNode): Record<string, unknown> {
  switch (node.kind) {
    case 'match_all':
      return {};
    case 'in':
      return { [node.field]: node.values.length === 1 && writesBare(node.values[0]) ? node.values[0] : node.values };
    case 'range':
      return { [node.field]: { ...node.bounds } };
    case 'not':
      return { $not: render(node.child) };
    case 'or':
      return { $or: node.children.map(render) };
    case 'and': {
      const parts = node.children.map(render);
      const keys = parts.flatMap((part) => Object.keys(part));
      if (new Set(keys).size === keys.length) return Object.assign({}, ...parts) as Record<string, unknown>;
      return { $not: { $or: parts.map((part) => ({ $not: part })) } };
    }
  }
}

/** One-value lists are written both ways (`"x"` and `["x"]`), chosen by the value. */
function writesBare(value: FilterScalar): boolean {
  return String(value).length % 2 === 0;
}

function randomMetadata(random: () => number): Metadata {
  const metadata: Metadata = {};
  for (const field of FIELDS) {
    const r = random();
    if (r < 0.2) continue;
    if (r < 0.45) metadata[field] = pick(random, NUMBERS);
    else if (r < 0.7) metadata[field] = pick(random, STRINGS);
    else if (r < 0.8) metadata[field] = random() < 0.5;
    else if (r < 0.9) metadata[field] = Array.from({ length: Math.floor(random() * 3) }, () => pick(random, NUMBERS));
    else metadata[field] = Array.from({ length: Math.floor(random() * 3) }, () => pick(random, STRINGS));
  }
  return metadata;
}

describe('filter syntax: property', () => {
  it('a random filter written as JSON parses to one that matches the same documents', () => {
    const random = seededRandom(20240611);
    const documents = Array.from({ length: 60 }, () => randomMetadata(random));
    let matched = 0;
    let checked = 0;
    for (let round = 0; round < 600; round++) {
      const node = randomNode(random, 2);
      const json = JSON.parse(JSON.stringify(render(node))) as unknown;
      const parsed = parseFilter(json);
      for (const metadata of documents) {
        const expected = matchesFilter(node, metadata);
        assert.equal(matchesFilter(parsed, metadata), expected, `${JSON.stringify(json)} on ${JSON.stringify(metadata)}`);
        if (expected) matched++;
        checked++;
      }
    }
    // Both outcomes are common, so the property says something.
    assert.ok(matched > checked / 10 && matched < (checked * 9) / 10, `${matched} of ${checked} matched`);
  });
});

describe('filter syntax: fuzz', () => {
  function randomJson(random: () => number, depth: number): unknown {
    const r = random();
    if (depth === 0 || r < 0.3) return pick(random, [null, true, false, 0, 1.5, -3, '', 'x', '2020'] as const);
    if (r < 0.5) return Array.from({ length: Math.floor(random() * 3) }, () => randomJson(random, depth - 1));
    const keys = ['a', 'b', '$or', '$not', '$and', 'gt', 'gte', 'lt', 'lte', '', 'x:y'];
    const size = Math.floor(random() * 4);
    return Object.fromEntries(Array.from({ length: size }, () => [pick(random, keys), randomJson(random, depth - 1)]));
  }

  it('any JSON value either parses or is refused with invalid_filter', () => {
    const random = seededRandom(99);
    let parsed = 0;
    for (let round = 0; round < 5_000; round++) {
      const input = randomJson(random, 5);
      try {
        parseFilter(input);
        parsed++;
      } catch (error) {
        assert.ok(error instanceof EngineError && error.code === 'invalid_filter', `${JSON.stringify(input)}: ${String(error)}`);
        assert.match(error.message, /^filter[.[:]/);
      }
    }
    assert.ok(parsed > 0);
  });
});
