// Tests of the analyzer's region-keyed term cache: lookups by text region, colliding hashes,
// the size bound and clearing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TermCache, tokenHash } from './term-cache.ts';

describe('TermCache', () => {
  it('finds a value by a region of any text with the same characters', () => {
    const cache = new TermCache(16);
    cache.insert('Running', tokenHash('Running'), 'run');
    const text = 'we were Running fast';
    assert.equal(cache.lookup(text, 8, 15, tokenHash(text, 8, 15)), 'run');
    assert.equal(cache.lookup(text, 3, 7, tokenHash(text, 3, 7)), undefined);
  });

  it('tells apart keys whose hashes collide', () => {
    const cache = new TermCache(16);
    const sameHash = 12345;
    cache.insert('alpha', sameHash, 'A');
    cache.insert('beta', sameHash, 'B');
    cache.insert('gamma', 0, 'G'); // hash 0 is valid too
    assert.equal(cache.lookup('alpha', 0, 5, sameHash), 'A');
    assert.equal(cache.lookup('beta', 0, 4, sameHash), 'B');
    assert.equal(cache.lookup('delta', 0, 5, sameHash), undefined);
    assert.equal(cache.lookup('gamma', 0, 5, 0), 'G');
    assert.equal(cache.size, 3);
  });

  it('empties itself when full, never exceeding its bound', () => {
    const cache = new TermCache(4);
    for (let i = 0; i < 10; i++) {
      const key = `k${i}`;
      cache.insert(key, tokenHash(key), `v${i}`);
      assert.ok(cache.size <= 4);
    }
    assert.equal(cache.lookup('k9', 0, 2, tokenHash('k9')), 'v9');
    assert.equal(cache.lookup('k0', 0, 2, tokenHash('k0')), undefined);
  });

  it('replaces the value of a key inserted twice', () => {
    const cache = new TermCache(4);
    cache.insert('x', tokenHash('x'), '1');
    cache.insert('x', tokenHash('x'), '2');
    assert.equal(cache.size, 1);
    assert.equal(cache.lookup('x', 0, 1, tokenHash('x')), '2');
  });

  it('finds keys packed in their slot and keys too long or too wide to be, and tells apart packed keys of one hash and length', () => {
    const cache = new TermCache(64);
    const keys = ['short', 'exactlytwelv', 'thirteenchars', 'muchlongerthananyslotcouldhold', 'naïve', '東京', 'x'];
    for (const key of keys) cache.insert(key, tokenHash(key), key.toUpperCase());
    for (const key of keys) {
      const text = `  ${key}  `;
      assert.equal(cache.lookup(text, 2, 2 + key.length, tokenHash(key)), key.toUpperCase(), key);
    }
    // Same hash and length, different characters: only the packed characters tell them apart.
    cache.insert('abcd', 99, 'first');
    cache.insert('abce', 99, 'second');
    assert.equal(cache.lookup('abce', 0, 4, 99), 'second');
    assert.equal(cache.lookup('abcd', 0, 4, 99), 'first');
    assert.equal(cache.lookup('abcf', 0, 4, 99), undefined);
  });
});
