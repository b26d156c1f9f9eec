// The HNSW graph's scoring kernels: int8 codes against a fixed-point query (RowScorer), in
// WebAssembly SIMD where the thread holds a copy of the codes (simd-codes.ts), else in
// JavaScript, four bytes a read and four neighbour rows a pass; and code against code for the
// build. Both paths compute the same integers. Hot: small, monomorphic and allocation-free.

import { INT32_MAX, LITTLE_ENDIAN, MAX_CODE } from './hnsw-format.ts';
import { MAX_SIMD_QUERY, SIMD_ROWS_CAPACITY, SimdCodes } from './simd-codes.ts';

// ---------------------------------------------------------------------------------------------
// Dot-product kernels. Hot: keep them small, monomorphic and allocation-free.

/** Σ query[j]·code[j] over one row, the codes read as little-endian words (four codes each). */
export function dotWords(query: Int32Array, words: Int32Array, wordBase: number, wordCount: number): number {
  let s0 = 0;
  let s1 = 0;
  for (let w = 0; w < wordCount; w++) {
    const x = words[wordBase + w];
    const i = w << 2;
    s0 = (s0 + Math.imul(query[i], (x << 24) >> 24) + Math.imul(query[i + 1], (x << 16) >> 24)) | 0;
    s1 = (s1 + Math.imul(query[i + 2], (x << 8) >> 24) + Math.imul(query[i + 3], x >> 24)) | 0;
  }
  return s0 + s1;
}

/**
 * dotWords for four rows at once, into out[0…3]: the query's loads are shared and the four rows'
 * memory is fetched in parallel, which makes each dot product about twice as cheap.
 */
export function dotWordsFour(query: Int32Array, words: Int32Array, a: number, b: number, c: number, d: number, wordCount: number, out: Float64Array): void {
  let sa = 0;
  let sb = 0;
  let sc = 0;
  let sd = 0;
  for (let w = 0; w < wordCount; w++) {
    const xa = words[a + w];
    const xb = words[b + w];
    const xc = words[c + w];
    const xd = words[d + w];
    const i = w << 2;
    const q0 = query[i];
    const q1 = query[i + 1];
    const q2 = query[i + 2];
    const q3 = query[i + 3];
    sa = (sa + Math.imul(q0, (xa << 24) >> 24) + Math.imul(q1, (xa << 16) >> 24) + Math.imul(q2, (xa << 8) >> 24) + Math.imul(q3, xa >> 24)) | 0;
    sb = (sb + Math.imul(q0, (xb << 24) >> 24) + Math.imul(q1, (xb << 16) >> 24) + Math.imul(q2, (xb << 8) >> 24) + Math.imul(q3, xb >> 24)) | 0;
    sc = (sc + Math.imul(q0, (xc << 24) >> 24) + Math.imul(q1, (xc << 16) >> 24) + Math.imul(q2, (xc << 8) >> 24) + Math.imul(q3, xc >> 24)) | 0;
    sd = (sd + Math.imul(q0, (xd << 24) >> 24) + Math.imul(q1, (xd << 16) >> 24) + Math.imul(q2, (xd << 8) >> 24) + Math.imul(q3, xd >> 24)) | 0;
  }
  out[0] = sa;
  out[1] = sb;
  out[2] = sc;
  out[3] = sd;
}

/** Σ code_a[j]·code_b[j] of two rows, both read as words. */
export function dotWordPair(words: Int32Array, a: number, b: number, wordCount: number): number {
  let s0 = 0;
  let s1 = 0;
  for (let w = 0; w < wordCount; w++) {
    const x = words[a + w];
    const y = words[b + w];
    s0 = (s0 + Math.imul((x << 24) >> 24, (y << 24) >> 24) + Math.imul((x << 16) >> 24, (y << 16) >> 24)) | 0;
    s1 = (s1 + Math.imul((x << 8) >> 24, (y << 8) >> 24) + Math.imul(x >> 24, y >> 24)) | 0;
  }
  return s0 + s1;
}

/** The same over codes that are not word-aligned. */
export function dotBytes(query: Int32Array, codes: Int8Array, base: number, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let j = 0;
  for (; j + 2 <= dims; j += 2) {
    s0 = (s0 + Math.imul(query[j], codes[base + j])) | 0;
    s1 = (s1 + Math.imul(query[j + 1], codes[base + j + 1])) | 0;
  }
  if (j < dims) s0 = (s0 + Math.imul(query[j], codes[base + j])) | 0;
  return s0 + s1;
}

/** dotWordPair over codes that are not word-aligned. */
export function dotBytePair(codes: Int8Array, a: number, b: number, dims: number): number {
  let sum = 0;
  for (let j = 0; j < dims; j++) sum = (sum + Math.imul(codes[a + j], codes[b + j])) | 0;
  return sum;
}


/** The codes as 32-bit words when every row starts on a word (else null: use the byte kernel). */
export const wordViews = new WeakMap<Int8Array, Int32Array | null>();
export function codeWords(codes: Int8Array, dims: number): Int32Array | null {
  let words = wordViews.get(codes);
  if (words === undefined) {
    const aligned = LITTLE_ENDIAN && dims % 4 === 0 && codes.byteOffset % 4 === 0;
    words = aligned ? new Int32Array(codes.buffer, codes.byteOffset, codes.length >> 2) : null;
    wordViews.set(codes, words);
  }
  return words;
}

/**
 * Scores rows against a fixed-point query: score(row) = factor · scales[row] · Σ query·codes.
 * With `simd` (the default) the scorer copies the codes into WebAssembly memory when this
 * thread's budget allows (see simd-codes.ts); a scorer that only compares rows (rowPair) needs
 * no copy.
 */
export class RowScorer {
  readonly query: Int32Array;
  factor = 1;
  private readonly words: Int32Array | null;
  private readonly wordCount: number;
  private readonly four = new Float64Array(4);
  private readonly simd: SimdCodes | null;

  constructor(
    private readonly codes: Int8Array,
    private readonly scales: Float32Array,
    private readonly dims: number,
    simd = true,
  ) {
    this.query = new Int32Array(dims);
    this.words = codeWords(codes, dims);
    this.wordCount = dims >> 2;
    this.simd = simd ? SimdCodes.copy(codes, dims) : null;
  }

  /** Whether rows are scored in WebAssembly SIMD. */
  get usesSimd(): boolean {
    return this.simd !== null;
  }

  /** Returns the SIMD copy's bytes to the thread's budget: for a scorer that will not be used again. */
  release(): void {
    this.simd?.release();
  }

  covers(codes: Int8Array, scales: Float32Array, dims: number): boolean {
    return this.codes === codes && this.scales === scales && this.dims === dims;
  }

  score(row: number): number {
    const simd = this.simd;
    if (simd !== null) {
      simd.rows[0] = row;
      simd.dots(1);
      return simd.out[0] * this.factor * this.scales[row];
    }
    const dot = this.words !== null ? dotWords(this.query, this.words, row * this.wordCount, this.wordCount) : dotBytes(this.query, this.codes, row * this.dims, this.dims);
    return dot * this.factor * this.scales[row];
  }

  /** Scores rows[0…n) into scores[0…n), four rows per pass where it can. */
  scoreMany(rows: Uint32Array, n: number, scores: Float64Array): void {
    if (this.simd !== null) {
      this.scoreManySimd(this.simd, rows, n, scores);
      return;
    }
    const words = this.words;
    let i = 0;
    if (words !== null) {
      const wc = this.wordCount;
      const four = this.four;
      // Two or three left over are scored as four (the last repeated): still cheaper than singly.
      for (; i + 2 <= n; i += 4) {
        const a = rows[i];
        const b = rows[i + 1];
        const c = i + 2 < n ? rows[i + 2] : b;
        const d = i + 3 < n ? rows[i + 3] : c;
        dotWordsFour(this.query, words, a * wc, b * wc, c * wc, d * wc, wc, four);
        const factor = this.factor;
        const scales = this.scales;
        scores[i] = four[0] * factor * scales[a];
        scores[i + 1] = four[1] * factor * scales[b];
        if (i + 2 < n) scores[i + 2] = four[2] * factor * scales[c];
        if (i + 3 < n) scores[i + 3] = four[3] * factor * scales[d];
      }
    }
    for (; i < n; i++) scores[i] = this.score(rows[i]);
  }

  private scoreManySimd(simd: SimdCodes, rows: Uint32Array, n: number, scores: Float64Array): void {
    const { rows: simdRows, out } = simd;
    const factor = this.factor;
    const scales = this.scales;
    for (let start = 0; start < n; start += SIMD_ROWS_CAPACITY) {
      const length = Math.min(SIMD_ROWS_CAPACITY, n - start);
      for (let i = 0; i < length; i++) simdRows[i] = rows[start + i];
      simd.dots(length);
      for (let i = 0; i < length; i++) scores[start + i] = out[i] * factor * scales[simdRows[i]];
    }
  }

  /** Similarity of two stored rows, code against code (the query is not used). */
  rowPair(a: number, b: number): number {
    const dot = this.words !== null ? dotWordPair(this.words, a * this.wordCount, b * this.wordCount, this.wordCount) : dotBytePair(this.codes, a * this.dims, b * this.dims, this.dims);
    return dot * this.scales[a] * this.scales[b];
  }

  /** Row `row`'s own codes as the query (exact integer similarity between stored vectors). */
  loadRow(row: number): void {
    const base = row * this.dims;
    for (let j = 0; j < this.dims; j++) this.query[j] = this.codes[base + j];
    this.simd?.query.set(this.query);
    this.factor = this.scales[row];
  }

  /**
   * A float query in fixed point: each value within int16 (what the SIMD kernel multiplies) and
   * scaled so no sum can leave int32. The relative error is about 1e-5 of the largest value.
   */
  loadFloat(query: Float32Array): void {
    let sumAbs = 0;
    let maxAbs = 0;
    for (let j = 0; j < this.dims; j++) {
      const value = Math.abs(query[j]);
      sumAbs += value;
      if (value > maxAbs) maxAbs = value;
    }
    if (!Number.isFinite(sumAbs)) throw new Error('HNSW search: the query vector has non-finite values');
    // Every |Σ q·code| ≤ 127 · Σ|q_fixed| ≤ 127 · (fixed · Σ|q| + dims / 2) must stay within int32.
    const room = INT32_MAX / MAX_CODE - this.dims;
    const fixed = sumAbs > 0 ? Math.min(MAX_SIMD_QUERY / maxAbs, room / sumAbs) : 1;
    for (let j = 0; j < this.dims; j++) this.query[j] = Math.round(query[j] * fixed);
    this.simd?.query.set(this.query);
    this.factor = 1 / fixed;
  }
}
