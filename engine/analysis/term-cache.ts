// The analyzer's raw-token → term cache: an open-addressing hash table looked up by a region
// of the text being tokenized (text, start, end, hash) so that a hit allocates nothing — no
// slice, no re-hash; the tokenizer computes the hash as it scans the token. Keys are the raw
// token text (case and accents as written), values the folded, stemmed term.
//
// Bounded: when `maxEntries` is reached the table is emptied. Word frequencies are Zipfian,
// so the common words are back within a few thousand tokens, and no per-entry bookkeeping
// (LRU links) is paid on the hot path.

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
/** Marks an empty slot in `hashes`; a real hash of 0 is stored as ZERO_HASH_STAND_IN. */
const EMPTY = 0;
const ZERO_HASH_STAND_IN = 1;

export class TermCache {
  readonly maxEntries: number;
  private readonly mask: number;
  /** Per slot: the key's hash (EMPTY = free). Probed first: dense, so probes stay in cache. */
  private readonly hashes: Int32Array;
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
    this.hashes = new Int32Array(capacity);
    this.entries = new Array<string | undefined>(capacity * 2).fill(undefined);
  }

  /** Entries currently held (never more than maxEntries). */
  get size(): number {
    return this.count;
  }

  /** The value cached for `text.slice(start, end)`, whose token hash is `hash`. */
  lookup(text: string, start: number, end: number, hash: number): string | undefined {
    const wanted = hash === EMPTY ? ZERO_HASH_STAND_IN : hash;
    const hashes = this.hashes;
    const length = end - start;
    let slot = wanted & this.mask;
    for (;;) {
      const stored = hashes[slot];
      if (stored === EMPTY) return undefined;
      if (stored === wanted) {
        const key = this.entries[2 * slot] as string;
        if (key.length === length && regionEquals(key, text, start)) return this.entries[2 * slot + 1];
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** Caches `value` for `key` (whose token hash is `hash`); empties the table first when full. */
  insert(key: string, hash: number, value: string): void {
    const wanted = hash === EMPTY ? ZERO_HASH_STAND_IN : hash;
    if (this.count >= this.maxEntries) this.clear();
    let slot = wanted & this.mask;
    for (;;) {
      const stored = this.hashes[slot];
      if (stored === EMPTY) break;
      if (stored === wanted && this.entries[2 * slot] === key) {
        this.entries[2 * slot + 1] = value;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
    this.hashes[slot] = wanted;
    this.entries[2 * slot] = key;
    this.entries[2 * slot + 1] = value;
    this.count++;
  }

  clear(): void {
    this.hashes.fill(EMPTY);
    this.entries.fill(undefined);
    this.count = 0;
  }
}

function regionEquals(key: string, text: string, start: number): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}
