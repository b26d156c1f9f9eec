// The write-ahead log's on-disk pieces: file names (`wal-<generation, 10 digits>.log`) and
// record framing (u32 payload length, u32 crc32 of the payload, payload; little-endian) as a
// RecordFraming for the append log, which reads frames back and tells a torn tail (crash
// mid-write: a frame running past the end, a bad final frame, zeros to the end) from damage.

import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from './crc32.ts';
import type { DecodedRecord, RecordFraming } from './record-framing.ts';

/** Bytes before each payload: length and checksum. */
export const WAL_FRAME_HEADER_BYTES = 8;
/** Largest record accepted; a larger declared length can only be damage. */
export const WAL_MAX_RECORD_BYTES = 1 << 30;
const GENERATION_DIGITS = 10;
const FILE_PATTERN = /^wal-(\d{10})\.log$/;

export function walFileName(generation: number): string {
  return `wal-${String(generation).padStart(GENERATION_DIGITS, '0')}.log`;
}

/** Generations of the WAL files in `dir`, ascending (an absent directory has none). */
export function listWalGenerations(dir: string): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const generations: number[] = [];
  for (const name of names) {
    const match = FILE_PATTERN.exec(name);
    if (match) generations.push(Number(match[1]));
  }
  return generations.sort((a, b) => a - b);
}

export function walFilePath(dir: string, generation: number): string {
  return path.join(dir, walFileName(generation));
}

/** Frames one record for appending (RangeError for an empty or too large one). */
export function encodeWalFrame(record: Uint8Array): Uint8Array {
  if (record.length === 0) throw new RangeError('a WAL record may not be empty');
  if (record.length > WAL_MAX_RECORD_BYTES) throw new RangeError(`a WAL record may hold at most ${WAL_MAX_RECORD_BYTES} bytes`);
  const frame = new Uint8Array(WAL_FRAME_HEADER_BYTES + record.length);
  const view = new DataView(frame.buffer);
  view.setUint32(0, record.length, true);
  view.setUint32(4, crc32(record), true);
  frame.set(record, WAL_FRAME_HEADER_BYTES);
  return frame;
}

/** The WAL's framing for the append log: payloads out, copied (a Buffer each). */
export const WAL_FRAMING: RecordFraming<Uint8Array> = {
  encode: encodeWalFrame,

  decode(bytes: Uint8Array): DecodedRecord<Uint8Array> {
    if (bytes.length < WAL_FRAME_HEADER_BYTES) return { kind: 'partial', need: WAL_FRAME_HEADER_BYTES };
    const view = new DataView(bytes.buffer, bytes.byteOffset, WAL_FRAME_HEADER_BYTES);
    const length = view.getUint32(0, true);
    const checksum = view.getUint32(4, true);
    if (length === 0 || length > WAL_MAX_RECORD_BYTES) return { kind: 'damage', problem: `invalid record length ${length}` };
    const size = WAL_FRAME_HEADER_BYTES + length;
    if (bytes.length < size) return { kind: 'partial', need: size };
    const payload = bytes.subarray(WAL_FRAME_HEADER_BYTES, size);
    if (crc32(payload) !== checksum) return { kind: 'damage', problem: 'checksum mismatch in record', size };
    return { kind: 'record', record: Buffer.from(payload), size };
  },
};
