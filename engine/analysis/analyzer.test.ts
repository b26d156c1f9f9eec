// Tests of the Analyzer: how text becomes terms (tokens, folding, stemming, offsets), the
// language list, the cache bound, and a property test against a naive reference tokenizer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError } from '../errors.ts';
import { Analyzer, MAX_TOKEN_LENGTH, SUPPORTED_LANGUAGES, isSupportedLanguage } from './analyzer.ts';
import { foldTerm } from './fold-term.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { TermInterner } from './term-interner.ts';

const english = Analyzer.for('english');
const plain = Analyzer.for('none');

function terms(analyzer: Analyzer, text: string): string[] {
  return analyzer.tokenize(text).map((token) => token.term);
}

describe('Analyzer: tokens', () => {
  it('splits on anything that is not a letter, digit or combining mark', () => {
    assert.deepEqual(terms(plain, 'Hello, world! x86-64 (v2.0)'), ['hello', 'world', 'x86', '64', 'v2', '0']);
  });

  it('keeps Unicode words whole', () => {
    assert.deepEqual(terms(plain, 'naïve Straße Ελληνικά русский ёлка'), ['naive', 'strasse', 'ελληνικα', 'русский', 'елка']);
  });

  it('makes each Han ideograph and Hiragana character a token of its own', () => {
    assert.deepEqual(terms(plain, '東京タワー へ'), ['東', '京', 'タワー', 'へ']);
    assert.deepEqual(english.analyzeWord('東京'), ['東', '京']);
  });

  it('drops an English possessive but splits other apostrophes', () => {
    assert.deepEqual(terms(plain, "Folio's index, the users’ docs, don't"), ['folio', 'index', 'the', 'users', 'docs', 'don', 't']);
    assert.deepEqual(terms(plain, "it's"), ['it']);
  });

  it('gives consecutive positions and offsets into the original text', () => {
    const text = '  Café\u0301 — ÜBER   e-mail’s 東京 😀 𝐀𝐁 end';
    const tokens = plain.tokenize(text);
    assert.deepEqual(
      tokens.map((t) => t.position),
      tokens.map((_, i) => i),
    );
    assert.deepEqual(
      tokens.map((t) => text.slice(t.start, t.end)),
      ['Café\u0301', 'ÜBER', 'e', 'mail', '東', '京', '𝐀𝐁', 'end'],
    );
    assert.deepEqual(
      tokens.map((t) => t.term),
      ['cafe', 'uber', 'e', 'mail', '東', '京', 'ab', 'end'],
    );
  });

  it('skips junk tokens longer than MAX_TOKEN_LENGTH without leaving a position gap', () => {
    const junk = 'x'.repeat(MAX_TOKEN_LENGTH + 1);
    const tokens = plain.tokenize(`before ${junk} after ${'y'.repeat(MAX_TOKEN_LENGTH)}`);
    assert.deepEqual(
      tokens.map((t) => [t.term, t.position]),
      [['before', 0], ['after', 1], ['y'.repeat(MAX_TOKEN_LENGTH), 2]],
    );
  });

  it('skips a run of combining marks that folds to nothing', () => {
    assert.deepEqual(terms(plain, 'a \u0301\u0302 b'), ['a', 'b']);
  });

  it('forEachToken visits the same tokens as tokenize and returns their count', () => {
    const text = 'The quick brown fox jumps over the lazy dog’s back';
    const seen: [string, number, number, number][] = [];
    const count = english.forEachToken(text, (term, position, start, end) => seen.push([term, position, start, end]));
    assert.equal(count, seen.length);
    assert.deepEqual(
      seen,
      english.tokenize(text).map((t) => [t.term, t.position, t.start, t.end]),
    );
  });

  it('forEachTermId gives the ids of the terms forEachToken gives, across texts and a small cache', () => {
    const small = new Analyzer('english', { cacheEntries: 3 });
    const interner = new TermInterner();
    const texts = ['Running runners ran; RUNNING é \u0301 run', 'the runner runs', 'Ünïcode café CAFE cafés'];
    for (const text of texts) {
      const ids: number[] = [];
      const starts: number[] = [];
      const count = small.forEachTermId(text, interner, (id, start) => {
        ids.push(id);
        starts.push(start);
      });
      const tokens = english.tokenize(text);
      assert.equal(count, tokens.length);
      assert.deepEqual(ids.map((id) => interner.terms[id]), tokens.map((t) => t.term));
      assert.deepEqual(starts, tokens.map((t) => t.start));
    }
    assert.equal(new Set(interner.terms).size, interner.size);
    // A new interner (the next segment build) gets its own ids from the same cache.
    const next = new TermInterner();
    small.forEachTermId('runs', next, (id) => assert.equal(next.terms[id], 'run'));
    assert.equal(next.size, 1);
  });

  it('an interner keeps one id per term when the cache renumbers its terms while it is in use', () => {
    const small = new Analyzer('english', { cacheEntries: 4 });
    const first = new TermInterner();
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
    const ids = (interner: TermInterner, text: string): number[] => {
      const out: number[] = [];
      small.forEachTermId(text, interner, (id) => out.push(id));
      return out;
    };
    const before = ids(first, words);
    // A second interner starts while the cache holds more numbers than its bound: it renumbers.
    const second = new TermInterner();
    assert.deepEqual(ids(second, 'Alpha ALPHA alpha').map((id) => second.terms[id]), ['alpha', 'alpha', 'alpha']);
    // The first goes on with the same terms (their new numbers) and new ones: no term twice.
    assert.deepEqual(ids(first, words), before);
    ids(first, 'lambda Alpha mu');
    assert.equal(new Set(first.terms).size, first.size);
    assert.deepEqual(first.terms, ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu']);
  });

  it('handles empty and separator-only text', () => {
    assert.deepEqual(english.tokenize(''), []);
    assert.equal(english.forEachToken(' ,.;-- \n\t', () => assert.fail('no token expected')), 0);
  });
});

describe('Analyzer: folding', () => {
  it('removes diacritics and lower-cases', () => {
    assert.equal(plain.fold('Café'), 'cafe');
    assert.equal(plain.fold('ÀÉÎÕÜ'), 'aeiou');
    assert.equal(plain.fold('İstanbul'), 'istanbul');
  });

  it('folds ß to ss and compatibility forms to their plain letters', () => {
    assert.equal(plain.fold('Straße'), 'strasse');
    assert.equal(plain.fold('STRAẞE'), 'strasse');
    assert.equal(plain.fold('ﬁne'), 'fine');
    assert.equal(plain.fold('ＡＢＣ'), 'abc');
  });

  it('does not stem', () => {
    assert.equal(english.fold('Computers'), 'computers');
  });

  it('makes accented and unaccented spellings the same term', () => {
    assert.deepEqual(terms(english, 'café cafe CAFÉ'), ['cafe', 'cafe', 'cafe']);
    assert.deepEqual(terms(Analyzer.for('french'), 'université universite'), ['universit', 'universit']);
  });
});

describe('Analyzer: stemming', () => {
  it('stems English words to a shared root', () => {
    assert.deepEqual(terms(english, 'running runs ran'), ['run', 'run', 'ran']);
    assert.deepEqual(terms(english, 'Connection connected connecting'), ['connect', 'connect', 'connect']);
  });

  it('stems with the collection language', () => {
    assert.deepEqual(terms(Analyzer.for('german'), 'Häuser Hauses'), ['haus', 'haus']);
    assert.deepEqual(terms(Analyzer.for('russian'), 'новый новая'), ['нов', 'нов']);
    assert.deepEqual(terms(Analyzer.for('porter'), 'generalizations'), ['gener']);
  });

  it("'none' folds but does not stem", () => {
    assert.deepEqual(terms(plain, 'Running Computers'), ['running', 'computers']);
  });

  it('analyzeWord gives the terms of one query word', () => {
    assert.deepEqual(english.analyzeWord('e-mail'), ['e', 'mail']);
    assert.deepEqual(english.analyzeWord('Running'), ['run']);
    assert.deepEqual(english.analyzeWord('--'), []);
  });

  it('keeps stop words so phrases keep working', () => {
    assert.deepEqual(terms(english, 'to be or not to be'), ['to', 'be', 'or', 'not', 'to', 'be']);
  });
});

describe('Analyzer: languages', () => {
  it('supports every Snowball algorithm plus none', () => {
    for (const language of ['english', 'french', 'german', 'russian', 'porter', 'none']) {
      assert.ok(SUPPORTED_LANGUAGES.includes(language), language);
      assert.ok(isSupportedLanguage(language));
    }
    assert.equal(SUPPORTED_LANGUAGES.length, 25);
  });

  it('caches one analyzer per language', () => {
    assert.equal(Analyzer.for('english'), english);
    assert.equal(english.language, 'english');
  });

  it('refuses an unknown language, listing the supported ones', () => {
    assert.equal(isSupportedLanguage('klingon'), false);
    assert.throws(
      () => Analyzer.for('klingon'),
      (error: unknown) =>
        error instanceof EngineError &&
        error.code === 'invalid_language' &&
        error.message.includes('klingon') &&
        error.message.includes('english, finnish'),
    );
    assert.throws(() => Analyzer.for('English'), EngineError);
  });
});

describe('Analyzer: term cache', () => {
  it('never holds more entries than its bound, and answers the same', () => {
    const small = new Analyzer('english', { cacheEntries: 8 });
    const words = Array.from({ length: 200 }, (_, i) => `word${i % 50}ing Word${i}s`).join(' ');
    for (let round = 0; round < 3; round++) {
      assert.deepEqual(terms(small, words), terms(english, words));
      assert.ok(small.cachedTerms <= 8, `cache holds ${small.cachedTerms}`);
    }
  });

  it('rejects a cache bound that is not a positive integer', () => {
    assert.throws(() => new Analyzer('english', { cacheEntries: 0 }), RangeError);
  });
});

// ---- Property test: the optimised tokenizer against a naive one built on regexes. ----

const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const IDEOGRAPH_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}]$/u;

/** Reference tokenizer: code point by code point, regex classification, same rules. */
function naiveTokens(text: string): { term: string; start: number; end: number }[] {
  const chars: { ch: string; start: number; end: number }[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    chars.push({ ch: text.slice(i, i + width), start: i, end: i + width });
    i += width;
  }
  const kind = (ch: string): 'sep' | 'word' | 'ideo' =>
    !WORD_CHAR.test(ch) ? 'sep' : IDEOGRAPH_CHAR.test(ch) ? 'ideo' : 'word';
  const out: { term: string; start: number; end: number }[] = [];
  let k = 0;
  while (k < chars.length) {
    const first = kind(chars[k].ch);
    if (first === 'sep') {
      k++;
      continue;
    }
    const start = chars[k].start;
    k++;
    if (first === 'word') while (k < chars.length && kind(chars[k].ch) === 'word') k++;
    const end = k < chars.length ? chars[k].start : text.length;
    if (
      k + 1 < chars.length &&
      (chars[k].ch === "'" || chars[k].ch === '’') &&
      (chars[k + 1].ch === 's' || chars[k + 1].ch === 'S') &&
      (k + 2 === chars.length || kind(chars[k + 2].ch) === 'sep')
    ) {
      k += 2;
    }
    if (end - start > MAX_TOKEN_LENGTH) continue;
    const term = foldTerm(text.slice(start, end));
    if (term !== '') out.push({ term, start, end });
  }
  return out;
}

const PIECES = [
  'a', 'B', 'z', '0', '9', 'the', 'Running', ' ', ' ', '  ', '\n', '\t', ',', '.', '-', "'", '’', 's', 'S',
  "'s", '’s ', 'é', 'E\u0301', '\u0301', '\u0308', 'ß', 'ẞ', 'İ', 'ﬁ', 'Ａ', '½', '東', '京', 'へ', 'タ',
  'ー', '😀', '𝐀', '\ud800', '\udc00', 'ж', 'й', 'Σ', 'ς', 'த', '\u0bbf', '\u00a0', '\u3000', '<', '&',
  'x'.repeat(30), 'Y'.repeat(40),
];

describe('Analyzer: property', () => {
  it('matches a naive regex tokenizer on random Unicode text', () => {
    const random = seededRandom(20240611);
    for (let run = 0; run < 2000; run++) {
      let text = '';
      const pieces = Math.floor(random() * 40);
      for (let p = 0; p < pieces; p++) text += PIECES[Math.floor(random() * PIECES.length)];
      const got = plain.tokenize(text);
      const want = naiveTokens(text);
      assert.deepEqual(
        got.map((t) => ({ term: t.term, start: t.start, end: t.end })),
        want,
        `text ${JSON.stringify(text)}`,
      );
      got.forEach((token, i) => assert.equal(token.position, i));
      for (const token of got) assert.equal(foldTerm(text.slice(token.start, token.end)), token.term);
    }
  });

  it('gives the same terms whatever the cache state', () => {
    const random = seededRandom(7);
    const tiny = new Analyzer('english', { cacheEntries: 3 });
    for (let run = 0; run < 300; run++) {
      let text = '';
      for (let p = 0; p < 20; p++) text += PIECES[Math.floor(random() * PIECES.length)] + (random() < 0.5 ? ' ' : '');
      assert.deepEqual(terms(tiny, text), terms(english, text));
    }
  });
});

describe('Analyzer: locating tokens by position', () => {
  it('finds exactly the tokens forEachToken numbers so, and nothing after the last', () => {
    const random = seededRandom(91);
    // Combining marks alone fold to nothing and take no position; long runs are skipped.
    const extra = ['\u0301\u0300', 'x'.repeat(MAX_TOKEN_LENGTH + 1), "Folio's ", 'e\u0301t\u00e9 '];
    for (let run = 0; run < 1000; run++) {
      let text = '';
      for (let p = 0; p < 30; p++) {
        const pool = random() < 0.15 ? extra : PIECES;
        text += pool[Math.floor(random() * pool.length)] + (random() < 0.5 ? ' ' : '');
      }
      const all = english.tokenize(text);
      const wanted = all.filter(() => random() < 0.3);
      const located: { term: string; position: number; start: number; end: number }[] = [];
      english.locateTokens(
        text,
        wanted.map((token) => token.position),
        (term, position, start, end) => located.push({ term, position, start, end }),
      );
      assert.deepEqual(located, wanted, `text ${JSON.stringify(text)}`);
    }
  });

  it('stops at the last wanted position and ignores positions past the text', () => {
    const seen: number[] = [];
    english.locateTokens('one two three four', [1, 2], (_term, position) => seen.push(position));
    assert.deepEqual(seen, [1, 2]);
    const beyond: number[] = [];
    english.locateTokens('one two', [1, 9], (_term, position) => beyond.push(position));
    assert.deepEqual(beyond, [1]);
  });
});
