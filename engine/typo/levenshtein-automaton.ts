// A Levenshtein automaton for one query term: accepts the terms within 1 or 2 typos of it, as a
// deterministic automaton over code points built lazily (a state is made the first time a walk
// reaches it), so the term dictionary can be walked with it and seek past dead prefixes
// (engine/segment/term-dictionary.ts `intersect`) instead of comparing every term.
//
// Typos are counted as Meilisearch counts them:
// - Damerau–Levenshtein distance in its "optimal string alignment" form: inserting, deleting or
//   substituting a character, or swapping two adjacent ones ("recieve" → "receive"), is one typo;
// - a term whose first character differs from the query term's costs one typo more, so with one
//   typo allowed the first character must match, and with two a first-character typo is the only
//   one ("caturday" finds "saturday" only when two typos are allowed).
//
// A state is a row of the edit-distance table (the distance from the term read so far to each
// prefix of the query term, capped at the limit + 1), the entries of the previous row a swap can
// still use, and whether the first character differed. Code points that are not in the query
// term all behave alike, so a state has at most (distinct query characters + 1) transitions.
// Every state that is not dead can still reach acceptance (append the rest of the query term).

import { DEAD_STATE } from '../segment/term-automaton.ts';
import type { TermAutomaton } from '../segment/term-automaton.ts';

/** The most typos an automaton allows. */
export const MAX_AUTOMATON_TYPOS = 2;
/**
 * States an automaton may make; past this a new state counts as dead (bounded work). A term of
 * MAX_TYPO_TERM_LENGTH code points with 2 typos makes a few hundred, far below it.
 */
export const MAX_AUTOMATON_STATES = 20_000;
/** Query terms longer than this (in code points) get no typo automaton. */
export const MAX_TYPO_TERM_LENGTH = 64;

const LAST_CODE_POINT = 0x10ffff;
/** The transition key of every code point that is not in the query term. */
const OTHER = -1;
/** A transition not yet computed. */
const UNKNOWN = -2;
/** First-character flags of a state. */
const FIRST_UNREAD = 0;
const FIRST_SAME = 1;
const FIRST_DIFFERS = 2;

export class LevenshteinAutomaton implements TermAutomaton {
  readonly start = 0;
  /** The query term's code points. */
  private readonly query: number[];
  /** Its distinct code points, ascending; a code point's key is its place here. */
  private readonly queryChars: number[];
  /** The key of every ASCII code point (OTHER when not in the query term), and of the rest. */
  private readonly asciiKeys = new Int16Array(128).fill(OTHER);
  private readonly keys = new Map<number, number>();
  /** Per state: its row (query length + 1 entries), swap entries, first-character flag. */
  private readonly rows: Uint8Array[] = [];
  private readonly swaps: Uint8Array[] = [];
  private readonly flags: number[] = [];
  /** Per state: the next state for each key (the last entry is OTHER's), UNKNOWN until stepped. */
  private readonly transitions: Int32Array[] = [];
  /** Per state, once asked: whether OTHER's transition is alive (all keys then stepped). */
  private readonly otherAlive: (boolean | undefined)[] = [];
  private readonly stateIds = new Map<string, number>();

  /** `maxTypos`: 1 or 2, counted as above. */
  constructor(
    readonly term: string,
    readonly maxTypos: number,
  ) {
    if (!(maxTypos >= 1 && maxTypos <= MAX_AUTOMATON_TYPOS)) throw new RangeError(`maxTypos must be 1 or 2, not ${maxTypos}`);
    this.query = [...term].map((char) => char.codePointAt(0)!);
    if (this.query.length === 0 || this.query.length > MAX_TYPO_TERM_LENGTH) {
      throw new RangeError(`a typo automaton needs a term of 1–${MAX_TYPO_TERM_LENGTH} code points`);
    }
    this.queryChars = [...new Set(this.query)].sort((a, b) => a - b);
    this.queryChars.forEach((char, key) => {
      if (char < 128) this.asciiKeys[char] = key;
      else this.keys.set(char, key);
    });
    const m = this.query.length;
    const cap = maxTypos + 1;
    const row = new Uint8Array(m + 1);
    for (let j = 0; j <= m; j++) row[j] = Math.min(j, cap);
    this.addState(row, new Uint8Array(m + 1).fill(cap), FIRST_UNREAD);
  }

  /** States made so far. */
  get stateCount(): number {
    return this.rows.length;
  }

  step(state: number, codePoint: number): number {
    const key = codePoint < 128 ? this.asciiKeys[codePoint] : (this.keys.get(codePoint) ?? OTHER);
    return this.stepKey(state, key);
  }

  private stepKey(state: number, key: number): number {
    const transitions = this.transitions[state];
    const slot = key === OTHER ? this.queryChars.length : key;
    let next = transitions[slot];
    if (next === UNKNOWN) {
      next = this.computeStep(state, key === OTHER ? OTHER : this.queryChars[key]);
      // `addState` may have grown the arrays, never this state's own row.
      this.transitions[state][slot] = next;
    }
    return next;
  }

  accepts(state: number): boolean {
    return this.rows[state][this.query.length] <= this.limit(this.flags[state]);
  }

  /** Typos of a term ending in accepting `state`: its edit distance, +1 if its first character differs. */
  typos(state: number): number {
    return this.rows[state][this.query.length] + (this.flags[state] === FIRST_DIFFERS ? 1 : 0);
  }

  nextLiveCodePoint(state: number, from: number): number {
    if (from > LAST_CODE_POINT) return -1;
    const { queryChars } = this;
    let otherAlive = this.otherAlive[state];
    if (otherAlive === undefined) {
      for (let key = 0; key < queryChars.length; key++) this.stepKey(state, key);
      otherAlive = this.stepKey(state, OTHER) !== DEAD_STATE;
      this.otherAlive[state] = otherAlive;
    }
    const transitions = this.transitions[state];
    // The query's characters from `from` on, ascending; between them every code point is OTHER.
    let key = 0;
    while (key < queryChars.length && queryChars[key] < from) key++;
    if (!otherAlive) {
      for (; key < queryChars.length; key++) if (transitions[key] !== DEAD_STATE) return queryChars[key];
      return -1;
    }
    // OTHER is alive: `from` itself, unless it is a dead query character; then the next one up.
    let candidate = from;
    for (; key < queryChars.length && queryChars[key] === candidate; key++) {
      if (transitions[key] !== DEAD_STATE) return candidate;
      candidate = candidate === 0xd7ff ? 0xe000 : candidate + 1;
    }
    return candidate <= LAST_CODE_POINT ? candidate : -1;
  }

  /** The most typos a state with this first-character flag may have made. */
  private limit(flag: number): number {
    return flag === FIRST_DIFFERS ? this.maxTypos - 1 : this.maxTypos;
  }

  private computeStep(state: number, key: number): number {
    const { query } = this;
    const m = query.length;
    const row = this.rows[state];
    const swap = this.swaps[state];
    const flag = this.flags[state] === FIRST_UNREAD ? (key === query[0] ? FIRST_SAME : FIRST_DIFFERS) : this.flags[state];
    const limit = this.limit(flag);
    const cap = limit + 1;
    const next = new Uint8Array(m + 1);
    next[0] = Math.min(row[0] + 1, cap);
    let best = next[0];
    for (let j = 1; j <= m; j++) {
      let value = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (key === query[j - 1] ? 0 : 1));
      // A swap: this code point is query[j - 2] and the previous one was query[j - 1].
      if (j >= 2 && key === query[j - 2]) value = Math.min(value, swap[j - 2] + 1);
      next[j] = Math.min(value, cap);
      if (next[j] < best) best = next[j];
    }
    if (best > limit) return DEAD_STATE;
    // What the next step may swap with: row[j - 1] where this code point is query[j].
    const nextSwap = new Uint8Array(m + 1).fill(cap);
    for (let j = 1; j <= m; j++) if (key === query[j]) nextSwap[j - 1] = Math.min(row[j - 1], cap);
    return this.addState(next, nextSwap, flag);
  }

  /** The id of the state with these contents, made if new (DEAD_STATE past the bound). */
  private addState(row: Uint8Array, swap: Uint8Array, flag: number): number {
    // Entries are at most MAX_AUTOMATON_TYPOS + 1, so one UTF-16 unit each makes a compact key.
    const key = String.fromCharCode(flag, ...row, ...swap);
    const known = this.stateIds.get(key);
    if (known !== undefined) return known;
    if (this.rows.length >= MAX_AUTOMATON_STATES) return DEAD_STATE;
    const id = this.rows.length;
    this.rows.push(row);
    this.swaps.push(swap);
    this.flags.push(flag);
    this.transitions.push(new Int32Array(this.queryChars.length + 1).fill(UNKNOWN));
    this.stateIds.set(key, id);
    return id;
  }
}
