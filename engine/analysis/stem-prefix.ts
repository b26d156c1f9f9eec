// How a prefix query meets stemmed terms: the word typed before `*` is cut back to where it
// agrees with its own stem, so a complete word still finds itself ("computer*" searches
// "comput…"). The query parser applies it, and the segment writer relies on it to decide
// which surface words a prefix could miss (segment/surface-forms.ts): one rule for both.

/** The longest common prefix of two strings. */
export function commonPrefix(a: string, b: string): string {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return a.slice(0, i);
}

/** The prefix searched for `folded` (typed before `*`) whose term is `stem`: their common prefix, or the word when they share none. */
export function prefixAgreeingWithStem(folded: string, stem: string): string {
  const prefix = commonPrefix(folded, stem);
  return prefix.length > 0 ? prefix : folded;
}
