// API key scopes and the no-escalation rule (docs/api.md, "API keys, sessions and rate limits"): `search`, `write`, `admin`, where admin
// implies the other two; collections `null` means all. A key may only create keys whose scopes
// and collections are subsets of its own.

export const SCOPES = ['search', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes a key created without `scopes` gets (the developer level). */
export const DEFAULT_SCOPES: readonly Scope[] = ['search', 'write'];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Every scope the given ones grant, in canonical order (`admin` brings `search` and `write`). */
export function expandScopes(scopes: readonly Scope[]): Scope[] {
  if (scopes.includes('admin')) return [...SCOPES];
  return SCOPES.filter((scope) => scopes.includes(scope));
}

/** True when `scopes` grant `needed` (directly or through `admin`). */
export function hasScope(scopes: readonly Scope[], needed: Scope): boolean {
  return scopes.includes(needed) || scopes.includes('admin');
}

/** True when `collections` (null = all) let a key reach `collection`. */
export function allowsCollection(collections: readonly string[] | null, collection: string): boolean {
  return collections === null || collections.includes(collection);
}

/**
 * No escalation: true when a child key with these scopes and collections grants nothing the
 * parent does not. Null collections mean all, so a limited parent cannot create an unlimited
 * child, and a child's list must be within the parent's.
 */
export function isSubset(
  childScopes: readonly Scope[],
  childCollections: readonly string[] | null,
  parentScopes: readonly Scope[],
  parentCollections: readonly string[] | null,
): boolean {
  const parentGrants = expandScopes(parentScopes);
  if (!expandScopes(childScopes).every((scope) => parentGrants.includes(scope))) return false;
  if (parentCollections === null) return true;
  if (childCollections === null) return false;
  return childCollections.every((name) => parentCollections.includes(name));
}
