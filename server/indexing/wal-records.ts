// The records a collection writes to its write-ahead log: one per write request, either an
// upsert of whole documents or a delete of ids, encoded with MessagePack (plain, no shared
// record structures, so each record decodes on its own).

import { pack, unpack } from 'msgpackr';
import type { IndexDocument } from '../../engine/index.ts';

export type WalRecord =
  | { op: 'upsert'; docs: IndexDocument[] }
  | { op: 'delete'; ids: string[] };

/** A WAL record that passed its checksum but is not a record this code wrote. */
export class InvalidWalRecordError extends Error {
  constructor(reason: string) {
    super(`invalid write-ahead log record: ${reason}`);
    this.name = 'InvalidWalRecordError';
  }
}

export function encodeWalRecord(record: WalRecord): Uint8Array {
  return pack(record);
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

export function decodeWalRecord(bytes: Uint8Array): WalRecord {
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
