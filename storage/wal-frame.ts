// The write-ahead log's on-disk pieces: file names (`wal-<generation, 10 digits>.log`) and
// record framing (u32 payload length, u32 crc32 of the payload, payload; little-endian), plus
// the scanner that reads frames back and tells a torn tail (crash mid-write) from damage.

import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from './crc32.ts';

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

/** Frames one record for appending. */
export function encodeWalFrame(record: Uint8Array): Uint8Array {
  const frame = new Uint8Array(WAL_FRAME_HEADER_BYTES + record.length);
  const view = new DataView(frame.buffer);
  view.setUint32(0, record.length, true);
  view.setUint32(4, crc32(record), true);
  frame.set(record, WAL_FRAME_HEADER_BYTES);
  return frame;
}

/** What a scan of one file found. */
export interface WalScan {
  /** Payloads of the valid records, in order (views into `data`). */
  records: Uint8Array[];
  /** Bytes up to the end of the last valid record. */
  validLength: number;
  /** Null when the file is whole; else why the bytes after `validLength` are bad. */
  problem: string | null;
  /**
   * True when the bad bytes look like a write cut short by a crash: a frame running past the
   * end of the file, a failed final frame, or nothing but zeros to the end.
   */
  tornTail: boolean;
}

function allZero(data: Uint8Array, from: number): boolean {
  for (let i = from; i < data.length; i++) if (data[i] !== 0) return false;
  return true;
}

/** Reads every frame of a WAL file's bytes, stopping at the first bad one. */
export function scanWalFrames(data: Uint8Array): WalScan {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const records: Uint8Array[] = [];
  let pos = 0;
  while (pos < data.length) {
    const bad = (problem: string, tornTail: boolean): WalScan => ({
      records,
      validLength: pos,
      problem,
      tornTail: tornTail || allZero(data, pos),
    });
    if (pos + WAL_FRAME_HEADER_BYTES > data.length) return bad(`partial record header at byte ${pos}`, true);
    const length = view.getUint32(pos, true);
    const checksum = view.getUint32(pos + 4, true);
    if (length === 0 || length > WAL_MAX_RECORD_BYTES) return bad(`invalid record length ${length} at byte ${pos}`, false);
    const end = pos + WAL_FRAME_HEADER_BYTES + length;
    if (end > data.length) return bad(`record at byte ${pos} runs past the end of the file`, true);
    const payload = data.subarray(pos + WAL_FRAME_HEADER_BYTES, end);
    if (crc32(payload) !== checksum) return bad(`checksum mismatch in record at byte ${pos}`, end === data.length);
    records.push(payload);
    pos = end;
  }
  return { records, validLength: pos, problem: null, tornTail: false };
}
