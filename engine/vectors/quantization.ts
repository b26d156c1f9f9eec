// Vectors as the vector index keeps them: L2-normalised (so cosine similarity is a dot product),
// then quantised to int8 with one scale per vector (code = round(v / scale), scale = max|v| / 127).
// The scan and the graph score int8 codes against a float query; the float vectors are kept
// beside them to rescore the best candidates exactly.

/** The vector scaled to unit length, as float32 (a zero vector stays zero). */
export function normalizeVector(values: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] * values[i];
  const inverse = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i] * inverse;
  return out;
}

/** Quantises row `row` of `codes`/`scales` from a normalised vector. */
export function quantizeInto(vector: Float32Array, codes: Int8Array, scales: Float32Array, row: number): void {
  const dims = vector.length;
  let maxAbs = 0;
  for (let i = 0; i < dims; i++) maxAbs = Math.max(maxAbs, Math.abs(vector[i]));
  const scale = maxAbs > 0 ? maxAbs / 127 : 1;
  const base = row * dims;
  for (let i = 0; i < dims; i++) codes[base + i] = Math.round(vector[i] / scale);
  scales[row] = scale;
}

/** Σ query[j] · codes[base + j] over the query's dimensions, in float arithmetic (four sums at once). */
export function codesDot(query: Float32Array, codes: Int8Array, base: number): number {
  const dims = query.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 4 <= dims; i += 4) {
    s0 += query[i] * codes[base + i];
    s1 += query[i + 1] * codes[base + i + 1];
    s2 += query[i + 2] * codes[base + i + 2];
    s3 += query[i + 3] * codes[base + i + 3];
  }
  for (; i < dims; i++) s0 += query[i] * codes[base + i];
  return s0 + s1 + s2 + s3;
}

/** Exact dot product of a float query with float row `row`. */
export function floatDot(query: Float32Array, vectors: Float32Array, row: number): number {
  const dims = query.length;
  const base = row * dims;
  let sum = 0;
  for (let i = 0; i < dims; i++) sum += query[i] * vectors[base + i];
  return sum;
}
