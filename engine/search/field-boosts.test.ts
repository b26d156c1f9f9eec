// Ranking by fields (issue 30 point 3): numeric boosts through each modifier, recency on a date
// field, documents without the field left at ×1, explain naming each multiplier, empty queries
// ranked by the boosts, semantic and hybrid scores multiplied too — and, as a property, the
// boosted top k found with WAND skipping equals a naive ranking of every match by its text
// score times its multiplier.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../analysis/index.ts';
import { textDocument, withSegments } from '../../test/helpers/engine-segments.ts';
import type { IndexDocument, Metadata } from '../document.ts';
import type { FieldBoost } from './field-boosts.ts';
import type { SearchRequest } from './search-types.ts';
import { searchSegments } from './searcher.ts';
import { seededRandom } from '../vectors/seeded-random.ts';
import type { SegmentView } from './segment-view.ts';

const analyzer = Analyzer.for('english');
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T00:00:00Z');

const doc = (id: string, text: string, metadata: Metadata = {}): IndexDocument => textDocument(id, text, metadata);


function search(views: SegmentView[], q: string, extra: Partial<SearchRequest> = {}) {
  return searchSegments(views, analyzer, { q, match: 'any', offset: 0, limit: 10, highlightTag: 'mark', now: NOW, ...extra });
}

const ids = (result: { hits: { id: string }[] }): string[] => result.hits.map((hit) => hit.id);
const popularity = (modifier: 'none' | 'log1p' | 'sqrt', factor = 1): FieldBoost => ({ kind: 'numeric', field: 'popularity', modifier, factor });

test('a numeric boost lifts popular documents; each modifier multiplies as documented', () => {
  const docs = [doc('plain', 'red apple'), doc('liked', 'red apple', { popularity: 3 }), doc('loved', 'red apple', { popularity: 99 }), doc('zero', 'red apple', { popularity: 0 })];
  withSegments(analyzer, [docs.slice(0, 2), docs.slice(2)], (views) => {
    const base = search(views, 'apple').hits[0].score;
    assert.deepEqual(ids(search(views, 'apple', { boost: [popularity('log1p')] })).slice(0, 2), ['loved', 'liked']);
    const hits = search(views, 'apple', { boost: [popularity('sqrt', 4)] }).hits;
    const score = (id: string) => hits.find((hit) => hit.id === id)!.score;
    assert.ok(Math.abs(score('loved') - base * (1 + Math.sqrt(4 * 99))) < 1e-9);
    assert.ok(Math.abs(score('liked') - base * (1 + Math.sqrt(12))) < 1e-9);
    assert.ok(Math.abs(score('plain') - base) < 1e-12, 'no field: ×1');
    assert.ok(Math.abs(score('zero') - base) < 1e-12, 'value 0: ×1');
    const none = search(views, 'apple', { boost: [popularity('none', 0.5)] }).hits;
    assert.ok(Math.abs(none.find((hit) => hit.id === 'liked')!.score - base * 2.5) < 1e-9);
  });
});

test('recency: newer dates rank higher, decaying by `decay` every `scale` past `offset`', () => {
  const day = (n: number) => new Date(NOW - n * DAY).toISOString();
  const docs = [doc('old', 'release notes', { date: day(90) }), doc('new', 'release notes', { date: day(1) }), doc('undated', 'release notes'), doc('month', 'release notes', { date: day(31) })];
  withSegments(analyzer, [docs], (views) => {
    const recency: FieldBoost = { kind: 'recency', field: 'date', factor: 1, scaleMs: 30 * DAY, offsetMs: DAY, decay: 0.5 };
    const result = search(views, 'release', { boost: [recency] });
    assert.deepEqual(ids(result), ['new', 'month', 'old', 'undated']);
    const base = search(views, 'release').hits[0].score;
    const score = (id: string) => result.hits.find((hit) => hit.id === id)!.score;
    assert.ok(Math.abs(score('new') - base * 2) < 1e-9, 'within the offset: ×(1 + factor)');
    assert.ok(Math.abs(score('month') - base * 1.5) < 1e-9, 'one scale past the offset: decay 0.5');
    assert.ok(Math.abs(score('undated') - base) < 1e-12);
  });
});

test('explain shows each multiplier; an empty query lists by the boosts; a sort ignores them', () => {
  const docs = [doc('a', 'tea', { popularity: 1 }), doc('b', 'tea', { popularity: 50 }), doc('c', 'tea')];
  withSegments(analyzer, [docs], (views) => {
    const explained = search(views, 'tea', { boost: [popularity('log1p')], explain: true }).hits[0];
    assert.equal(explained.id, 'b');
    assert.equal(explained.explain!.description, 'the relevance score × the field boosts');
    assert.match(explained.explain!.details[1].description, /boost by popularity: 1 \+ log1p\(1 × popularity\)/);
    assert.ok(Math.abs(explained.explain!.details[1].value - (1 + Math.log1p(50))) < 1e-9);
    assert.ok(Math.abs(explained.explain!.value - explained.score) < 1e-9);
    assert.deepEqual(ids(search(views, '', { boost: [popularity('log1p')] })), ['b', 'a', 'c']);
    assert.deepEqual(ids(search(views, 'tea', { boost: [popularity('log1p')], sort: [{ kind: 'id', direction: 'asc' }] })), ['a', 'b', 'c']);
  });
});

test('property: the boosted top k equals a naive ranking of every match (WAND skipping, several segments)', () => {
  // A generator with a long period (a short one repeats the docs, and their ties would all be
  // settled in the first segment, before WAND skips anything).
  const random = seededRandom(7);
  const words = ['alpha', 'beta', 'gamma', 'delta', 'omega'];
  // More docs than a search counts exactly (10,000), so WAND skips with the sink's threshold and
  // the multiplier tiers (a few very popular docs, many ordinary ones) take part.
  const docs = Array.from({ length: 14_000 }, (_, i) => {
    const text = Array.from({ length: 3 + Math.floor(random() * 20) }, () => words[Math.floor(random() * words.length)]).join(' ');
    const popular = random() < 0.02 ? 100_000 : 1000;
    return doc(`d${String(i).padStart(5, '0')}`, text, random() < 0.8 ? { popularity: Math.floor(random() * popular) } : {});
  });
  withSegments(analyzer, [docs.slice(0, 5000), docs.slice(5000, 11_000), docs.slice(11_000)], (views) => {
    for (const q of ['alpha', 'beta gamma', 'omega delta alpha']) {
      // Strong boosts (the popular docs lead) and slight ones (text and boost both decide).
      for (const boost of [popularity('log1p'), popularity('sqrt', 0.01), popularity('none', 0.001), popularity('none', 0.00002), popularity('log1p', 0.0005)]) {
        const unboosted = search(views, q, { limit: 14_000, trackTotal: true, hitFields: [] }).hits;
        const multiplier = (id: string) => {
          const value = docs[Number(id.slice(1))].metadata.popularity as number | undefined;
          if (value === undefined) return 1;
          const x = boost.kind === 'numeric' ? boost.factor * value : 0;
          return 1 + (boost.kind === 'numeric' && boost.modifier === 'log1p' ? Math.log1p(x) : boost.kind === 'numeric' && boost.modifier === 'sqrt' ? Math.sqrt(x) : x);
        };
        const naive = unboosted.map((hit) => ({ id: hit.id, score: hit.score * multiplier(hit.id) })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
        const fast = search(views, q, { limit: 10, boost: [boost], hitFields: [] });
        assert.equal(fast.totalRelation, 'gte', 'WAND skipped');
        assert.deepEqual(fast.hits.map((hit) => hit.id), naive.slice(0, 10).map((hit) => hit.id), `${q} ${JSON.stringify(boost)}`);
        // Searched again with the same boosts, each segment reads its kept multipliers: the same answer.
        assert.deepEqual(search(views, q, { limit: 10, boost: [boost], hitFields: [] }), fast, `${q} ${JSON.stringify(boost)}: kept multipliers`);
        const scores = fast.hits.map((hit) => hit.score);
        naive.slice(0, 10).forEach((hit, i) => assert.ok(Math.abs(hit.score - scores[i]) < 1e-9 * hit.score, `${q}: score ${i}`));
      }
    }
  });
});

test('property: with exact score bounds (every doc the same text), the boosted top k is the k largest multipliers', () => {
  // Each doc's text score equals the term's bound, so a block or doc skipped on a bound a hair
  // too low would lose a hit here.
  const random = seededRandom(11);
  // Values close together: many docs within a hair of the k-th best, in the second segment
  // (the first is offered whole while the total is counted exactly).
  const docs = Array.from({ length: 20_000 }, (_, i) => doc(`e${String(i).padStart(5, '0')}`, 'zeta', random() < 0.9 ? { popularity: Math.floor(random() * 100_000) } : {}));
  withSegments(analyzer, [docs.slice(0, 10_000), docs.slice(10_000)], (views) => {
    for (const boost of [popularity('log1p'), popularity('none', 0.00001)]) {
      const expected = search(views, 'zeta', { limit: 20_000, trackTotal: true, hitFields: [] }).hits
        .map((hit) => ({ id: hit.id, value: (docs[Number(hit.id.slice(1))].metadata.popularity as number | undefined) ?? 0 }))
        .sort((a, b) => b.value - a.value || (a.id < b.id ? -1 : 1));
      for (let round = 0; round < 2; round++) {
        const fast = search(views, 'zeta', { limit: 10, boost: [boost], hitFields: [] });
        assert.deepEqual(fast.hits.map((hit) => hit.id), expected.slice(0, 10).map((hit) => hit.id), `${JSON.stringify(boost)}, round ${round}`);
      }
    }
  });
});
