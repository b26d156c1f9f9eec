// The manifest: the single source of truth for which segment files (and which deletes bitmap
// of each) make up an index, and from which WAL generation on the log still holds writes that
// are not in segments. Replaced atomically on every refresh or merge; its body carries a CRC-32
// so a damaged manifest is reported (naming the file) instead of silently losing segments.

import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from './crc32.ts';
import { writeFileAtomic } from './atomic-file.ts';
import { CorruptFileError } from './errors.ts';
import { FIRST_WAL_GENERATION } from './wal.ts';

export const MANIFEST_FILE_NAME = 'manifest.json';
export const MANIFEST_FORMAT_VERSION = 1;

export interface ManifestSegment {
  /** File name of the segment, relative to the index directory. */
  name: string;
  docCount: number;
  deletedCount: number;
  /** File name of the roaring deletes bitmap, or null when nothing is deleted. */
  deletes: string | null;
  byteLength: number;
  /**
   * The segment's vector files by embedder name (search by meaning), absent when it has none.
   * Written once a segment's passages are embedded; a manifest without any omits the member.
   */
  vectors?: Record<string, string>;
}

export interface Manifest {
  formatVersion: typeof MANIFEST_FORMAT_VERSION;
  /** Incremented by every commit. */
  generation: number;
  /** WAL generations ≥ this are not yet in segments. */
  walGeneration: number;
  nextSegmentNumber: number;
  segments: ManifestSegment[];
}

/** The manifest of a collection with no segment yet (nothing committed or published). */
export function emptyManifest(): Manifest {
  return { formatVersion: MANIFEST_FORMAT_VERSION, generation: 0, walGeneration: FIRST_WAL_GENERATION, nextSegmentNumber: 1, segments: [] };
}

const encoder = new TextEncoder();

function checksumOf(body: Manifest): number {
  return crc32(encoder.encode(JSON.stringify(body)));
}

/** Canonical copy: fixed key order, so the checksum does not depend on how it was built. */
function canonical(manifest: Manifest): Manifest {
  return {
    formatVersion: manifest.formatVersion,
    generation: manifest.generation,
    walGeneration: manifest.walGeneration,
    nextSegmentNumber: manifest.nextSegmentNumber,
    segments: manifest.segments.map((segment) => ({
      name: segment.name,
      docCount: segment.docCount,
      deletedCount: segment.deletedCount,
      deletes: segment.deletes,
      byteLength: segment.byteLength,
      ...(segment.vectors !== undefined && Object.keys(segment.vectors).length > 0 && { vectors: sortedRecord(segment.vectors) }),
    })),
  };
}

/** Replaces `<dir>/manifest.json` atomically and durably. */
export function writeManifest(dir: string, manifest: Manifest): void {
  const body = canonical(manifest);
  const json = JSON.stringify({ crc32: checksumOf(body), body }, null, 1);
  writeFileAtomic(path.join(dir, MANIFEST_FILE_NAME), json + '\n');
}

function sortedRecord(record: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key];
  return sorted;
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function validSegment(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const segment = value as Record<string, unknown>;
  return (
    typeof segment.name === 'string' &&
    segment.name.length > 0 &&
    isCount(segment.docCount) &&
    isCount(segment.deletedCount) &&
    (segment.deletes === null || typeof segment.deletes === 'string') &&
    isCount(segment.byteLength) &&
    (segment.vectors === undefined ||
      (typeof segment.vectors === 'object' && segment.vectors !== null && Object.values(segment.vectors).every((name) => typeof name === 'string' && name.length > 0)))
  );
}

/** Reads `<dir>/manifest.json`: null when there is none, CorruptFileError when damaged. */
export function readManifest(dir: string): Manifest | null {
  const filePath = path.join(dir, MANIFEST_FILE_NAME);
  let text: string;
  try {
    text = fs.readFileSync(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const fail = (reason: string): never => {
    throw new CorruptFileError(filePath, reason);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    fail('not valid JSON');
  }
  const envelope = parsed as { crc32?: unknown; body?: unknown } | null;
  if (typeof envelope !== 'object' || envelope === null || typeof envelope.crc32 !== 'number') fail('missing checksum');
  const body = envelope!.body as Record<string, unknown> | null;
  if (typeof body !== 'object' || body === null) fail('missing body');
  if (typeof body!.formatVersion !== 'number') fail('missing format version');
  if (body!.formatVersion !== MANIFEST_FORMAT_VERSION) fail(`unsupported version ${String(body!.formatVersion)}`);
  if (
    !isCount(body!.generation) ||
    !isCount(body!.walGeneration) ||
    !isCount(body!.nextSegmentNumber) ||
    !Array.isArray(body!.segments) ||
    !body!.segments.every(validSegment)
  ) {
    fail('malformed body');
  }
  const manifest = canonical(body as unknown as Manifest);
  const actual = checksumOf(manifest);
  if (actual !== envelope!.crc32) fail(`checksum mismatch (stored ${String(envelope!.crc32)}, computed ${actual})`);
  return manifest;
}
