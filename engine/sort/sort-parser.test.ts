// The sort syntax, as a user writes it (docs/api.md, "Search": `sort=year:desc,title:asc`), and the keys the
// searcher orders hits by. Each test is one rule of the manual or one error a user may meet.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError } from '../errors.ts';
import { FIELD_NAME_RULE } from '../filter/index.ts';
import { parseSort } from './sort-parser.ts';
import { MAX_SORT_KEYS } from './sort-types.ts';

/** The message of the invalid_sort error `input` raises (fails the test if it parses). */
function errorOf(input: string | string[]): string {
  try {
    parseSort(input);
  } catch (error) {
    assert.ok(error instanceof EngineError, `expected an EngineError, got ${String(error)}`);
    assert.equal(error.code, 'invalid_sort');
    return error.message;
  }
  assert.fail(`expected ${JSON.stringify(input)} to be refused`);
}

describe('sort syntax: keys', () => {
  it('no sort, or an empty one, gives no keys (the default: relevance)', () => {
    assert.deepEqual(parseSort(undefined), []);
    assert.deepEqual(parseSort(''), []);
    assert.deepEqual(parseSort([]), []);
    assert.deepEqual(parseSort(['', ' , ,']), []);
  });

  it('a metadata field sorts ascending unless told otherwise', () => {
    assert.deepEqual(parseSort('year'), [{ kind: 'field', field: 'year', direction: 'asc' }]);
    assert.deepEqual(parseSort('year:desc'), [{ kind: 'field', field: 'year', direction: 'desc' }]);
    assert.deepEqual(parseSort('year:asc'), [{ kind: 'field', field: 'year', direction: 'asc' }]);
  });

  it('_score is relevance, highest first unless told otherwise; _score:asc is allowed', () => {
    assert.deepEqual(parseSort('_score'), [{ kind: 'score', direction: 'desc' }]);
    assert.deepEqual(parseSort('_score:asc'), [{ kind: 'score', direction: 'asc' }]);
  });

  it('_id is the document id and title the document’s own title, both ascending by default', () => {
    assert.deepEqual(parseSort('_id'), [{ kind: 'id', direction: 'asc' }]);
    assert.deepEqual(parseSort('title:desc'), [{ kind: 'title', direction: 'desc' }]);
  });

  it('special names are exact; other spellings are metadata fields', () => {
    assert.deepEqual(parseSort('Title,_SCORE,_idx'), [
      { kind: 'field', field: 'Title', direction: 'asc' },
      { kind: 'field', field: '_SCORE', direction: 'asc' },
      { kind: 'field', field: '_idx', direction: 'asc' },
    ]);
  });

  it('the direction may be written in any case', () => {
    assert.deepEqual(parseSort('year:DESC,_id:Asc'), [
      { kind: 'field', field: 'year', direction: 'desc' },
      { kind: 'id', direction: 'asc' },
    ]);
  });

  it('keys are comma-separated, first key first; an array (repeated parameters) continues the list', () => {
    const expected = [
      { kind: 'field', field: 'year', direction: 'desc' },
      { kind: 'title', direction: 'asc' },
      { kind: 'score', direction: 'desc' },
    ];
    assert.deepEqual(parseSort('year:desc,title:asc,_score'), expected);
    assert.deepEqual(parseSort(['year:desc', 'title:asc,_score']), expected);
  });

  it('whitespace around keys, names and directions is ignored, and so are empty entries', () => {
    assert.deepEqual(parseSort(' year : desc ,, title ,'), [
      { kind: 'field', field: 'year', direction: 'desc' },
      { kind: 'title', direction: 'asc' },
    ]);
  });

  it('field names may hold spaces, dots, "$" after the first character and any script', () => {
    assert.deepEqual(parseSort('published at:desc,a.b,price$'), [
      { kind: 'field', field: 'published at', direction: 'desc' },
      { kind: 'field', field: 'a.b', direction: 'asc' },
      { kind: 'field', field: 'price$', direction: 'asc' },
    ]);
    assert.deepEqual(parseSort('année'), [{ kind: 'field', field: 'année', direction: 'asc' }]);
  });
});

describe('sort syntax: errors', () => {
  it('the direction is asc or desc', () => {
    assert.equal(errorOf('year:up'), 'sort key "year:up": the direction must be "asc" or "desc", not "up"');
    assert.equal(errorOf('year:'), 'sort key "year:": the direction must be "asc" or "desc", not ""');
    assert.equal(errorOf('a:b:desc'), 'sort key "a:b:desc": the direction must be "asc" or "desc", not "b:desc"');
  });

  it('names follow the metadata field-name rule', () => {
    assert.equal(errorOf(':desc'), `sort key ":desc": "" is not an allowed field name (${FIELD_NAME_RULE})`);
    assert.equal(errorOf('$year'), `sort key "$year": "$year" is not an allowed field name (${FIELD_NAME_RULE})`);
    assert.match(errorOf('x'.repeat(129)), /^sort key "x{64}…": "x{64}…" is not an allowed field name/);
    assert.deepEqual(parseSort('x'.repeat(128)), [{ kind: 'field', field: 'x'.repeat(128), direction: 'asc' }]);
  });

  it('a key may appear once, whatever its direction', () => {
    assert.equal(errorOf('year,year:desc'), 'sort key "year:desc": sorts on "year" a second time; a key may appear once');
    assert.equal(errorOf(['_score', '_score:asc']), 'sort key "_score:asc": sorts on "_score" a second time; a key may appear once');
    assert.equal(errorOf('title, title'), 'sort key "title": sorts on "title" a second time; a key may appear once');
  });

  it(`at most ${MAX_SORT_KEYS} keys`, () => {
    assert.equal(parseSort('a,b,c').length, MAX_SORT_KEYS);
    assert.equal(errorOf('a,b,c,d'), `sort: at most ${MAX_SORT_KEYS} keys are allowed`);
    assert.equal(errorOf(['a,b', 'c', 'd']), `sort: at most ${MAX_SORT_KEYS} keys are allowed`);
  });

  it('anything but strings is refused (a JSON body is not type-checked here)', () => {
    assert.equal(errorOf([1] as unknown as string[]), 'sort: must be a string or an array of strings');
  });
});
