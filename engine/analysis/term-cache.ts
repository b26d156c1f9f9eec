// The analyzer's raw-token → term cache: an open-addressing hash table looked up by a region
// of the text being tokenized (text, start, end, hash) so that a hit allocates nothing — no
// slice, no re-hash; the tokenizer computes the hash as it scans the token. Keys are the raw
// token text (case and accents as written), values the folded, stemmed term.
//
// For the indexing path each slot also remembers the term's id in the current batch's
// TermInterner (tagged with the interner's epoch), so a hit yields the id with no string hashing.
//
// Bounded: when `maxEntries` is reached the table is emptied. Word frequencies are Zipfian,
// so the common words are back within a few thousand tokens, and no per-entry bookkeeping
// (LRU links) is paid on the hot path.

import type { TermInterner } from './term-interner.ts';

/** FNV-1a parameters for the incremental token hash (32-bit). */
export const TOKEN_HASH_SEED = 0x811c9dc5 | 0;
export const TOKEN_HASH_PRIME = 0x01000193;

/** Extends a token hash by one UTF-16 code unit. */
export function extendTokenHash(hash: number, code: number): number {
  return Math.imul(hash ^ code, TOKEN_HASH_PRIME);
}

/** The token hash of a whole string (what the tokenizer computes for a region). */
export function tokenHash(s: string, start = 0, end = s.length): number {
  let hash = TOKEN_HASH_SEED;
  for (let i = start; i < end; i++) hash = extendTokenHash(hash, s.charCodeAt(i));
  return hash;
}

/** Table slots per entry at most: keeps linear probes short. */
const LOAD_FACTOR_INVERSE = 2;
/** i32s per slot in `slots`: hash, interner epoch, term id, key length · 4 + surface bit · 2 + empty-value bit. */
const SLOT_WORDS = 4;
const EPOCH = 1;
const ID = 2;
const SHAPE = 3;
/** Marks an empty slot (its hash word); a real hash of 0 is stored as ZERO_HASH_STAND_IN. */
const EMPTY = 0;
const ZERO_HASH_STAND_IN = 1;

export class TermCache {
  readonly maxEntries: number;
  private readonly mask: number;
  /** Per slot: the key's hash (EMPTY = free). Probed first: dense, so probes stay in cache. */
  /**
   * Per slot, SLOT_WORDS i32s: the key's hash (EMPTY = free), the epoch of the interner whose
   * id follows (0 = none), that id, and the key's length with a bit for an empty value. Side
   * by side so a hit on the indexing path touches one cache line and the key, nothing else.
   */
  private readonly slots: Int32Array;
  /** Per slot: key at 2·slot, value at 2·slot + 1 (one cache line for both). */
  private readonly entries: (string | undefined)[];
  private count = 0;

  constructor(maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`cache size must be a positive integer, got ${maxEntries}`);
    }
    this.maxEntries = maxEntries;
    let capacity = 1;
    while (capacity < maxEntries * LOAD_FACTOR_INVERSE) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity * SLOT_WORDS);
    this.entries = new Array<string | undefined>(capacity * 2).fill(undefined);
  }

  /** Entries currently held (never more than maxEntries). */
  get size(): number {
    return this.count;
  }

  /** The value cached for `text.slice(start, end)`, whose token hash is `hash`. */
  lookup(text: string, start: number, end: number, hash: number): string | undefined {
    const slot = this.find(text, start, end, hash);
    return slot < 0 ? undefined : this.valueAt(slot);
  }

  /** The slot caching `text.slice(start, end)` (token hash `hash`), or -1. */
  find(text: string, start: number, end: number, hash: number): number {
    const wanted = hash === EMPTY ? ZERO_HASH_STAND_IN : hash;
    const slots = this.slots;
    const length = end - start;
    let slot = wanted & this.mask;
    for (;;) {
      const stored = slots[slot * SLOT_WORDS];
      if (stored === EMPTY) return -1;
      if (stored === wanted && slots[slot * SLOT_WORDS + SHAPE] >>> 2 === length) {
        const key = this.entries[2 * slot] as string;
        if (regionEquals(key, text, start)) return slot;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** The value in a slot `find` or `insert` returned (valid until the next insert). */
  valueAt(slot: number): string {
    return this.entries[2 * slot + 1] as string;
  }

  /** True when the value in `slot` is the empty string. */
  emptyValueAt(slot: number): boolean {
    return (this.slots[slot * SLOT_WORDS + SHAPE] & 1) === 1;
  }

  /** The id of the value in `slot` in `interner`, interning it on the first ask. */
  termIdAt(slot: number, interner: TermInterner): number {
    const at = slot * SLOT_WORDS;
    if (this.slots[at + EPOCH] === interner.epoch) return this.slots[at + ID];
    const id = interner.intern(this.entries[2 * slot + 1] as string);
    // Only a token whose folded word differs from its term can be a surface form.
    if ((this.slots[at + SHAPE] & SURFACE_BIT) !== 0) interner.noteRawToken(this.entries[2 * slot] as string, id);
    this.slots[at + EPOCH] = interner.epoch;
    this.slots[at + ID] = id;
    return id;
  }

  /**
   * Caches `value` for `key` (whose token hash is `hash`); empties the table first when full.
   * `surface`: the key's folded word differs from the value, so the segment writer must see the
   * key (surface forms); other keys are not reported to an interner. Returns the slot now
   * holding it.
   */
  insert(key: string, hash: number, value: string, surface = true): number {
    const wanted = hash === EMPTY ? ZERO_HASH_STAND_IN : hash;
    if (this.count >= this.maxEntries) this.clear();
    let slot = wanted & this.mask;
    for (;;) {
      const stored = this.slots[slot * SLOT_WORDS];
      if (stored === EMPTY) break;
      if (stored === wanted && this.entries[2 * slot] === key) {
        this.entries[2 * slot + 1] = value;
        this.slots[slot * SLOT_WORDS + EPOCH] = 0;
        this.slots[slot * SLOT_WORDS + SHAPE] = shape(key, value, surface);
        return slot;
      }
      slot = (slot + 1) & this.mask;
    }
    this.slots[slot * SLOT_WORDS] = wanted;
    this.entries[2 * slot] = key;
    this.entries[2 * slot + 1] = value;
    this.slots[slot * SLOT_WORDS + EPOCH] = 0;
    this.slots[slot * SLOT_WORDS + SHAPE] = shape(key, value, surface);
    this.count++;
    return slot;
  }

  clear(): void {
    this.slots.fill(EMPTY);
    this.entries.fill(undefined);
    this.count = 0;
  }
}

const SURFACE_BIT = 2;

function shape(key: string, value: string, surface: boolean): number {
  return (key.length << 2) | (surface ? SURFACE_BIT : 0) | (value.length === 0 ? 1 : 0);
}

function regionEquals(key: string, text: string, start: number): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}
