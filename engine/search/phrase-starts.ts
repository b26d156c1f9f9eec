// Where a phrase stands in one document: given each of its words' positions (ascending), the
// positions where the first word is followed by the others at consecutive positions. Shared by
// the hit evidence (pages, marks) and page ranking (per-page phrase frequencies).

/** Where `lists` (each word's positions, ascending) hold the phrase's words in a row, ascending. */
export function findPhraseStarts(lists: readonly (readonly number[])[]): number[] {
  const starts: number[] = [];
  const pointers = new Array<number>(lists.length).fill(0);
  outer: for (const start of lists[0]) {
    for (let i = 1; i < lists.length; i++) {
      const list = lists[i];
      let p = pointers[i];
      while (p < list.length && list[p] < start + i) p++;
      pointers[i] = p;
      if (p === list.length) break outer;
      if (list[p] !== start + i) continue outer;
    }
    starts.push(start);
  }
  return starts;
}
