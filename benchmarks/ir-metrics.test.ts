// The metrics agree with hand-computed trec_eval values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meanOverQueries, ndcgAt, parseQrelsTsv, recallAt } from './ir-metrics.ts';

const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≈ ${b}`);

test('nDCG@k uses linear gains, log2(rank+1) discounts and the ideal ranking of all judged docs', () => {
  const judged = new Map([
    ['a', 1],
    ['b', 1],
  ]);
  close(ndcgAt(10, ['a', 'b', 'x'], judged), 1);
  close(ndcgAt(10, ['x', 'a'], judged), 1 / Math.log2(3) / (1 + 1 / Math.log2(3)));
  close(ndcgAt(1, ['x', 'a', 'b'], judged), 0);
  close(ndcgAt(10, [], judged), 0);
  close(ndcgAt(10, ['a'], new Map([['a', 2], ['b', 1]])), 2 / (2 + 1 / Math.log2(3)));
});

test('Recall@k counts relevant docs in the top k over all relevant docs', () => {
  const judged = new Map([
    ['a', 1],
    ['b', 1],
    ['c', 0],
  ]);
  close(recallAt(100, ['c', 'a'], judged), 0.5);
  close(recallAt(1, ['c', 'a', 'b'], judged), 0);
  close(recallAt(3, ['c', 'a', 'b'], judged), 1);
});

test('means are over every judged query, a missing run counting 0', () => {
  const qrels = parseQrelsTsv('query-id\tcorpus-id\tscore\nq1\ta\t1\nq2\tb\t1\n');
  const run = new Map([['q1', ['a']]]);
  close(meanOverQueries(qrels, run, (r, j) => recallAt(10, r, j)), 0.5);
});
