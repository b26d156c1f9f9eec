// A document's own vectors (`vectors: { <embedder>: [numbers] }`, docs/api.md, "Damaged files and `folio check`") checked against
// the collection's `user` embedders: each name must be one of them and each vector of its
// dimensions. The schema already made them arrays of finite numbers.

import type { FieldError } from '../errors/index.ts';

/** A collection's `user` embedders: name → dimensions. */
export type VectorRules = Readonly<Record<string, number>>;

/** The errors of `vectors` (at `path`, e.g. `/body/3/vectors`); none when it is absent or right. */
export function vectorErrors(vectors: Readonly<Record<string, readonly number[]>> | undefined, rules: VectorRules, path: string): FieldError[] {
  if (vectors === undefined) return [];
  const errors: FieldError[] = [];
  for (const [name, vector] of Object.entries(vectors)) {
    const dims = rules[name];
    if (dims === undefined) {
      const known = Object.keys(rules);
      errors.push({ path: `${path}/${name}`, message: `names no user embedder of the collection (${known.length === 0 ? 'it has none' : `it has ${known.join(', ')}`})` });
    } else if (vector.length !== dims) {
      errors.push({ path: `${path}/${name}`, message: `has ${vector.length} numbers; embedder '${name}' has ${dims} dimensions` });
    }
  }
  return errors;
}
