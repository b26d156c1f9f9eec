// The analyzer's raw-token → term cache: an open-addressing hash table looked up by a region
// of the text being tokenized (text, start, end, hash) so that a hit allocates nothing — no
// slice, no re-hash; the tokenizer computes the hash as it scans the token. Keys are the raw
// token text (case and accents as written), values the folded, stemmed term.
//
// For the indexing path each slot also remembers the term's id in the current batch's
// TermInterner (tagged with the interner's epoch), so a hit yields the id with no string hashing,
// and the term's number: the same for every key with that term ("Run", "run", "running"),
// given on the indexing path's first ask, so a batch interns a term by an integer, not a string.
// A key of up to INLINE_KEY_CHARS Latin-1 characters (nearly every word) is also packed into its
// slot, a byte a character, so a hit compares it there: the probe touches the slot's cache line
// and nothing else — no key string elsewhere on the heap, which at a batch's 100,000 distinct
// words was a cache miss a token.
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
/**
 * i32s per slot in `slots`: hash, interner epoch, term id, shape (key length · 8 + inline bit · 4
 * + surface bit · 2 + empty-value bit), the term's number (NO_NUMBER before the indexing path
 * asks), then the key's characters packed four to a word when inline. Eight words: a slot is 32
 * bytes, half a cache line.
 */
const SLOT_WORDS = 8;
const EPOCH = 1;
const ID = 2;
const SHAPE = 3;
const NUMBER = 4;
const KEY = 5;
const NO_NUMBER = -1;
/** Keys of at most this many characters, all below 256, are packed into their slot. */
export const INLINE_KEY_CHARS = (SLOT_WORDS - KEY) * 4;
const LENGTH_SHIFT = 3;
const INLINE_BIT = 4;
const LATIN1_LIMIT = 0x100;
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
  /**
   * Term → number, for the terms the indexing path asked about. It outlives a clear of the
   * table, so a term keeps its number through a batch however often the table fills; past
   * maxEntries it is emptied when a new interner (the next batch) first asks, with every slot's
   * number, and `numbering` counts those renumberings so that an interner still in use then
   * can tell (term-interner.ts).
   */
  private readonly numbers = new Map<string, number>();
  private nextNumber = 0;
  /** Renumberings so far, and the epoch of the last interner that asked. */
  numbering = 0;
  private numberingEpoch = 0;

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
      const at = slot * SLOT_WORDS;
      const stored = slots[at];
      if (stored === EMPTY) return -1;
      const shape = slots[at + SHAPE];
      if (stored === wanted && shape >>> LENGTH_SHIFT === length) {
        if ((shape & INLINE_BIT) !== 0 ? inlineEquals(slots, at + KEY, text, start, length) : regionEquals(this.entries[2 * slot] as string, text, start)) return slot;
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
    if (interner.epoch !== this.numberingEpoch) this.startNumbering(interner.epoch);
    const term = this.entries[2 * slot + 1] as string;
    let number = this.slots[at + NUMBER];
    if (number === NO_NUMBER) {
      number = this.numbers.get(term) ?? NO_NUMBER;
      if (number === NO_NUMBER) {
        number = this.nextNumber;
        this.nextNumber = (this.nextNumber + 1) & 0x7fffffff;
        this.numbers.set(term, number);
      }
      this.slots[at + NUMBER] = number;
    }
    const id = interner.internNumbered(number, term, this.numbering);
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
        this.slots[slot * SLOT_WORDS + NUMBER] = NO_NUMBER;
        this.slots[slot * SLOT_WORDS + SHAPE] = shape(key, value, surface) | (this.slots[slot * SLOT_WORDS + SHAPE] & INLINE_BIT);
        return slot;
      }
      slot = (slot + 1) & this.mask;
    }
    this.slots[slot * SLOT_WORDS] = wanted;
    this.entries[2 * slot] = key;
    this.entries[2 * slot + 1] = value;
    this.slots[slot * SLOT_WORDS + EPOCH] = 0;
    this.slots[slot * SLOT_WORDS + NUMBER] = NO_NUMBER;
    this.slots[slot * SLOT_WORDS + SHAPE] = shape(key, value, surface) | packKey(key, this.slots, slot * SLOT_WORDS + KEY);
    this.count++;
    return slot;
  }

  clear(): void {
    this.slots.fill(EMPTY);
    this.entries.fill(undefined);
    this.count = 0;
  }

  /** A new interner asks: renumbers from scratch when the numbers have grown past the bound. */
  private startNumbering(epoch: number): void {
    this.numberingEpoch = epoch;
    if (this.numbers.size <= this.maxEntries) return;
    this.numbers.clear();
    for (let at = NUMBER; at < this.slots.length; at += SLOT_WORDS) this.slots[at] = NO_NUMBER;
    this.numbering++;
  }
}

const SURFACE_BIT = 2;

function shape(key: string, value: string, surface: boolean): number {
  return (key.length << LENGTH_SHIFT) | (surface ? SURFACE_BIT : 0) | (value.length === 0 ? 1 : 0);
}

/** Packs `key` into slots[at …] when it fits (INLINE_KEY_CHARS Latin-1 characters); returns INLINE_BIT then, else 0. */
function packKey(key: string, slots: Int32Array, at: number): number {
  if (key.length > INLINE_KEY_CHARS) return 0;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) >= LATIN1_LIMIT) return 0;
  for (let w = 0; w < SLOT_WORDS - KEY; w++) slots[at + w] = 0;
  for (let i = 0; i < key.length; i++) slots[at + (i >>> 2)] |= key.charCodeAt(i) << ((i & 3) << 3);
  return INLINE_BIT;
}

/** Whether the key packed at slots[at …] is text[start, start + length). */
function inlineEquals(slots: Int32Array, at: number, text: string, start: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (((slots[at + (i >>> 2)] >>> ((i & 3) << 3)) & 0xff) !== text.charCodeAt(start + i)) return false;
  return true;
}

function regionEquals(key: string, text: string, start: number): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}
