// The records a collection writes to its write-ahead log: one per write request.
//  - A batch body (NDJSON or a JSON array) is logged as the bytes it came as, behind a short header:
//    0xC1 (a byte MessagePack never uses), u32 LE header length, the header as JSON
//    ({ op: 'upsert-body', format, indexedAt }), then the body. Replay parses the body again.
//  - Any other write — whole documents (single JSON documents, PATCHes, extracted files) or a
//    delete of ids — is encoded with MessagePack (plain, no shared record structures, so each
//    record decodes on its own).

import { pack, unpack } from 'msgpackr';
import type { IndexDocument } from '../../engine/index.ts';
import { parseBatchBody } from '../ingest/index.ts';
import type { BatchBody, BatchFormat } from '../ingest/index.ts';

export type WalRecord =
  | { op: 'upsert'; docs: IndexDocument[] }
  | { op: 'upsert-body'; body: BatchBody; indexedAt: string }
  | { op: 'delete'; ids: string[] };

/** First byte of a body record; MessagePack never writes it, so it tells the two kinds apart. */
const BODY_RECORD_MARKER = 0xc1;
const BODY_HEADER_START = 5;
const BATCH_FORMATS: readonly BatchFormat[] = ['ndjson', 'json-array'];

/** A WAL record that passed its checksum but is not a record this code wrote. */
export class InvalidWalRecordError extends Error {
  constructor(reason: string) {
    super(`invalid write-ahead log record: ${reason}`);
    this.name = 'InvalidWalRecordError';
  }
}

export function encodeWalRecord(record: WalRecord): Uint8Array {
  if (record.op !== 'upsert-body') return pack(record);
  const { body, indexedAt } = record;
  const header = Buffer.from(JSON.stringify({ op: record.op, format: body.format, indexedAt }), 'utf8');
  const bytes = Buffer.allocUnsafe(BODY_HEADER_START + header.length + body.bytes.length);
  bytes[0] = BODY_RECORD_MARKER;
  bytes.writeUInt32LE(header.length, 1);
  header.copy(bytes, BODY_HEADER_START);
  bytes.set(body.bytes, BODY_HEADER_START + header.length);
  return bytes;
}

function isIndexDocument(value: unknown): value is IndexDocument {
  if (typeof value !== 'object' || value === null) return false;
  const doc = value as Record<string, unknown>;
  return (
    typeof doc.id === 'string' &&
    (doc.title === null || typeof doc.title === 'string') &&
    typeof doc.text === 'string' &&
    (doc.pages === null || Array.isArray(doc.pages)) &&
    typeof doc.metadata === 'object' &&
    doc.metadata !== null &&
    typeof doc.format === 'string' &&
    typeof doc.bytes === 'number' &&
    typeof doc.indexedAt === 'string'
  );
}

/** A body record: its header, and its body parsed again (it was valid when it was written). */
function decodeBodyRecord(bytes: Uint8Array): WalRecord {
  if (bytes.length < BODY_HEADER_START) throw new InvalidWalRecordError('truncated body record');
  const headerLength = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32LE(1);
  const bodyStart = BODY_HEADER_START + headerLength;
  if (bodyStart > bytes.length) throw new InvalidWalRecordError('body record header runs past the record');
  let header: { op?: unknown; format?: unknown; indexedAt?: unknown };
  try {
    header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + BODY_HEADER_START, headerLength).toString('utf8')) as typeof header;
  } catch (error) {
    throw new InvalidWalRecordError(`body record header does not parse (${(error as Error).message})`);
  }
  const format = BATCH_FORMATS.find((known) => known === header.format);
  if (header.op !== 'upsert-body' || format === undefined || typeof header.indexedAt !== 'string') {
    throw new InvalidWalRecordError('malformed body record header');
  }
  // A copy: the body outlives the buffer replay read it from.
  const body = bytes.slice(bodyStart);
  try {
    return { op: 'upsert-body', body: parseBatchBody(body, format), indexedAt: header.indexedAt };
  } catch (error) {
    throw new InvalidWalRecordError(`the logged body is not a valid batch (${(error as Error).message})`);
  }
}

export function decodeWalRecord(bytes: Uint8Array): WalRecord {
  if (bytes[0] === BODY_RECORD_MARKER) return decodeBodyRecord(bytes);
  let value: unknown;
  try {
    value = unpack(bytes);
  } catch (error) {
    throw new InvalidWalRecordError(`does not decode (${(error as Error).message})`);
  }
  const record = value as Record<string, unknown> | null;
  if (typeof record !== 'object' || record === null) throw new InvalidWalRecordError('not an object');
  if (record.op === 'upsert' && Array.isArray(record.docs) && record.docs.every(isIndexDocument)) {
    return { op: 'upsert', docs: record.docs };
  }
  if (record.op === 'delete' && Array.isArray(record.ids) && record.ids.every((id) => typeof id === 'string')) {
    return { op: 'delete', ids: record.ids };
  }
  throw new InvalidWalRecordError(`unknown or malformed op ${JSON.stringify(record.op)}`);
}
