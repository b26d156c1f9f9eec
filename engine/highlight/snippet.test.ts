// Tests of snippets and highlights as a search user sees them: where the excerpt is taken,
// how it is cut and marked, that document text can never inject markup, and a property test
// that the highlight is always exactly the snippet plus tags; tokens marked by position are
// numbered in a cut excerpt as in the whole text.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Analyzer } from '../analysis/analyzer.ts';
import { parseQuery } from '../query/query-parser.ts';
import { ELLIPSIS, MIN_SNIPPET_CHARS, SNIPPET_MAX_CHARS, buildSnippet } from './snippet.ts';
import type { Snippet } from './snippet.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';

/** The highlighter's predicate for query text: the terms of its positive clauses, and terms starting with its prefixes. */
function termsOf(q: string): (term: string) => boolean {
  const clauses = parseQuery(q, 'any', english).clauses.filter((clause) => clause.occur !== 'must_not');
  return (term) => clauses.some((clause) => (clause.kind === 'term' ? clause.term === term : clause.kind === 'phrase' ? clause.terms.includes(term) : term.startsWith(clause.prefix)));
}

const english = Analyzer.for('english');

function snippetFor(text: string, q: string, maxChars = SNIPPET_MAX_CHARS, tag = 'mark'): Snippet {
  return buildSnippet(text, english, termsOf(q), { maxChars, tag });
}

/** Removes the highlight tags and undoes HTML escaping. */
function unmark(highlight: string, tag = 'mark'): string {
  return highlight
    .split(`<${tag}>`).join('')
    .split(`</${tag}>`).join('')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

const filler = (n: number, word = 'lorem'): string => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('buildSnippet: short texts', () => {
  it('shows a short text whole, with its matched words marked', () => {
    const result = snippetFor('The quick brown fox jumps over the lazy dog.', 'jumping dogs');
    assert.equal(result.snippet, 'The quick brown fox jumps over the lazy dog.');
    assert.equal(result.highlight, 'The quick brown fox <mark>jumps</mark> over the lazy <mark>dog</mark>.');
  });

  it('uses the requested tag', () => {
    assert.equal(snippetFor('red fox', 'fox', SNIPPET_MAX_CHARS, 'em').highlight, 'red <em>fox</em>');
  });

  it('collapses whitespace runs to one space', () => {
    const result = snippetFor('  first\n\n\tsecond   third  ', 'second');
    assert.equal(result.snippet, 'first second third');
    assert.equal(result.highlight, 'first <mark>second</mark> third');
  });

  it('gives an empty snippet for an empty or blank text', () => {
    assert.deepEqual(snippetFor('', 'x'), { snippet: '', highlight: '' });
    assert.deepEqual(snippetFor(' \n ', 'x'), { snippet: '', highlight: '' });
  });
});

describe('buildSnippet: long texts', () => {
  const text = `${filler(100)} the treasure is buried under the old oak tree ${filler(100, 'ipsum')}`;

  it('takes the excerpt around the match, cut with "…" at both ends', () => {
    const result = snippetFor(text, 'treasure');
    assert.ok(result.snippet.startsWith(ELLIPSIS) && result.snippet.endsWith(ELLIPSIS), result.snippet);
    assert.ok(result.snippet.includes('the treasure is buried'));
    assert.ok(result.snippet.length <= SNIPPET_MAX_CHARS);
    assert.ok(result.snippet.length >= SNIPPET_MAX_CHARS - 20, `only ${result.snippet.length} characters`);
    assert.ok(result.highlight.includes('<mark>treasure</mark>'));
  });

  it('cuts at word boundaries, never inside a word', () => {
    const words = new Set(text.split(' '));
    for (const q of ['treasure', 'oak', 'lorem50', 'ipsum7']) {
      const body = snippetFor(text, q).snippet.replace(/^…|…$/g, '');
      for (const word of body.split(' ')) assert.ok(words.has(word), `"${word}" is not a whole word (query ${q})`);
    }
  });

  it('prefers the passage with the most different query words', () => {
    const doc = `oak ${filler(60)} oak oak oak ${filler(60)} the old oak tree hides treasure ${filler(60)}`;
    const result = snippetFor(doc, 'oak treasure');
    assert.ok(result.highlight.includes('<mark>oak</mark> tree hides <mark>treasure</mark>'), result.highlight);
  });

  it('with no match, shows the beginning of the text without marks', () => {
    const result = snippetFor(text, 'zebra');
    assert.ok(result.snippet.startsWith('lorem0 lorem1 lorem2'));
    assert.ok(result.snippet.endsWith(ELLIPSIS));
    assert.ok(result.snippet.length <= SNIPPET_MAX_CHARS);
    assert.ok(!result.highlight.includes('<mark>'));
  });

  it('a match at the very start or end is not cut', () => {
    assert.ok(snippetFor(text, 'lorem0').snippet.startsWith('lorem0 '));
    assert.ok(snippetFor(text, 'ipsum99').snippet.endsWith(' ipsum99'));
  });

  it('never exceeds maxChars, "…" included', () => {
    for (const maxChars of [MIN_SNIPPET_CHARS, 40, 100, 500]) {
      assert.ok(snippetFor(text, 'oak', maxChars).snippet.length <= maxChars);
    }
    assert.ok(snippetFor(text, 'oak', 1).snippet.length <= MIN_SNIPPET_CHARS);
  });

  it('finds the match deep inside a 1 MB text', () => {
    const big = `${filler(60_000)} needle in the haystack ${filler(60_000, 'hay')}`.slice(0, 1_100_000);
    const isMatch = termsOf('needle haystack');
    const result = buildSnippet(big, english, isMatch, { maxChars: SNIPPET_MAX_CHARS, tag: 'mark' });
    assert.ok(result.highlight.includes('<mark>needle</mark> in the <mark>haystack</mark>'));
  });
});

describe('buildSnippet: safety', () => {
  it('escapes markup in the text, matched or not', () => {
    const text = 'Click <script>alert("pwned")</script> & <img src=x onerror=\'alert(1)\'> for script kiddies';
    const result = snippetFor(text, 'script alert');
    assert.equal(result.snippet, text);
    assert.equal(
      result.highlight,
      'Click &lt;<mark>script</mark>&gt;<mark>alert</mark>(&quot;pwned&quot;)&lt;/<mark>script</mark>&gt; &amp; ' +
        '&lt;img src=x onerror=&#39;<mark>alert</mark>(1)&#39;&gt; for <mark>script</mark> kiddies',
    );
    assert.ok(!/<(?!\/?mark>)/.test(result.highlight), 'only mark tags are markup');
  });
});

const PIECES = [
  'alpha', 'beta', 'gamma', 'Alpha', 'betas', 'delta', ' ', ' ', '  ', '\n', '\t\t', '<', '>', '&', '"', "'",
  '<script>', '</b>', '&amp;', '…', '.', ',', '-', 'é', 'Café', '東京', '😀', '𝐀', '\u0301', "'s", '\u00a0',
  'x'.repeat(70), 'word'.repeat(10),
];

describe('buildSnippet: property', () => {
  it('highlight without tags, unescaped, is exactly the snippet; the snippet is well-formed', () => {
    const random = seededRandom(31337);
    const terms = ['alpha', 'beta', 'gamma', 'delta', 'cafe', '東', 'word'];
    for (let run = 0; run < 1500; run++) {
      let text = '';
      const count = Math.floor(random() * 120);
      for (let p = 0; p < count; p++) text += PIECES[Math.floor(random() * PIECES.length)];
      const wanted = new Set(terms.filter(() => random() < 0.3));
      const isMatch = (term: string): boolean => wanted.has(term);
      const maxChars = MIN_SNIPPET_CHARS + Math.floor(random() * 300);
      const tag = random() < 0.5 ? 'mark' : 'em';
      const { snippet, highlight } = buildSnippet(text, english, isMatch, { maxChars, tag });
      const context = JSON.stringify({ text, wanted: [...wanted], maxChars });

      assert.equal(unmark(highlight, tag), snippet, context);
      assert.ok(snippet.length <= maxChars, context);
      assert.ok(!/\s\s/.test(snippet) && snippet === snippet.trim(), `whitespace in ${context}`);
      assert.ok(!/<(?!\/?(mark|em)>)/.test(highlight) && !highlight.replace(/<\/?(mark|em)>/g, '').includes('>'), context);
      const body = snippet.replace(/^…/, '').replace(/…$/, '');
      assert.ok(text.replace(/\s+/g, ' ').includes(body), `not an excerpt: ${context}`);
      for (const marked of highlight.matchAll(new RegExp(`<${tag}>(.*?)</${tag}>`, 'g'))) {
        const analyzed = english.analyzeWord(unmark(marked[1]));
        assert.ok(analyzed.length === 1 && isMatch(analyzed[0]), `marked "${marked[1]}" in ${context}`);
      }
    }
  });
});

describe('buildSnippet: marks by position', () => {
  it('marks only the tokens at the positions given (a phrase, not its words elsewhere)', () => {
    const text = 'First set the range, then type set logscale y. Later: logscale.';
    const phrase = english.analyzeWord('set logscale');
    const isMatch = (term: string, position: number): boolean => position >= 6 && position <= 7 && term === phrase[position - 6];
    assert.equal(
      buildSnippet(text, english, isMatch, { maxChars: SNIPPET_MAX_CHARS, tag: 'mark' }).highlight,
      'First set the range, then type <mark>set</mark> <mark>logscale</mark> y. Later: logscale.',
    );
  });

  it('numbers the tokens of a cut excerpt as in the whole text (property)', () => {
    const random = seededRandom(4242);
    const junk = [', ', '. ', ' ', ' ', ' ', '\n', 'x'.repeat(70) + ' ', '東京 ', '😀 ', "'s ", ' – '];
    for (let run = 0; run < 400; run++) {
      // Unique words w0, w1, … among junk: a marked word tells exactly which token it is.
      let text = '';
      const count = 1 + Math.floor(random() * 300);
      for (let i = 0; i < count; i++) {
        text += `w${i}`;
        text += random() < 0.3 ? junk[Math.floor(random() * junk.length)] : ' ';
      }
      const tokens = english.tokenize(text);
      const chosen = new Set(tokens.filter(() => random() < 0.08).map((token) => token.position));
      const isMatch = (term: string, position: number): boolean => chosen.has(position) && tokens[position].term === term;
      const maxChars = MIN_SNIPPET_CHARS + Math.floor(random() * 240);
      const { highlight } = buildSnippet(text, english, isMatch, { maxChars, tag: 'mark' });
      const positionOf = new Map(tokens.map((token) => [token.term, token.position]));
      const context = JSON.stringify({ text, chosen: [...chosen], maxChars, highlight });
      for (const found of highlight.matchAll(/(<mark>)?\b(w\d+)\b/g)) {
        const position = positionOf.get(found[2]);
        // A word cut by the excerpt's edge ("…4" of "w14") is not a whole word: \b rules it out.
        if (position === undefined) continue;
        assert.equal(found[1] !== undefined, chosen.has(position), `w-word ${found[2]} in ${context}`);
      }
    }
  });
});
