// How the bytes of an append log split into records: the RecordFraming interface each log
// format implements (the WAL's length + CRC frames in wal-frame.ts, NDJSON lines in
// line-framing.ts), and the one scanner that reads a log file back through a framing, in
// bounded chunks, and tells a torn tail (a crash mid-append) from damage.
//
// Not here: what a torn tail or damage means for a caller (cut off, or CorruptFileError): see
// AppendLog.replay in append-log.ts.

import fs from 'node:fs';

/** How much of a log is read (at replay) or written (at a rewrite) at a time. */
export const LOG_CHUNK_BYTES = 1024 * 1024;

/** What a framing found at the start of some bytes. */
export type DecodedRecord<R> =
  /** One whole record, `size` bytes long (at least 1), including its framing. */
  | { kind: 'record'; record: R; size: number }
  /**
   * Not enough bytes to tell: at least `need` bytes (from the record's start) are needed.
   * `checked`: how many of the given bytes are known not to end the record, passed back as
   * `resumeAt` once more bytes are there (so a long record is not searched again from its start).
   */
  | { kind: 'partial'; need: number; checked?: number }
  /** Not a record. `size`: how long the bad record claims to be, when it says. */
  | { kind: 'damage'; problem: string; size?: number };

/** A log's record format. Implementations hold no state between calls. */
export interface RecordFraming<R> {
  /** The bytes of one record as appended (throws RangeError for a record it cannot frame). */
  encode(record: R): Uint8Array;
  /**
   * Reads the record at the start of `bytes` (more may follow it). A returned record must not
   * share memory with `bytes`, which the scanner reuses.
   */
  decode(bytes: Uint8Array, resumeAt: number): DecodedRecord<R>;
}

/** What a scan of one log file found. */
export interface LogScan {
  /** Bytes up to the end of the last whole record. */
  validLength: number;
  /** Null when the file is whole; else why the bytes after `validLength` are bad. */
  problem: string | null;
  /**
   * True when the bad bytes look like an append cut short by a crash: a record running past
   * the end of the file, or nothing but zeros to the end. A whole record with a bad checksum is
   * damage even when it is the last one: the file's length grows only once an append's bytes
   * are written (issue 18: flipping the WAL's last byte lost an acknowledged write silently).
   */
  tornTail: boolean;
}

/**
 * Reads every record of the log at `path` through `framing`, in order, stopping at the first
 * bad one. Memory stays bounded by about twice the larger of `chunkBytes` and the longest
 * record. A missing file is an empty log.
 */
export function scanRecords<R>(
  path: string,
  framing: RecordFraming<R>,
  onRecord: (record: R) => void,
  chunkBytes = LOG_CHUNK_BYTES,
): LogScan {
  let fd: number;
  try {
    fd = fs.openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { validLength: 0, problem: null, tornTail: false };
    throw error;
  }
  try {
    const fileLength = fs.fstatSync(fd).size;
    let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, fileLength)));
    /** File offset of buffer[0]; the current record starts at buffer[start]; buffer[end] is not read yet. */
    let base = 0;
    let start = 0;
    let end = 0;
    let resumeAt = 0;
    for (;;) {
      const pos = base + start;
      if (pos === fileLength) return { validLength: pos, problem: null, tornTail: false };
      const decoded = framing.decode(buffer.subarray(start, end), resumeAt);
      if (decoded.kind === 'record') {
        onRecord(decoded.record);
        start += decoded.size;
        resumeAt = 0;
        continue;
      }
      if (decoded.kind === 'damage') {
        return { validLength: pos, problem: `${decoded.problem} at byte ${pos}`, tornTail: zerosToEnd(fd, pos, fileLength, chunkBytes) };
      }
      if (pos + decoded.need > fileLength) {
        return { validLength: pos, problem: `record at byte ${pos} runs past the end of the file`, tornTail: true };
      }
      if (decoded.need <= end - start) throw new Error(`framing asked for ${decoded.need} bytes at byte ${pos} but had them`);
      resumeAt = decoded.checked ?? 0;
      // Read on: at least what the framing needs, and at least a chunk more than held.
      const held = end - start;
      const want = Math.min(fileLength - pos, Math.max(decoded.need, held + chunkBytes));
      if (start + want > buffer.length) {
        const next = want > buffer.length ? Buffer.allocUnsafe(Math.min(fileLength - pos, Math.max(want, 2 * buffer.length))) : buffer;
        buffer.copy(next, 0, start, end);
        buffer = next;
        base += start;
        start = 0;
        end = held;
      }
      while (end - start < want) {
        const read = fs.readSync(fd, buffer, end, start + want - end, base + end);
        if (read === 0) throw new Error(`${path} shrank while it was read`);
        end += read;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** True when the file holds nothing but zero bytes from `from` to `fileLength`. */
function zerosToEnd(fd: number, from: number, fileLength: number, chunkBytes: number): boolean {
  const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, fileLength - from)));
  for (let pos = from; pos < fileLength; ) {
    const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, fileLength - pos), pos);
    if (read === 0) return false;
    for (let i = 0; i < read; i++) if (chunk[i] !== 0) return false;
    pos += read;
  }
  return true;
}
