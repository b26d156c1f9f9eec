// CRC-32 as ZIP (and gzip) use it, to check an entry's unpacked bytes: zlib's native crc32
// when this Node has it (20.15+), else a table-driven one. extract/ imports nothing from the
// rest of the project, so this does not share storage/crc32.ts.

import zlib from 'node:zlib';

const POLYNOMIAL = 0xedb88320;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? POLYNOMIAL ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value: number) => number }).crc32;

/** The CRC-32 of some bytes. */
export function crc32(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  if (nativeCrc32 !== undefined) return nativeCrc32(bytes, 0) >>> 0;
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
