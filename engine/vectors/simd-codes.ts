// Int8 codes copied into WebAssembly memory and scored there with 128-bit SIMD (simd-dot.wat):
// about four times faster per row than the JavaScript kernels of hnsw-kernels.ts. WebAssembly
// cannot read a memory-mapped segment, so each thread copies the codes it scores (one byte per
// dimension; the float vectors stay mapped), within a budget per thread: codes beyond it, and
// machines without WebAssembly SIMD, are scored by the JavaScript kernels, with the same results.
//
// The memory of one copy: the query (int16, `stride` values), the row list and the output of a
// call (SIMD_ROWS_CAPACITY each), then the codes, each row `stride` bytes (dims rounded up to 16,
// zero padded). It is sized once and never grows, so the typed views over it stay valid.

import { SIMD_DOT_WASM_BASE64 } from './simd-dot-wasm.ts';

/** Rows scored by one call into WebAssembly. */
export const SIMD_ROWS_CAPACITY = 256;
/** The largest query value: queries are int16 in WebAssembly (and scaled the same for the JavaScript kernels). */
export const MAX_SIMD_QUERY = 32_767;
/** Default bytes of code copies one thread may hold (a million 384-dimension passages take 384 MB). */
export const DEFAULT_SIMD_CODES_BUDGET = 1024 * 1024 * 1024;
/** WebAssembly's 32-bit memories end at 4 GiB. */
const MAX_MEMORY_BYTES = 4 * 1024 * 1024 * 1024 - 65_536;
const PAGE_BYTES = 65_536;

let budgetBytes = DEFAULT_SIMD_CODES_BUDGET;
let usedBytes = 0;
const copies = new FinalizationRegistry<number>((bytes) => {
  usedBytes -= bytes;
});

/** Sets this thread's budget for code copies (0: never copy, always the JavaScript kernels); returns the previous one. */
export function setSimdCodesBudget(bytes: number): number {
  const previous = budgetBytes;
  budgetBytes = Math.max(0, bytes);
  return previous;
}

/** Bytes of code copies this thread holds now (freed copies leave it when collected). */
export function simdCodesBytes(): number {
  return usedBytes;
}

type DotsFunction = (query: number, codes: number, stride: number, rows: number, n: number, out: number) => void;

let compiled: WebAssembly.Module | null | undefined;
/** The kernel, or null where this engine has no WebAssembly SIMD. */
function simdModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(SIMD_DOT_WASM_BASE64, 'base64');
    compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  }
  return compiled;
}

/** Whether this engine runs the SIMD kernel at all. */
export function simdAvailable(): boolean {
  return simdModule() !== null;
}

const align = (offset: number, to: number): number => Math.ceil(offset / to) * to;

/** One thread's copy of a codes array in WebAssembly memory, with the scratch of its calls. */
export class SimdCodes {
  /** The query, int16, `stride` values (zero past dims): write it before calling dots. */
  readonly query: Int16Array;
  /** Row numbers for dots: rows[0…n). */
  readonly rows: Uint32Array;
  /** dots' results: out[i] = Σ query·codes of rows[i]. */
  readonly out: Int32Array;
  private readonly dotsFunction: DotsFunction;
  private readonly queryAt: number;
  private readonly rowsAt: number;
  private readonly outAt: number;
  private readonly codesAt: number;
  private bytes = 0;

  private constructor(
    memory: WebAssembly.Memory,
    module: WebAssembly.Module,
    private readonly stride: number,
    layout: { queryAt: number; rowsAt: number; outAt: number; codesAt: number },
  ) {
    const instance = new WebAssembly.Instance(module, { folio: { memory } });
    this.dotsFunction = instance.exports.dots as DotsFunction;
    ({ queryAt: this.queryAt, rowsAt: this.rowsAt, outAt: this.outAt, codesAt: this.codesAt } = layout);
    this.query = new Int16Array(memory.buffer, this.queryAt, stride);
    this.rows = new Uint32Array(memory.buffer, this.rowsAt, SIMD_ROWS_CAPACITY);
    this.out = new Int32Array(memory.buffer, this.outAt, SIMD_ROWS_CAPACITY);
  }

  /**
   * A copy of `codes` (rows of `dims`), or null: no SIMD here, the budget is spent, or the
   * copy would not fit a WebAssembly memory. The copy counts against the budget until collected.
   */
  static copy(codes: Int8Array, dims: number): SimdCodes | null {
    const module = simdModule();
    if (module === null || dims < 1) return null;
    const count = Math.floor(codes.length / dims);
    const stride = align(dims, 16);
    const queryAt = 0;
    const rowsAt = align(queryAt + stride * 2, 64);
    const outAt = rowsAt + SIMD_ROWS_CAPACITY * 4;
    const codesAt = align(outAt + SIMD_ROWS_CAPACITY * 4, 64);
    const bytes = align(codesAt + count * stride, PAGE_BYTES);
    if (bytes > MAX_MEMORY_BYTES || usedBytes + bytes > budgetBytes) return null;
    let memory: WebAssembly.Memory;
    try {
      memory = new WebAssembly.Memory({ initial: bytes / PAGE_BYTES, maximum: bytes / PAGE_BYTES });
    } catch {
      return null; // the engine refused the memory: the JavaScript kernels still work
    }
    const target = new Int8Array(memory.buffer, codesAt, count * stride);
    if (stride === dims) target.set(codes.subarray(0, count * dims));
    else for (let row = 0; row < count; row++) target.set(codes.subarray(row * dims, (row + 1) * dims), row * stride);
    const simd = new SimdCodes(memory, module, stride, { queryAt, rowsAt, outAt, codesAt });
    simd.bytes = bytes;
    usedBytes += bytes;
    copies.register(simd, bytes, simd);
    return simd;
  }

  /**
   * Gives the copy's bytes back to the budget now rather than when collected (a graph build's
   * copy, done with at the end of the build). The copy must not be used afterwards.
   */
  release(): void {
    if (this.bytes === 0) return;
    copies.unregister(this);
    usedBytes -= this.bytes;
    this.bytes = 0;
  }

  /** out[i] = Σ query·codes of row rows[i], for i < n ≤ SIMD_ROWS_CAPACITY. */
  dots(n: number): void {
    this.dotsFunction(this.queryAt, this.codesAt, this.stride, this.rowsAt, n, this.outAt);
  }
}
