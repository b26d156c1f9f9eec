// Unit tests of scopes: admin implies search and write, collection access, and the
// no-escalation table (a key may create only keys within its own scopes and collections).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowsCollection, DEFAULT_SCOPES, expandScopes, hasScope, isScope, isSubset, SCOPES } from './scopes.ts';
import type { Scope } from './scopes.ts';

test('the scopes and their expansion', () => {
  assert.deepEqual([...SCOPES], ['search', 'write', 'admin']);
  assert.deepEqual([...DEFAULT_SCOPES], ['search', 'write']);
  assert.deepEqual(expandScopes(['admin']), ['search', 'write', 'admin']);
  assert.deepEqual(expandScopes(['write']), ['write']);
  assert.deepEqual(expandScopes(['write', 'search', 'write']), ['search', 'write']);
  assert.ok(isScope('admin') && !isScope('root') && !isScope(1));
  assert.ok(hasScope(['admin'], 'write'));
  assert.ok(!hasScope(['search'], 'write'));
});

test('collections: null reaches every collection, a list only its own', () => {
  assert.ok(allowsCollection(null, 'anything'));
  assert.ok(allowsCollection(['a', 'b'], 'b'));
  assert.ok(!allowsCollection(['a', 'b'], 'c'));
  assert.ok(!allowsCollection([], 'a'));
});

type Access = [Scope[], string[] | null];
const cases: Array<[string, child: Access, parent: Access, allowed: boolean]> = [
  ['same scopes, all collections', [['search'], null], [['search'], null], true],
  ['fewer scopes', [['search'], null], [['search', 'write'], null], true],
  ['admin parent grants search and write', [['search', 'write'], null], [['admin'], null], true],
  ['admin child of admin', [['admin'], null], [['admin'], null], true],
  ['more scopes', [['search', 'write'], null], [['search'], null], false],
  ['admin child of search+write parent', [['admin'], null], [['search', 'write'], null], false],
  ['write child of search parent', [['write'], null], [['search'], null], false],
  ['limited child of unlimited parent', [['search'], ['a']], [['admin'], null], true],
  ['child within parent collections', [['search'], ['a']], [['admin'], ['a', 'b']], true],
  ['child equal to parent collections', [['search'], ['a', 'b']], [['admin'], ['b', 'a']], true],
  ['unlimited child of limited parent', [['search'], null], [['admin'], ['a']], false],
  ['child outside parent collections', [['search'], ['a', 'c']], [['admin'], ['a', 'b']], false],
  ['collections fine but scopes too wide', [['admin'], ['a']], [['write'], ['a']], false],
];

for (const [name, [childScopes, childCollections], [parentScopes, parentCollections], allowed] of cases) {
  test(`no escalation: ${name} → ${allowed ? 'allowed' : 'refused'}`, () => {
    assert.equal(isSubset(childScopes, childCollections, parentScopes, parentCollections), allowed);
  });
}
