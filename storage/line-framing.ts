// NDJSON-style line framing for an append log: each record is one line of UTF-8 text ended
// by '\n' (the webhook outbox's format). A last line without its '\n' is a torn tail; no
// other bytes are damage at this level (whether a line parses is the log owner's business).

import type { DecodedRecord, RecordFraming } from './record-framing.ts';

const NEWLINE = 0x0a;

export const LINE_FRAMING: RecordFraming<string> = {
  encode(line: string): Uint8Array {
    if (line.includes('\n')) throw new RangeError('a log line may not contain a newline');
    return Buffer.from(`${line}\n`, 'utf8');
  },

  decode(bytes: Uint8Array, resumeAt: number): DecodedRecord<string> {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = buffer.indexOf(NEWLINE, resumeAt);
    if (end === -1) return { kind: 'partial', need: buffer.length + 1, checked: buffer.length };
    return { kind: 'record', record: buffer.toString('utf8', 0, end), size: end + 1 };
  },
};
