// Tests for the search cache: hits by exact key, least recently used eviction within the byte
// budget, oversized answers not kept, and a zero budget that disables it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchCache } from './search-cache.ts';

const page = (text: string) => ({ members: text, total: 1, hitCount: 1, timedOut: false });
const request = (q: string) => ({ q, match: 'any' as const, offset: 0, limit: 10, highlightTag: 'mark' });

test('a key names the collection instance, the generation and the whole request', () => {
  const a = SearchCache.key('c1', 3, request('apple'));
  assert.equal(a, SearchCache.key('c1', 3, request('apple')));
  assert.notEqual(a, SearchCache.key('c1', 4, request('apple')));
  assert.notEqual(a, SearchCache.key('c2', 3, request('apple')));
  assert.notEqual(a, SearchCache.key('c1', 3, { ...request('apple'), limit: 11 }));
});

test('least recently used entries go first when the budget is spent', () => {
  const cache = new SearchCache(40_000);
  const text = 'x'.repeat(1_000); // about 2 KB an entry
  for (let i = 0; i < 10; i++) cache.set(`k${i}`, page(text));
  assert.ok(cache.get('k0'));
  for (let i = 10; i < 25; i++) cache.set(`k${i}`, page(text));
  assert.ok(cache.stats().bytes <= 40_000);
  assert.ok(cache.get('k0'), 'recently used survives');
  assert.equal(cache.get('k1'), undefined, 'least recently used went first');
  assert.ok(cache.get('k24'));
});

test('oversized answers are not kept, and a zero budget keeps nothing', () => {
  const cache = new SearchCache(40_000);
  cache.set('big', page('y'.repeat(10_000)));
  assert.equal(cache.get('big'), undefined);
  const off = new SearchCache(0);
  off.set('k', page('z'));
  assert.equal(off.get('k'), undefined);
});
