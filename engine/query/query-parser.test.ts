// The query language, as a user writes it (docs/api.md, "Search"), and what the searcher is asked to do.
// Each test is one rule of the manual; a fuzz test checks no input can break the parser.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Analyzer } from '../analysis/analyzer.ts';
import { parseQuery } from './query-parser.ts';
import { MAX_QUERY_CLAUSES } from './query-types.ts';
import type { QueryClause } from './query-types.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { DEFAULT_TYPO_TOLERANCE, typoBudgetRule } from '../typo/typo-rules.ts';

const english = Analyzer.for('english');

function parse(q: string, match: 'any' | 'all' = 'any'): QueryClause[] {
  return parseQuery(q, match, english).clauses;
}

describe('query language: words', () => {
  it('plain words are analyzed terms that any document may match', () => {
    assert.deepEqual(parse('Running Dogs'), [
      { kind: 'term', occur: 'should', field: 'all', term: 'run' },
      { kind: 'term', occur: 'should', field: 'all', term: 'dog' },
    ]);
  });

  it('an identifier (parts joined by _ . / @ or ::) is the phrase of its parts, or its parts written together', () => {
    assert.deepEqual(parse('asn1_der_decoding'), [
      { kind: 'phrase', occur: 'should', field: 'all', terms: ['asn1', 'der', 'decod'], joined: 'asn1derdecod' },
    ]);
    assert.deepEqual(parse('+Node.js'), [{ kind: 'phrase', occur: 'must', field: 'all', terms: ['node', 'js'], joined: 'nodej' }]);
    assert.deepEqual(parse('v1.2.3'), [{ kind: 'phrase', occur: 'should', field: 'all', terms: ['v1', '2', '3'], joined: 'v123' }]);
    assert.deepEqual(parse('std::vector'), [{ kind: 'phrase', occur: 'should', field: 'all', terms: ['std', 'vector'], joined: 'stdvector' }]);
    // Quoted or excluded: the phrase only.
    assert.deepEqual(parse('-node.js'), [{ kind: 'phrase', occur: 'must_not', field: 'all', terms: ['node', 'js'] }]);
  });

  it('prefix=last: the word being typed is a prefix, unless a space follows it or it is quoted or excluded', () => {
    const typed = (q: string) => parseQuery(q, 'any', english, undefined, 'last').clauses;
    assert.deepEqual(typed('hello wor'), [
      { kind: 'term', occur: 'should', field: 'all', term: 'hello' },
      { kind: 'prefix', occur: 'should', field: 'all', prefix: 'wor' },
    ]);
    assert.deepEqual(typed('hello wor '), parse('hello wor'));
    assert.deepEqual(typed('hello "wor"'), parse('hello "wor"'));
    assert.deepEqual(typed('hello -wor'), parse('hello -wor'));
    assert.deepEqual(typed('+title:Bre'), [{ kind: 'prefix', occur: 'must', field: 'title', prefix: 'bre' }]);
    assert.deepEqual(typed('wor*'), parse('wor*'));
    assert.deepEqual(typed(''), []);
  });

  it('an empty query, or only whitespace, has no clauses (match all documents)', () => {
    assert.deepEqual(parse(''), []);
    assert.deepEqual(parse(' \t\n '), []);
  });

  it('a word split at separators gives a clause per part; touching parts stay a phrase', () => {
    assert.deepEqual(parse('e-mail'), [
      { kind: 'term', occur: 'should', field: 'all', term: 'e' },
      { kind: 'term', occur: 'should', field: 'all', term: 'mail' },
    ]);
    assert.deepEqual(parse('+IL-6'), [
      { kind: 'term', occur: 'must', field: 'all', term: 'il' },
      { kind: 'term', occur: 'must', field: 'all', term: '6' },
    ]);
    assert.deepEqual(parse('東京'), [{ kind: 'phrase', occur: 'should', field: 'all', terms: ['東', '京'] }]);
    assert.deepEqual(parse('-e-mail'), [{ kind: 'phrase', occur: 'must_not', field: 'all', terms: ['e', 'mail'] }]);
  });

  it('a word with no letters or digits is dropped', () => {
    assert.deepEqual(parse('-- & …'), []);
  });

  it('accents and case do not matter', () => {
    assert.deepEqual(parse('CAFÉ'), [{ kind: 'term', occur: 'should', field: 'all', term: 'cafe' }]);
  });

  it('a repeated word is searched once', () => {
    assert.deepEqual(parse('dog dogs Dog'), [{ kind: 'term', occur: 'should', field: 'all', term: 'dog' }]);
  });
});

describe('query language: "exact phrase"', () => {
  it('quoted words must appear together, in order', () => {
    assert.deepEqual(parse('"New York" pizza'), [
      { kind: 'phrase', occur: 'should', field: 'all', terms: ['new', 'york'] },
      { kind: 'term', occur: 'should', field: 'all', term: 'pizza' },
    ]);
  });

  it('a phrase of one word is just that word', () => {
    assert.deepEqual(parse('"Dogs"'), [{ kind: 'term', occur: 'should', field: 'all', term: 'dog' }]);
  });

  it('an unterminated quote runs to the end of the query', () => {
    assert.deepEqual(parse('cats "big red dog'), [
      { kind: 'term', occur: 'should', field: 'all', term: 'cat' },
      { kind: 'phrase', occur: 'should', field: 'all', terms: ['big', 'red', 'dog'] },
    ]);
  });

  it('typographic quotes work like straight ones', () => {
    assert.deepEqual(parse('“big dog”'), [{ kind: 'phrase', occur: 'should', field: 'all', terms: ['big', 'dog'] }]);
  });

  it('an empty phrase is dropped', () => {
    assert.deepEqual(parse('"" dog'), [{ kind: 'term', occur: 'should', field: 'all', term: 'dog' }]);
  });

  it('stop words stay in phrases', () => {
    assert.deepEqual(parse('"to be or not to be"'), [
      { kind: 'phrase', occur: 'should', field: 'all', terms: ['to', 'be', 'or', 'not', 'to', 'be'] },
    ]);
  });
});

describe('query language: -excluded and +required', () => {
  it('-word excludes documents containing it; +word requires it', () => {
    assert.deepEqual(parse('pizza -pineapple +cheese'), [
      { kind: 'term', occur: 'should', field: 'all', term: 'pizza' },
      { kind: 'term', occur: 'must_not', field: 'all', term: 'pineappl' },
      { kind: 'term', occur: 'must', field: 'all', term: 'chees' },
    ]);
  });

  it('signs apply to phrases and field terms too', () => {
    assert.deepEqual(parse('-"hot dog" +title:guide'), [
      { kind: 'phrase', occur: 'must_not', field: 'all', terms: ['hot', 'dog'] },
      { kind: 'term', occur: 'must', field: 'title', term: 'guid' },
    ]);
  });

  it('a sign alone, or inside a word, is not an operator', () => {
    assert.deepEqual(parse('well-known - + dogs'), [
      { kind: 'term', occur: 'should', field: 'all', term: 'well' },
      { kind: 'term', occur: 'should', field: 'all', term: 'known' },
      { kind: 'term', occur: 'should', field: 'all', term: 'dog' },
    ]);
  });

  it('only exclusions leave no positive clause (all documents minus those)', () => {
    const clauses = parse('-spam -"junk mail"');
    assert.ok(clauses.every((clause) => clause.occur === 'must_not'));
    assert.equal(clauses.length, 2);
  });
});

describe('query language: prefix*', () => {
  it('a trailing star searches terms starting with the folded, unstemmed word', () => {
    assert.deepEqual(parse('compu*'), [{ kind: 'prefix', occur: 'should', field: 'all', prefix: 'compu' }]);
    assert.deepEqual(parse('Élé*'), [{ kind: 'prefix', occur: 'should', field: 'all', prefix: 'ele' }]);
  });

  it('a complete word with a star still finds its own stemmed form', () => {
    // "computer" is indexed as "comput": the prefix is cut back to where word and stem agree.
    assert.deepEqual(parse('computer*'), [{ kind: 'prefix', occur: 'should', field: 'all', prefix: 'comput', word: 'computer' }]);
    assert.deepEqual(parse('happy*'), [{ kind: 'prefix', occur: 'should', field: 'all', prefix: 'happ', word: 'happy' }]);
  });

  it('a star alone is ignored, and extra stars are one', () => {
    assert.deepEqual(parse('* dog**'), [{ kind: 'prefix', occur: 'should', field: 'all', prefix: 'dog' }]);
  });

  it('of a split word, the last part is the prefix', () => {
    assert.deepEqual(parse('+e-ma*'), [
      { kind: 'term', occur: 'must', field: 'all', term: 'e' },
      { kind: 'prefix', occur: 'must', field: 'all', prefix: 'ma' },
    ]);
  });

  it('signs and fields combine with prefixes', () => {
    assert.deepEqual(parse('-title:draft*'), [{ kind: 'prefix', occur: 'must_not', field: 'title', prefix: 'draft' }]);
  });
});

describe('query language: title: and text:', () => {
  it('field:word looks only in that field; the name is case-insensitive', () => {
    assert.deepEqual(parse('title:Dogs TEXT:cats'), [
      { kind: 'term', occur: 'should', field: 'title', term: 'dog' },
      { kind: 'term', occur: 'should', field: 'text', term: 'cat' },
    ]);
  });

  it('field:"phrase" scopes a phrase', () => {
    assert.deepEqual(parse('title:"user guide"'), [
      { kind: 'phrase', occur: 'should', field: 'title', terms: ['user', 'guid'] },
    ]);
  });

  it('an unknown field is plain text', () => {
    assert.deepEqual(parse('author:smith'), [
      { kind: 'term', occur: 'should', field: 'all', term: 'author' },
      { kind: 'term', occur: 'should', field: 'all', term: 'smith' },
    ]);
  });

  it('a field name with nothing after it is a plain word', () => {
    assert.deepEqual(parse('title: dogs'), [
      { kind: 'term', occur: 'should', field: 'all', term: 'titl' },
      { kind: 'term', occur: 'should', field: 'all', term: 'dog' },
    ]);
  });
});

describe('query language: match=all', () => {
  it('makes every plain clause required and leaves exclusions alone', () => {
    assert.deepEqual(parse('big "red dog" -cat col*', 'all'), [
      { kind: 'term', occur: 'must', field: 'all', term: 'big' },
      { kind: 'phrase', occur: 'must', field: 'all', terms: ['red', 'dog'] },
      { kind: 'term', occur: 'must_not', field: 'all', term: 'cat' },
      { kind: 'prefix', occur: 'must', field: 'all', prefix: 'col' },
    ]);
  });

  it('collapses a word given both plainly and with +', () => {
    assert.deepEqual(parse('dog +dog', 'all'), [{ kind: 'term', occur: 'must', field: 'all', term: 'dog' }]);
  });
});

describe('query language: limits and robustness', () => {
  it(`keeps at most ${MAX_QUERY_CLAUSES} clauses, in query order`, () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    const clauses = parse(words.join(' '));
    assert.equal(clauses.length, MAX_QUERY_CLAUSES);
    assert.deepEqual(clauses[0], { kind: 'term', occur: 'should', field: 'all', term: 'w0' });
    assert.deepEqual(clauses.at(-1), { kind: 'term', occur: 'should', field: 'all', term: `w${MAX_QUERY_CLAUSES - 1}` });
  });

  it('never throws and always gives well-formed clauses (fuzz)', () => {
    const pieces = ['"', '“', '”', '-', '+', ':', '*', ' ', ' ', '  ', 'title:', 'TEXT:', 'foo:', 'a', 'word', 'é',
      'E\u0301', '東', '😀', '\ud800', '\udc00', "'", '’s', '--', '+-', 'x'.repeat(70), '\u0301', '\u3000', '\n', '…'];
    const random = seededRandom(99);
    for (let run = 0; run < 5000; run++) {
      let q = '';
      const count = Math.floor(random() * 60);
      for (let p = 0; p < count; p++) q += pieces[Math.floor(random() * pieces.length)];
      for (const match of ['any', 'all'] as const) {
        const clauses = parseQuery(q, match, english).clauses;
        assert.ok(clauses.length <= MAX_QUERY_CLAUSES, q);
        const keys = new Set(clauses.map((clause) => JSON.stringify(clause)));
        assert.equal(keys.size, clauses.length, `duplicates in ${JSON.stringify(q)}`);
        for (const clause of clauses) {
          assert.ok(['should', 'must', 'must_not'].includes(clause.occur));
          assert.ok(['all', 'title', 'text'].includes(clause.field));
          if (match === 'all') assert.notEqual(clause.occur, 'should');
          if (clause.kind === 'term') assert.ok(clause.term.length > 0);
          else if (clause.kind === 'phrase') assert.ok(clause.terms.length >= 2 && clause.terms.every((t) => t.length > 0));
          else assert.ok(clause.prefix.length > 0);
        }
      }
    }
  });
});

describe('query language: typo budgets', () => {
  const rule = typoBudgetRule(DEFAULT_TYPO_TOLERANCE, 'auto');
  const budgets = (q: string): [string, string, number][] =>
    parseQuery(q, 'any', english, rule).clauses.map((clause) => [
      clause.kind,
      clause.kind === 'term' ? clause.term : clause.kind === 'phrase' ? clause.terms.join(' ') : clause.prefix,
      clause.kind === 'term' ? clause.maxTypos ?? 0 : 0,
    ]);

  it('a plain word gets the budget of its length as typed: 0 under 5, 1 from 5, 2 from 9', () => {
    assert.deepEqual(budgets('gnu plots histgram internationalisation'), [
      ['term', 'gnu', 0],
      ['term', 'plot', 1],
      ['term', 'histgram', 1],
      ['term', 'internationalis', 2],
    ]);
    // Counted on the word as typed: "running" (7) keeps one typo though its stem "run" is short.
    assert.deepEqual(budgets('running'), [['term', 'run', 1]]);
  });

  it('phrases, prefixes, exclusions and numbers get none; a required word does', () => {
    assert.deepEqual(budgets('"histgram logscale" histo* -receive +recieve 1234567890'), [
      ['phrase', 'histgram logscal', 0],
      ['prefix', 'histo', 0],
      ['term', 'receiv', 0],
      ['term', 'reciev', 1],
      ['term', '1234567890', 0],
    ]);
    assert.deepEqual(budgets('"receive"'), [['term', 'receiv', 0]]);
  });

  it('typos=0, disabled settings and both fields disabled give no budget; typos=1 caps it', () => {
    const none = (tolerance: typeof DEFAULT_TYPO_TOLERANCE, mode: 'auto' | 0 | 1 | 2) =>
      parseQuery('internationalisation', 'any', english, typoBudgetRule(tolerance, mode)).clauses[0];
    assert.equal((none(DEFAULT_TYPO_TOLERANCE, 0) as { maxTypos?: number }).maxTypos, undefined);
    assert.equal((none({ ...DEFAULT_TYPO_TOLERANCE, enabled: false }, 'auto') as { maxTypos?: number }).maxTypos, undefined);
    assert.equal((none({ ...DEFAULT_TYPO_TOLERANCE, disableOnFields: ['title', 'text'] }, 2) as { maxTypos?: number }).maxTypos, undefined);
    assert.equal((none(DEFAULT_TYPO_TOLERANCE, 1) as { maxTypos?: number }).maxTypos, 1);
    // An explicit 1 or 2 turns typos on for one search even where the collection disabled them.
    assert.equal((none({ ...DEFAULT_TYPO_TOLERANCE, enabled: false }, 2) as { maxTypos?: number }).maxTypos, 2);
  });
});
