// The LZ4 block format (lz4.org's lz4_Block_format.md) in plain JavaScript: the stored blocks'
// compressor, and their decoder where the native one (lz4-napi) cannot load (tests check each
// against the other). A block is sequences of a token (literal length, match length − 4),
// literals and a 16-bit offset back into the output; the last 5 bytes are literals, and no match
// starts in the last 12. The compressor is LZ4's fast greedy one: a hash of each 4-byte sequence
// finds an earlier one, the match is stretched both ways, and a search that keeps missing steps
// further (LZ4's acceleration), so text that does not compress costs little.

const MIN_MATCH = 4;
const LAST_LITERALS = 5;
const MATCH_FIND_LIMIT = 12;
const MAX_OFFSET = 65_535;
const HASH_LOG = 12;
const RUN_MASK = 15;
const RUN_EXTENSION = 255;
/** LZ4's acceleration: after 2^SKIP_TRIGGER positions without a match, the search steps 2, then 3… */
const SKIP_TRIGGER = 6;

/**
 * Positions of 4-byte sequences by hash, shared by every call: each block's positions are
 * offset by a base that grows past every earlier block's, so entries of earlier blocks read as
 * negative and the table is never cleared between blocks.
 */
const table = new Int32Array(1 << HASH_LOG);
let tableBase = 1;

/** The largest compressed size of `length` input bytes. */
export function lz4CompressBound(length: number): number {
  return length + Math.floor(length / RUN_EXTENSION) + 16;
}

function read32(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
}

/** Writes a length past RUN_MASK as LZ4 does: 255s, then the rest. Returns the next offset. */
function writeRunExtension(out: Uint8Array, at: number, rest: number): number {
  while (rest >= RUN_EXTENSION) {
    out[at++] = RUN_EXTENSION;
    rest -= RUN_EXTENSION;
  }
  out[at++] = rest;
  return at;
}

/** Compresses `input` into `out` (at least lz4CompressBound(input.length) bytes); returns the block's length. */
export function lz4CompressBlock(input: Uint8Array, out: Uint8Array): number {
  const length = input.length;
  if (tableBase > 0x3fffffff - length) {
    table.fill(0);
    tableBase = 1;
  }
  const base = tableBase;
  tableBase += length + 1;
  let op = 0;
  let anchor = 0;
  let ip = 0;
  const limit = length - MATCH_FIND_LIMIT;
  const matchLimit = length - LAST_LITERALS;
  let misses = 1 << SKIP_TRIGGER;
  while (ip < limit) {
    const sequence = read32(input, ip);
    const hash = Math.imul(sequence, -1640531535) >>> (32 - HASH_LOG);
    let ref = table[hash] - base;
    table[hash] = ip + base;
    if (ref < 0 || ip - ref > MAX_OFFSET || read32(input, ref) !== sequence) {
      ip += misses++ >>> SKIP_TRIGGER;
      continue;
    }
    misses = 1 << SKIP_TRIGGER;
    let start = ip;
    while (start > anchor && ref > 0 && input[start - 1] === input[ref - 1]) {
      start--;
      ref--;
    }
    let end = start + MIN_MATCH;
    let from = ref + MIN_MATCH;
    while (end < matchLimit && input[end] === input[from]) {
      end++;
      from++;
    }
    const literals = start - anchor;
    const matchExtra = end - start - MIN_MATCH;
    const tokenAt = op++;
    let token: number;
    if (literals >= RUN_MASK) {
      token = RUN_MASK << 4;
      op = writeRunExtension(out, op, literals - RUN_MASK);
    } else {
      token = literals << 4;
    }
    if (literals > 32) out.set(input.subarray(anchor, start), op);
    else for (let i = 0; i < literals; i++) out[op + i] = input[anchor + i];
    op += literals;
    const offset = start - ref;
    out[op++] = offset & 0xff;
    out[op++] = offset >>> 8;
    if (matchExtra >= RUN_MASK) {
      token |= RUN_MASK;
      op = writeRunExtension(out, op, matchExtra - RUN_MASK);
    } else {
      token |= matchExtra;
    }
    out[tokenAt] = token;
    ip = anchor = end;
  }
  const literals = length - anchor;
  if (literals >= RUN_MASK) {
    out[op++] = RUN_MASK << 4;
    op = writeRunExtension(out, op, literals - RUN_MASK);
  } else {
    out[op++] = literals << 4;
  }
  out.set(input.subarray(anchor), op);
  return op + literals;
}

/** Decompresses the block in input[from, to) into `out` (its exact size); throws on a malformed block. */
export function lz4DecompressBlock(input: Uint8Array, from: number, to: number, out: Uint8Array): void {
  let ip = from;
  let op = 0;
  for (;;) {
    if (ip >= to) throw new RangeError('LZ4 block ends without its last literals');
    const token = input[ip++];
    let literals = token >>> 4;
    if (literals === RUN_MASK) {
      let more: number;
      do {
        more = input[ip++];
        literals += more;
      } while (more === RUN_EXTENSION && ip < to);
    }
    if (ip + literals > to || op + literals > out.length) throw new RangeError('LZ4 literals run past the block');
    if (literals > 16) out.set(input.subarray(ip, ip + literals), op);
    else for (let i = 0; i < literals; i++) out[op + i] = input[ip + i];
    ip += literals;
    op += literals;
    if (ip === to) {
      if (op !== out.length) throw new RangeError(`LZ4 block holds ${op} bytes, not ${out.length}`);
      return;
    }
    const offset = input[ip] | (input[ip + 1] << 8);
    ip += 2;
    let match = token & RUN_MASK;
    if (match === RUN_MASK) {
      let more: number;
      do {
        more = input[ip++];
        match += more;
      } while (more === RUN_EXTENSION && ip < to);
    }
    match += MIN_MATCH;
    let ref = op - offset;
    if (offset === 0 || ref < 0 || op + match > out.length) throw new RangeError('LZ4 match out of range');
    if (offset >= match && match > 32) {
      out.copyWithin(op, ref, ref + match);
      op += match;
    } else {
      const end = op + match;
      while (op < end) out[op++] = out[ref++];
    }
  }
}
