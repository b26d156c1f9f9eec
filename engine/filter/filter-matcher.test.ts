// What a filter matches (docs/api.md, "Search"), one document at a time: the reference semantics that the
// searcher's bitmap evaluation must agree with. Each table is one rule, written as filters a
// user would send (parsed with parseFilter) against small metadata objects.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Metadata } from '../document.ts';
import { parseFilter } from './filter-parser.ts';
import { matchesFilter } from './filter-matcher.ts';

/** Asserts each [filter, metadata, expected] row, naming the row that disagrees. */
function check(rows: [filter: object, metadata: Metadata, expected: boolean][]): void {
  for (const [filter, metadata, expected] of rows) {
    assert.equal(
      matchesFilter(parseFilter(filter), metadata),
      expected,
      `${JSON.stringify(filter)} on ${JSON.stringify(metadata)} should be ${expected}`,
    );
  }
}

describe('filter matching: equality', () => {
  it('types never mix: 1 is not "1", true is not "true"', () => {
    check([
      [{ year: 2020 }, { year: 2020 }, true],
      [{ year: 2020 }, { year: '2020' }, false],
      [{ year: '2020' }, { year: 2020 }, false],
      [{ draft: true }, { draft: true }, true],
      [{ draft: true }, { draft: 'true' }, false],
      [{ draft: 'true' }, { draft: true }, false],
      [{ n: 1 }, { n: true }, false],
      [{ n: 0 }, { n: false }, false],
      [{ s: '' }, { s: false }, false],
    ]);
  });

  it('strings match exactly: case, accents and spaces count', () => {
    check([
      [{ tag: 'News' }, { tag: 'news' }, false],
      [{ tag: 'café' }, { tag: 'cafe' }, false],
      [{ tag: 'a' }, { tag: 'a ' }, false],
    ]);
  });

  it('numbers match by exact value: 1 and 1.0 are one number, 0 equals -0, nothing is rounded', () => {
    check([
      [{ n: 1 }, { n: 1.0 }, true],
      [{ n: 0 }, { n: -0 }, true],
      [{ n: 0.1 + 0.2 }, { n: 0.3 }, false],
    ]);
  });

  it('a list of values matches any of them', () => {
    check([
      [{ tag: ['a', 'b'] }, { tag: 'b' }, true],
      [{ tag: ['a', 'b'] }, { tag: 'c' }, false],
      [{ code: [1, '2'] }, { code: 2 }, false],
      [{ code: [1, '2'] }, { code: '2' }, true],
    ]);
  });

  it('an array value matches when any element matches', () => {
    check([
      [{ tags: 'b' }, { tags: ['a', 'b'] }, true],
      [{ tags: 'c' }, { tags: ['a', 'b'] }, false],
      [{ tags: ['c', 'a'] }, { tags: ['a', 'b'] }, true],
      [{ sizes: 2 }, { sizes: [1, 2, 3] }, true],
      [{ sizes: '2' }, { sizes: [1, 2, 3] }, false],
      [{ tags: 'a' }, { tags: [] }, false],
    ]);
  });

  it('a missing field matches nothing', () => {
    check([
      [{ tag: 'a' }, {}, false],
      [{ tag: 'a' }, { other: 'a' }, false],
    ]);
  });

  it('only the document’s own fields count, never an object’s built-in properties', () => {
    check([
      [{ constructor: 'x' }, {}, false],
      [{ toString: 'x' }, {}, false],
      [{ constructor: { gte: '' } }, {}, false],
      [{ constructor: 'x' }, { constructor: 'x' }, true],
      [{ $not: { hasOwnProperty: 'x' } }, {}, true],
    ]);
  });
});

describe('filter matching: ranges', () => {
  it('numbers compare numerically, each bound inclusive or not as written', () => {
    check([
      [{ year: { gte: 2020, lt: 2024 } }, { year: 2020 }, true],
      [{ year: { gte: 2020, lt: 2024 } }, { year: 2023.5 }, true],
      [{ year: { gte: 2020, lt: 2024 } }, { year: 2024 }, false],
      [{ year: { gt: 2020 } }, { year: 2020 }, false],
      [{ year: { lte: 2020 } }, { year: 2020 }, true],
      [{ year: { lte: 2020 } }, { year: -5 }, true],
      [{ n: { gt: 9 } }, { n: 10 }, true], // not "10" < "9" as strings
      [{ year: { gt: 5, lt: 3 } }, { year: 4 }, false],
    ]);
  });

  it('strings compare by code point: uppercase before lowercase, no locale rules', () => {
    check([
      [{ date: { gte: '2024-01-01', lt: '2024-02-01' } }, { date: '2024-01-31T23:59:59Z' }, true],
      [{ date: { gte: '2024-01-01', lt: '2024-02-01' } }, { date: '2024-02-01' }, false],
      [{ name: { lt: 'a' } }, { name: 'Z' }, true],
      [{ name: { lt: 'a' } }, { name: 'é' }, false],
      [{ name: { gt: 'a' } }, { name: 'ab' }, true],
      [{ name: { gte: '' } }, { name: '' }, true],
      [{ n: { gt: '9' } }, { n: '10' }, false], // strings: "10" < "9"
    ]);
  });

  it('code point order puts characters beyond U+FFFF after U+E000–U+FFFF (unlike UTF-16 order)', () => {
    check([
      [{ s: { gt: '\uFFFD' } }, { s: '😀' }, true],
      [{ s: { lt: '😀' } }, { s: '\uFFFD' }, true],
      [{ s: { lt: '\uFFFD' } }, { s: '😀' }, false],
    ]);
  });

  it('only values of the bounds’ type can match: numbers for number bounds, strings for string bounds', () => {
    check([
      [{ year: { gte: 2020 } }, { year: '2021' }, false],
      [{ year: { gte: '2020' } }, { year: 2021 }, false],
      [{ flag: { gte: 0 } }, { flag: true }, false],
      [{ flag: { gte: '' } }, { flag: false }, false],
    ]);
  });

  it('an array value matches when one element satisfies every bound', () => {
    check([
      [{ sizes: { gte: 3, lte: 4 } }, { sizes: [1, 5] }, false], // 1 ≤ 4 and 5 ≥ 3, but no one element does both
      [{ sizes: { gte: 3, lte: 4 } }, { sizes: [1, 3.5, 9] }, true],
      [{ tags: { gte: 'm' } }, { tags: ['a', 'z'] }, true],
      [{ sizes: { gte: 0 } }, { sizes: [] }, false],
    ]);
  });

  it('a missing field is in no range', () => {
    check([[{ year: { gte: 0 } }, {}, false]]);
  });
});

describe('filter matching: combining', () => {
  it('the empty filter matches every document', () => {
    check([
      [{}, {}, true],
      [{}, { a: 1 }, true],
    ]);
  });

  it('keys of one object must all match', () => {
    check([
      [{ a: 1, b: 'x' }, { a: 1, b: 'x' }, true],
      [{ a: 1, b: 'x' }, { a: 1, b: 'y' }, false],
      [{ a: 1, b: 'x' }, { a: 1 }, false],
    ]);
  });

  it('$or matches when any of its filters does', () => {
    check([
      [{ $or: [{ a: 1 }, { b: 2 }] }, { b: 2 }, true],
      [{ $or: [{ a: 1 }, { b: 2 }] }, { a: 2, b: 1 }, false],
      [{ $or: [{ a: 1 }, {}] }, {}, true],
    ]);
  });

  it('$not matches what its filter does not, including documents without the field', () => {
    check([
      [{ $not: { status: 'draft' } }, { status: 'draft' }, false],
      [{ $not: { status: 'draft' } }, { status: 'published' }, true],
      [{ $not: { status: 'draft' } }, {}, true],
      [{ $not: { status: 'draft' } }, { status: ['draft', 'review'] }, false],
      [{ $not: { year: { gte: 2020 } } }, { year: '2021' }, true],
      [{ $not: { year: { gte: 2020 } } }, {}, true],
      [{ $not: {} }, { a: 1 }, false],
      [{ $not: { $not: { a: 1 } } }, { a: 1 }, true],
    ]);
  });

  it('operators nest and mix with fields', () => {
    const filter = { lang: 'en', $or: [{ year: { gte: 2020 } }, { $not: { tags: ['old', 'archived'] } }] };
    check([
      [filter, { lang: 'en', year: 2021, tags: ['old'] }, true],
      [filter, { lang: 'en', year: 2019, tags: ['new'] }, true],
      [filter, { lang: 'en', year: 2019, tags: ['archived'] }, false],
      [filter, { lang: 'en' }, true],
      [filter, { lang: 'de', year: 2021 }, false],
    ]);
  });
});
