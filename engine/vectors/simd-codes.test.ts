// The WebAssembly SIMD kernel: the checked-in bytes match simd-dot.wat, its dot products equal
// the JavaScript kernels' for any dims (padded rows, odd row counts, extreme codes and query
// values), a scorer with a copy scores exactly as one without, the per-thread budget is kept
// (beyond it the JavaScript kernels take over; a build returns its copy), and a graph gives the
// same results either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { SIMD_DOT_WASM_PATH, SIMD_DOT_WAT_PATH, compileSimdDot } from '../../scripts/generate-wasm.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { buildHnswGraph, searchHnswGraph } from './hnsw-graph.ts';
import { RowScorer } from './hnsw-kernels.ts';
import { normalizeVector, quantizeInto } from './quantization.ts';
import { MAX_SIMD_QUERY, SIMD_ROWS_CAPACITY, SimdCodes, setSimdCodesBudget, simdAvailable, simdCodesBytes } from './simd-codes.ts';

const simdSkip = simdAvailable() ? false : 'this JavaScript engine has no WebAssembly SIMD (the JavaScript kernels are used)';

function randomCodes(count: number, dims: number, seed: number): { codes: Int8Array; scales: Float32Array } {
  const random = seededRandom(seed);
  const codes = new Int8Array(count * dims);
  for (let i = 0; i < codes.length; i++) codes[i] = Math.round(random() * 254) - 127;
  const scales = Float32Array.from({ length: count }, () => 0.001 + random() * 0.01);
  return { codes, scales };
}

test('the checked-in kernel is simd-dot.wat compiled (regenerate with npm run generate:wasm)', async () => {
  const expected = await compileSimdDot(await readFile(SIMD_DOT_WAT_PATH, 'utf8'));
  assert.equal(await readFile(SIMD_DOT_WASM_PATH, 'utf8'), expected);
});

test('SIMD dot products equal exact integer sums for any dims, with extreme values', { skip: simdSkip }, () => {
  for (const dims of [1, 7, 16, 33, 384, 512, 1000]) {
    const count = 41;
    const { codes } = randomCodes(count, dims, dims);
    codes.fill(-127, 0, dims); // row 0 all -127, row 1 all 127: the largest sums
    codes.fill(127, dims, 2 * dims);
    const simd = SimdCodes.copy(codes, dims);
    assert.ok(simd, `a copy for ${dims} dims`);
    const random = seededRandom(dims + 1);
    const query = Int16Array.from({ length: dims }, (_, j) => (j % 5 === 0 ? -MAX_SIMD_QUERY : Math.round((random() * 2 - 1) * MAX_SIMD_QUERY)));
    simd.query.set(query);
    const rows = Array.from({ length: count }, (_, i) => (i * 17) % count); // every row, out of order, an odd count
    simd.rows.set(rows);
    simd.dots(count);
    rows.forEach((row, i) => {
      let exact = 0;
      for (let j = 0; j < dims; j++) exact += query[j] * codes[row * dims + j];
      if (Math.abs(exact) <= 0x7fffffff) assert.equal(simd.out[i], exact, `dims ${dims}, row ${row}`);
    });
  }
});

test('a scorer with a SIMD copy scores exactly as the JavaScript kernels, for float queries and stored rows', { skip: simdSkip }, () => {
  for (const dims of [12, 384, 100]) {
    const count = SIMD_ROWS_CAPACITY + 37; // scoreMany splits into calls of SIMD_ROWS_CAPACITY rows
    const { codes, scales } = randomCodes(count, dims, 5 + dims);
    const withSimd = new RowScorer(codes, scales, dims);
    const withoutSimd = new RowScorer(codes, scales, dims, false);
    assert.equal(withSimd.usesSimd, true);
    assert.equal(withoutSimd.usesSimd, false);
    const random = seededRandom(dims);
    const rows = Uint32Array.from({ length: count }, () => Math.floor(random() * count));
    const a = new Float64Array(count);
    const b = new Float64Array(count);
    const query = normalizeVector(Array.from({ length: dims }, () => random() * 2 - 1));
    withSimd.loadFloat(query);
    withoutSimd.loadFloat(query);
    withSimd.scoreMany(rows, count, a);
    withoutSimd.scoreMany(rows, count, b);
    assert.deepEqual(a, b);
    assert.equal(withSimd.score(rows[3]), withoutSimd.score(rows[3]));
    withSimd.loadRow(9);
    withoutSimd.loadRow(9);
    withSimd.scoreMany(rows, 5, a);
    withoutSimd.scoreMany(rows, 5, b);
    assert.deepEqual(a.subarray(0, 5), b.subarray(0, 5));
  }
});

test('copies stay within the thread budget; beyond it scorers use the JavaScript kernels', { skip: simdSkip }, () => {
  const { codes, scales } = randomCodes(2000, 64, 3);
  const previous = setSimdCodesBudget(simdCodesBytes() + 200_000); // room for one copy of 128 KB, not two
  try {
    const first = new RowScorer(codes, scales, 64);
    const second = new RowScorer(codes, scales, 64);
    assert.equal(first.usesSimd, true);
    assert.equal(second.usesSimd, false);
    setSimdCodesBudget(0);
    assert.equal(new RowScorer(codes, scales, 64).usesSimd, false);
  } finally {
    setSimdCodesBudget(previous);
  }
});

test('a graph build gives its copy back to the budget when it ends', { skip: simdSkip }, () => {
  const dims = 32;
  const count = 500;
  const { codes, scales } = randomCodes(count, dims, 21);
  const before = simdCodesBytes();
  buildHnswGraph({ dims, count, codes, scales }, { m: 8, efConstruction: 20, seed: 3 });
  assert.equal(simdCodesBytes(), before);
});

test('a graph built and searched with SIMD gives the results it gives without', () => {
  const dims = 48;
  const random = seededRandom(11);
  const count = 3000;
  const codes = new Int8Array(count * dims);
  const scales = new Float32Array(count);
  for (let row = 0; row < count; row++) quantizeInto(normalizeVector(Array.from({ length: dims }, () => random() * 2 - 1)), codes, scales, row);
  const queries = Array.from({ length: 20 }, () => normalizeVector(Array.from({ length: dims }, () => random() * 2 - 1)));
  const run = (): string => {
    // Fresh arrays each time: scorers are cached per codes array.
    const vectors = { dims, count, codes: codes.slice(), scales: scales.slice() };
    const graph = buildHnswGraph(vectors, { m: 8, efConstruction: 40, seed: 1 });
    return JSON.stringify(queries.map((query) => Array.from(searchHnswGraph(graph, vectors, query, 10, 32, null).nodes)));
  };
  const simd = run();
  const previous = setSimdCodesBudget(0);
  try {
    assert.equal(run(), simd);
  } finally {
    setSimdCodesBudget(previous);
  }
});
