// Decoders of one whole packed block (BLOCK_SIZE values, the layout of bit-packing.ts), one per
// bit width, with every shift and mask a constant: Lucene's ForUtil does the same from a
// generated source file. A width's decoder is generated when a block of that width is first
// decoded; each reads the block's words once through a DataView (unaligned little-endian
// loads) and has no branch per value. A block of doc gaps is turned into doc numbers in the same
// pass: several times faster than the general loop of `unpackBlock` on 128 values
// (benchmarks/block-decode.ts). Where the runtime forbids code from strings, the general loop is
// used.

import { BLOCK_SIZE, packedByteLength, unpackBlock } from './bit-packing.ts';

/** Decodes a block of `bits`-bit values at `offset` into `out`. */
type ValuesDecoder = (view: DataView, offset: number, out: Uint32Array) => void;
/** Decodes a block of gaps at `offset` into `out` as doc numbers after `base`; returns the last. */
type GapsDecoder = (view: DataView, offset: number, out: Uint32Array, base: number) => number;

const valuesDecoders: (ValuesDecoder | undefined)[] = new Array(33);
const gapsDecoders: (GapsDecoder | undefined)[] = new Array(33);

/** The expression of the `index`-th `bits`-bit value, from the words `w0…` already read. */
function valueExpression(index: number, bits: number): string {
  const bit = index * bits;
  const word = bit >>> 5;
  const shift = bit & 31;
  const mask = bits === 32 ? 0xffffffff : 2 ** bits - 1;
  if (shift + bits < 32) return `((w${word} >>> ${shift}) & ${mask})`;
  if (shift + bits === 32) return `(w${word} >>> ${shift})`;
  return `(((w${word} >>> ${shift}) | (w${word + 1} << ${32 - shift})) & ${mask})`;
}

function wordReads(bits: number): string {
  let source = '';
  for (let word = 0; word < (BLOCK_SIZE * bits) / 32; word++) source += `const w${word} = view.getUint32(offset + ${word * 4}, true);\n`;
  return source;
}

function generateValuesDecoder(bits: number): ValuesDecoder {
  let source = wordReads(bits);
  for (let i = 0; i < BLOCK_SIZE; i++) source += `out[${i}] = ${valueExpression(i, bits)};\n`;
  return new Function('view', 'offset', 'out', source) as ValuesDecoder;
}

function generateGapsDecoder(bits: number): GapsDecoder {
  let source = `${wordReads(bits)}let doc = base;\n`;
  for (let i = 0; i < BLOCK_SIZE; i++) source += `doc = doc + ${valueExpression(i, bits)} + 1;\nout[${i}] = doc;\n`;
  return new Function('view', 'offset', 'out', 'base', `${source}return doc;\n`) as GapsDecoder;
}

/** The general loop, as a decoder of any width (the fallback where code generation is not allowed). */
function loopValuesDecoder(bits: number): ValuesDecoder {
  return (view, offset, out) => {
    unpackBlock(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), offset, BLOCK_SIZE, bits, out);
  };
}

function loopGapsDecoder(bits: number): GapsDecoder {
  const values = loopValuesDecoder(bits);
  return (view, offset, out, base) => {
    values(view, offset, out);
    let doc = base;
    for (let i = 0; i < BLOCK_SIZE; i++) {
      doc += out[i] + 1;
      out[i] = doc;
    }
    return doc;
  };
}

let codeFromStrings = true;

/** The decoder of `bits` kept in `decoders`: generated the first time, or the loop where code from strings is forbidden. */
function decoderFor<Decoder>(decoders: (Decoder | undefined)[], bits: number, generate: (bits: number) => Decoder, loop: (bits: number) => Decoder): Decoder {
  let decoder = decoders[bits];
  if (decoder === undefined) {
    decoder = loop(bits);
    if (codeFromStrings) {
      try {
        decoder = generate(bits);
      } catch {
        codeFromStrings = false;
      }
    }
    decoders[bits] = decoder;
  }
  return decoder;
}

/**
 * Reads a whole block (BLOCK_SIZE values of `bits` bits, as `packBlock` wrote them) at `offset`
 * of `view` into `out`. Returns the offset just past the block.
 */
export function unpackWholeBlock(view: DataView, offset: number, bits: number, out: Uint32Array): number {
  if (bits === 0) {
    out.fill(0, 0, BLOCK_SIZE);
    return offset;
  }
  decoderFor(valuesDecoders, bits, generateValuesDecoder, loopValuesDecoder)(view, offset, out);
  return offset + packedByteLength(BLOCK_SIZE, bits);
}

/**
 * Reads a whole block of doc gaps (each the distance to the previous doc, less one) at `offset`
 * into `out` as doc numbers, the first after `base`. Returns the offset just past the block.
 */
export function unpackWholeBlockOfGaps(view: DataView, offset: number, bits: number, out: Uint32Array, base: number): number {
  if (bits === 0) {
    for (let i = 0; i < BLOCK_SIZE; i++) out[i] = base + i + 1;
    return offset;
  }
  decoderFor(gapsDecoders, bits, generateGapsDecoder, loopGapsDecoder)(view, offset, out, base);
  return offset + packedByteLength(BLOCK_SIZE, bits);
}
