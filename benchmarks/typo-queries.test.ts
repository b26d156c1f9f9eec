// The typo generator of the typo robustness benchmark: deterministic per seed and query id, one
// typo (Damerau–Levenshtein distance 1) in each word of 5+ letters, nothing else changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addTypos, mulberry32, MIN_TYPO_WORD_LETTERS } from './typo-queries.ts';

/** Optimal string alignment distance over code points. */
function osa(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[x.length][y.length];
}

const QUERIES = [
  '0-dimensional biomaterials lack inductive properties.',
  '1 in 5 million in UK have abnormal PrP positivity.',
  'ALDH1 expression is associated with poorer prognosis for breast cancer primary tumors.',
  'Apoptosis élevée dans les cellules hépatiques',
];

test('the same seed and query id give the same typos; another seed or id others', () => {
  for (const [i, q] of QUERIES.entries()) {
    assert.deepEqual(addTypos(q, String(i), 7), addTypos(q, String(i), 7));
  }
  const texts = (seed: number): string[] => QUERIES.map((q, i) => addTypos(q, String(i), seed).text);
  assert.notDeepEqual(texts(7), texts(8));
  assert.notEqual(addTypos(QUERIES[2], 'a', 7).text, addTypos(QUERIES[2], 'b', 7).text);
});

test('each word of 5+ letters gets exactly one typo, shorter words and the rest stay as typed', () => {
  for (let seed = 0; seed < 200; seed++) {
    for (const [i, q] of QUERIES.entries()) {
      const { text, typos } = addTypos(q, String(i), seed);
      const words = q.match(/\p{L}+/gu) ?? [];
      const long = words.filter((w) => [...w].length >= MIN_TYPO_WORD_LETTERS);
      assert.deepEqual(typos.map((t) => t.word), long);
      for (const typo of typos) assert.equal(osa(typo.word, typo.typed), 1, `${typo.word} → ${typo.typed} (${typo.kind})`);
      // Putting each word back gives the query as it was.
      let restored = text;
      for (const typo of [...typos].reverse()) {
        const at = restored.lastIndexOf(typo.typed);
        restored = restored.slice(0, at) + typo.word + restored.slice(at + typo.typed.length);
      }
      assert.equal(restored, q);
    }
  }
});

test('every kind of typo is drawn, at every position including the first letter', () => {
  const kinds = new Set<string>();
  let firstLetter = 0;
  for (let id = 0; id < 500; id++) {
    for (const typo of addTypos('histogram receive logscale', String(id), 1).typos) {
      kinds.add(typo.kind);
      if (typo.position === 0) firstLetter++;
    }
  }
  assert.deepEqual([...kinds].sort(), ['deletion', 'insertion', 'substitution', 'transposition']);
  assert.ok(firstLetter > 50, `first-letter typos: ${firstLetter}`);
});

test('mulberry32 is uniform enough in [0, 1)', () => {
  const random = mulberry32(42);
  let sum = 0;
  for (let i = 0; i < 10_000; i++) {
    const value = random();
    assert.ok(value >= 0 && value < 1);
    sum += value;
  }
  assert.ok(Math.abs(sum / 10_000 - 0.5) < 0.02);
});
