// A fixed-size set of doc numbers as a plain bit array: how the searcher counts matches exactly
// (union of postings, minus exclusions and deletions) without scoring them.

export class DocBitSet {
  readonly words: Uint32Array;

  constructor(readonly size: number) {
    this.words = new Uint32Array((size + 31) >>> 5);
  }

  static fromDocs(size: number, docs: ArrayLike<number>): DocBitSet {
    const set = new DocBitSet(size);
    for (let i = 0; i < docs.length; i++) set.add(docs[i]);
    return set;
  }

  add(doc: number): void {
    this.words[doc >>> 5] |= 1 << (doc & 31);
  }

  remove(doc: number): void {
    this.words[doc >>> 5] &= ~(1 << (doc & 31));
  }

  has(doc: number): boolean {
    return (this.words[doc >>> 5] & (1 << (doc & 31))) !== 0;
  }

  /** Every doc of [0, size). */
  static full(size: number): DocBitSet {
    const set = new DocBitSet(size);
    set.words.fill(0xffffffff);
    set.clearTail();
    return set;
  }

  /** Adds docs[from, to) (a run of a sorted or unsorted doc list). */
  addRange(docs: Uint32Array, from: number, to: number): void {
    const words = this.words;
    for (let i = from; i < to; i++) {
      const doc = docs[i];
      words[doc >>> 5] |= 1 << (doc & 31);
    }
  }

  /** Keeps only members of `other`. */
  and(other: DocBitSet): void {
    const words = this.words;
    const others = other.words;
    for (let i = 0; i < words.length; i++) words[i] &= others[i];
  }

  /** Adds every member of `other`. */
  or(other: DocBitSet): void {
    const words = this.words;
    const others = other.words;
    for (let i = 0; i < words.length; i++) words[i] |= others[i];
  }

  /** Complements the set within [0, size). */
  invert(): void {
    const words = this.words;
    for (let i = 0; i < words.length; i++) words[i] = ~words[i];
    this.clearTail();
  }

  /** The members, ascending, as a doc list (`count` of them). */
  toArray(count = this.count()): Uint32Array {
    const docs = new Uint32Array(count);
    const words = this.words;
    let at = 0;
    for (let i = 0; i < words.length; i++) {
      let word = words[i] | 0;
      while (word !== 0) {
        docs[at++] = (i << 5) | (31 - Math.clz32(word & -word));
        word &= word - 1;
      }
    }
    return docs;
  }

  /** Calls `visit` for every member, ascending. */
  forEach(visit: (doc: number) => void): void {
    const words = this.words;
    for (let i = 0; i < words.length; i++) {
      let word = words[i] | 0;
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        visit((i << 5) | bit);
        word &= word - 1;
      }
    }
  }

  private clearTail(): void {
    const extra = this.words.length * 32 - this.size;
    if (extra > 0) this.words[this.words.length - 1] &= 0xffffffff >>> extra;
  }

  /** Removes every member of `other`. */
  removeAll(other: DocBitSet): void {
    const words = this.words;
    const others = other.words;
    for (let i = 0; i < words.length; i++) words[i] &= ~others[i];
  }

  /** Size of the intersection with `other`, without building it. */
  andCount(other: DocBitSet): number {
    const words = this.words;
    const others = other.words;
    let total = 0;
    for (let i = 0; i < words.length; i++) {
      let v = words[i] & others[i];
      if (v === 0) continue;
      v -= (v >>> 1) & 0x55555555;
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      total += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    }
    return total;
  }

  count(): number {
    let total = 0;
    const words = this.words;
    for (let i = 0; i < words.length; i++) {
      let v = words[i];
      if (v === 0) continue;
      v -= (v >>> 1) & 0x55555555;
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      total += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    }
    return total;
  }
}
