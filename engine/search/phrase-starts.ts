// Where a phrase stands in one document: given each of its words' positions (ascending), the
// positions where the first word is followed by the others at consecutive positions. Shared by
// the phrase scorer, the hit evidence (pages, marks) and page ranking.
//
// The cost is linear in the words' occurrences whatever the phrase repeats (issue 18: a
// 498-word phrase `"a a … a"` over a document of 200,000 `a` took 26 s when every start was
// checked word by word). Every position holds one term, so:
// - a phrase of distinct words is a leapfrog: a position can stand for one word only, and each
//   list's pointer only moves forward;
// - a phrase that repeats a word is matched by KMP over the document's occurrences of its
//   words in position order, a gap (a position holding another word) resetting the match.

/** The phrase's words as slots: `slots[i]` is the index in `lists` of word i's positions. */
export interface PhraseShape {
  readonly slots: Int32Array;
  readonly distinct: number;
  /** KMP failure function of `slots` (null when every word is distinct). */
  readonly failure: Int32Array | null;
}

/** The shape of a phrase whose word i has key `keys[i]` (equal keys: the same word). */
export function phraseShape<K>(keys: readonly K[]): PhraseShape {
  const slotOf = new Map<K, number>();
  const slots = new Int32Array(keys.length);
  keys.forEach((key, i) => {
    let slot = slotOf.get(key);
    if (slot === undefined) slotOf.set(key, (slot = slotOf.size));
    slots[i] = slot;
  });
  const distinct = slotOf.size;
  return { slots, distinct, failure: distinct === keys.length ? null : kmpFailure(slots) };
}

/** Where `lists` (each word's positions, ascending; equal lists for a repeated word) hold the phrase, ascending. */
export function findPhraseStarts(lists: readonly (readonly number[])[]): number[] {
  const shape = phraseShape(lists);
  const unique: (readonly number[])[] = [];
  lists.forEach((list, i) => (unique[shape.slots[i]] = list));
  const starts: number[] = [];
  forEachPhraseStart(shape, unique, (start) => starts.push(start));
  return starts;
}

/**
 * Calls `visit` with each start of the phrase, ascending, where `positions[s]` lists the
 * positions of slot s. Returns the work done (positions examined), for a search's budget.
 */
export function forEachPhraseStart(shape: PhraseShape, positions: readonly (readonly number[])[], visit: (start: number) => void): number {
  if (shape.slots.length === 1) {
    for (const position of positions[0]) visit(position);
    return positions[0].length;
  }
  return shape.failure === null ? leapfrog(shape.slots, positions, visit) : matchRepeating(shape, positions, visit);
}

function leapfrog(slots: Int32Array, positions: readonly (readonly number[])[], visit: (start: number) => void): number {
  const length = slots.length;
  const pointers = new Int32Array(length);
  const first = positions[slots[0]];
  let work = first.length;
  outer: for (const start of first) {
    for (let i = 1; i < length; i++) {
      const list = positions[slots[i]];
      const wanted = start + i;
      let p = pointers[i];
      const from = p;
      while (p < list.length && list[p] < wanted) p++;
      work += p - from + 1;
      pointers[i] = p;
      if (p === list.length) break outer;
      if (list[p] !== wanted) continue outer;
    }
    visit(start);
  }
  return work;
}

/** KMP over the occurrences of the phrase's words merged in position order. */
function matchRepeating(shape: PhraseShape, positions: readonly (readonly number[])[], visit: (start: number) => void): number {
  const { slots, distinct } = shape;
  const failure = shape.failure!;
  const length = slots.length;
  let count = 0;
  for (let s = 0; s < distinct; s++) count += positions[s].length;
  // Positions are below 2^32 and slots below 2^20: position × 2^20 + slot is an exact double.
  const merged = new Float64Array(count);
  let n = 0;
  for (let s = 0; s < distinct; s++) for (const position of positions[s]) merged[n++] = position * SLOT_SPACE + s;
  merged.sort();
  let state = 0;
  let previous = -2;
  for (let i = 0; i < count; i++) {
    const key = merged[i];
    const position = Math.floor(key / SLOT_SPACE);
    const slot = key - position * SLOT_SPACE;
    if (position !== previous + 1) state = 0;
    previous = position;
    while (state > 0 && slots[state] !== slot) state = failure[state - 1];
    if (slots[state] === slot) state++;
    if (state === length) {
      visit(position - length + 1);
      state = failure[length - 1];
    }
  }
  return count * 2;
}

const SLOT_SPACE = 2 ** 20;

/** failure[i]: the length of the longest proper prefix of slots[0…i] that is also its suffix. */
function kmpFailure(slots: Int32Array): Int32Array {
  const failure = new Int32Array(slots.length);
  let k = 0;
  for (let i = 1; i < slots.length; i++) {
    while (k > 0 && slots[i] !== slots[k]) k = failure[k - 1];
    if (slots[i] === slots[k]) k++;
    failure[i] = k;
  }
  return failure;
}
