// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum every storage file
// carries. zlib's native crc32 when this Node has it (20.15+), else a table-driven one (it is
// missing from earlier Node 20 releases); both give the same values.

import zlib from 'node:zlib';

const IEEE_POLYNOMIAL = 0xedb88320;
const TABLE_SIZE = 256;
const ALL_ONES = 0xffffffff;

const TABLE: Uint32Array = buildTable();

function buildTable(): Uint32Array {
  const table = new Uint32Array(TABLE_SIZE);
  for (let n = 0; n < TABLE_SIZE; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? IEEE_POLYNOMIAL ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/**
 * CRC-32 of `data`. Pass a previous result as `seed` to continue a checksum over
 * several chunks: `crc32(b, crc32(a)) === crc32(concat(a, b))`.
 */
export function crc32(data: Uint8Array, seed = 0): number {
  // Nothing to add: the checksum so far (some native builds have answered 0 here).
  if (data.byteLength === 0) return seed >>> 0;
  return nativeCrc32 !== undefined ? nativeCrc32(data, seed) : tableCrc32(data, seed);
}

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value: number) => number }).crc32;

/** The portable implementation (exported for the test that compares both). */
export function tableCrc32(data: Uint8Array, seed = 0): number {
  let crc = (seed ^ ALL_ONES) >>> 0;
  for (let i = 0; i < data.length; i++) crc = TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ ALL_ONES) >>> 0;
}
