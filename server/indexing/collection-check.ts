// `folio check` (issue 18): verifies every file of every collection of a data directory —
// collection.json, the manifest, each segment's checksum and document count, deletes and
// vector files, every WAL record's frame and checksum — and says which files are damaged and
// the document ids they held, where those can still be read. `repairCollection` sets the
// damaged files aside so the collection serves again, and returns what must be re-indexed:
// - a damaged segment (or its deletes file) leaves the manifest; its documents are listed;
// - a damaged vector file leaves the manifest; its segment is embedded again on its own;
// - a damaged manifest is rebuilt from the segment and deletes files that pass their checks;
// - a damaged WAL record is dropped and the records around it kept;
// - a damaged collection.json is written again with the default language and settings.
// `appendRecoveredDocuments` then logs documents rebuilt from kept originals in the WAL, which
// the server replays at its next start. The server must be stopped: the repair rewrites files
// a running server holds.

import fs from 'node:fs';
import path from 'node:path';
import { SegmentReader, VectorReader, readDeletesFile } from '../../engine/index.ts';
import {
  CorruptFileError,
  FIRST_WAL_GENERATION,
  MANIFEST_FORMAT_VERSION,
  WAL_FRAME_HEADER_BYTES,
  WAL_FRAMING,
  WriteAheadLog,
  encodeWalFrame,
  listWalGenerations,
  readManifest,
  walFilePath,
  writeFileAtomic,
  writeManifest,
} from '../../storage/index.ts';
import type { Manifest, ManifestSegment } from '../../storage/index.ts';
import { readCollectionConfig, writeCollectionConfig } from './collection-config.ts';
import { COLLECTION_CONFIG_FILE, WAL_DIR_NAME } from './collection-layout.ts';
import { DEFAULT_OCR_LANGUAGES, DEFAULT_SEARCHABLE_FIELDS, defaultTypoTolerance } from '../settings/index.ts';
import { decodeWalRecord, encodeWalRecord } from './wal-records.ts';
import type { IndexDocument } from '../../engine/index.ts';
import { DEFAULT_LANGUAGE, isValidDocumentId } from '../names/index.ts';

/** One damaged file and what it held. */
export interface FileProblem {
  /** Relative to the collection's directory. */
  file: string;
  problem: string;
  /** Ids of the documents the file held, as far as they can be read; null when unknown. */
  documentIds: string[] | null;
}

export interface CollectionCheck {
  name: string;
  dir: string;
  /** Files verified. */
  checked: number;
  problems: FileProblem[];
}

export interface RepairOutcome {
  /** Files no longer used (left on disk, renamed `<name>.damaged`, for inspection). */
  setAside: string[];
  /** Documents that must be indexed again (their damaged copies are gone). */
  reindex: string[];
  /** Other things the repair did that the operator should know. */
  notes: string[];
}

const SEGMENT_FILE = /^seg-(\d+)\.fseg$/;
const DELETES_FILE = /^seg-(\d+)\.del-(\d+)$/;

/** Checks every collection directory under `<dataDir>/collections`. */
export function checkDataDir(dataDir: string): CollectionCheck[] {
  const root = path.join(dataDir, 'collections');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort()
    .map((name) => checkCollection(name, path.join(root, name)));
}

export function checkCollection(name: string, dir: string): CollectionCheck {
  const check: CollectionCheck = { name, dir, checked: 0, problems: [] };
  const damaged = (file: string, problem: string, documentIds: string[] | null = null): void => {
    check.problems.push({ file, problem, documentIds });
  };
  check.checked++;
  try {
    readCollectionConfig(dir);
  } catch (error) {
    damaged(COLLECTION_CONFIG_FILE, reasonOf(error));
  }
  check.checked++;
  let manifest: Manifest | null = null;
  try {
    manifest = readManifest(dir);
  } catch (error) {
    damaged('manifest.json', reasonOf(error));
  }
  const segments = manifest?.segments ?? rebuiltSegments(dir).segments;
  for (const segment of segments) {
    check.checked++;
    const problem = segmentProblem(dir, segment);
    if (problem !== null) damaged(segment.name, problem, segmentIds(path.join(dir, segment.name)));
    if (segment.deletes !== null) {
      check.checked++;
      try {
        readDeletesFile(path.join(dir, segment.deletes));
      } catch (error) {
        damaged(segment.deletes, `${reasonOf(error)} (the deletes of ${segment.name})`, segmentIds(path.join(dir, segment.name)));
      }
    }
    for (const file of Object.values(segment.vectors ?? {})) {
      check.checked++;
      try {
        VectorReader.open(path.join(dir, file));
      } catch (error) {
        damaged(file, `${reasonOf(error)} (vectors: its segment is embedded again after a repair)`, []);
      }
    }
  }
  const walDir = path.join(dir, WAL_DIR_NAME);
  for (const generation of listWalGenerations(walDir)) {
    check.checked++;
    const scan = scanWal(walFilePath(walDir, generation));
    for (const bad of scan.damaged) damaged(path.join(WAL_DIR_NAME, path.basename(walFilePath(walDir, generation))), bad.problem, bad.documentIds);
  }
  return check;
}

/** Sets the damaged files of `check` aside so the collection opens; says what to re-index. */
export function repairCollection(check: CollectionCheck): RepairOutcome {
  const { dir } = check;
  const outcome: RepairOutcome = { setAside: [], reindex: [], notes: [] };
  if (check.problems.length === 0) return outcome;
  const damagedFiles = new Set(check.problems.map((problem) => problem.file));

  if (damagedFiles.has(COLLECTION_CONFIG_FILE)) {
    writeCollectionConfig(dir, { name: check.name, language: DEFAULT_LANGUAGE, created_at: new Date().toISOString(), typoTolerance: defaultTypoTolerance(), embedders: {}, synonyms: [], ranking: { boost: [] }, searchableFields: [...DEFAULT_SEARCHABLE_FIELDS], ocrLanguages: [...DEFAULT_OCR_LANGUAGES] });
    outcome.notes.push(`collection.json was written again with language '${DEFAULT_LANGUAGE}' and default settings: if the collection had another language or embedders, set them again (PATCH /v1/collections/${check.name}) or re-create it`);
  }

  let manifest: Manifest;
  if (damagedFiles.has('manifest.json')) {
    setAside(dir, 'manifest.json', outcome);
    manifest = rebuiltSegments(dir);
    outcome.notes.push(`manifest.json was rebuilt from ${manifest.segments.length} segment files; vectors are computed again`);
  } else {
    manifest = readManifest(dir) ?? rebuiltSegments(dir);
  }
  const kept: ManifestSegment[] = [];
  for (const segment of manifest.segments) {
    const lost = [segment.name, segment.deletes].find((file) => file !== null && damagedFiles.has(file));
    if (lost !== undefined) {
      for (const problem of check.problems) if (problem.file === lost) outcome.reindex.push(...(problem.documentIds ?? []));
      if (check.problems.some((problem) => problem.file === lost && problem.documentIds === null)) {
        outcome.notes.push(`the ids of the documents in ${segment.name} could not be read: re-index the collection's source`);
      }
      for (const file of [segment.name, segment.deletes]) if (file !== null) setAside(dir, file, outcome);
      continue;
    }
    const vectors = Object.fromEntries(Object.entries(segment.vectors ?? {}).filter(([, file]) => !damagedFiles.has(file)));
    for (const file of Object.values(segment.vectors ?? {})) if (damagedFiles.has(file)) setAside(dir, file, outcome);
    kept.push({ ...segment, vectors });
  }
  writeManifest(dir, { ...manifest, generation: manifest.generation + 1, segments: kept });

  const walDir = path.join(dir, WAL_DIR_NAME);
  for (const generation of listWalGenerations(walDir)) {
    const file = walFilePath(walDir, generation);
    const scan = scanWal(file);
    if (scan.damaged.length === 0) continue;
    fs.copyFileSync(file, `${file}.damaged`);
    writeFileAtomic(file, Buffer.concat(scan.records.map((record) => encodeWalFrame(record))));
    outcome.setAside.push(path.join(WAL_DIR_NAME, `${path.basename(file)}.damaged`) + ' (a copy; the log was rewritten without its damaged records)');
    for (const bad of scan.damaged) {
      if (bad.documentIds !== null) outcome.reindex.push(...bad.documentIds);
      else outcome.notes.push(`a write in ${path.basename(file)} (${bad.problem}) was lost and its documents are unknown: re-index what was written last`);
    }
  }
  outcome.reindex = [...new Set(outcome.reindex)].sort();
  return outcome;
}

/** Logs `docs` as one upsert in the WAL of the collection at `dir` (server stopped): replayed at its next start. */
export async function appendRecoveredDocuments(dir: string, docs: IndexDocument[]): Promise<void> {
  if (docs.length === 0) return;
  const manifest = readManifest(dir);
  const wal = WriteAheadLog.open(path.join(dir, WAL_DIR_NAME), manifest?.walGeneration ?? FIRST_WAL_GENERATION);
  try {
    await wal.append(encodeWalRecord({ op: 'upsert', docs }));
  } finally {
    await wal.close();
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof CorruptFileError) return error.reason;
  return error instanceof Error ? error.message : String(error);
}

/** Why a manifest's segment fails its checks, or null when it passes. */
function segmentProblem(dir: string, segment: ManifestSegment): string | null {
  const filePath = path.join(dir, segment.name);
  if (!fs.existsSync(filePath)) return 'missing';
  try {
    const reader = SegmentReader.open(filePath);
    if (reader.docCount !== segment.docCount) return `holds ${reader.docCount} documents, the manifest says ${segment.docCount}`;
    return null;
  } catch (error) {
    return reasonOf(error);
  }
}

/** The ids a segment holds, read without its checksum; null when even they cannot be read. */
function segmentIds(filePath: string): string[] | null {
  try {
    const reader = SegmentReader.open(filePath, { verifyChecksum: false });
    const ids = new Set<string>();
    // Bytes the damage reached may read as ids no document has: those that could not be ids are left out.
    for (let doc = 0; doc < reader.docCount; doc++) {
      const id = reader.docId(doc);
      if (isValidDocumentId(id)) ids.add(id);
    }
    return [...ids];
  } catch {
    return null;
  }
}

/** A manifest of the segment files in `dir` that pass their checks, each with its newest deletes file. */
function rebuiltSegments(dir: string): Manifest {
  const names = fs.readdirSync(dir);
  const deletes = new Map<number, { file: string; generation: number }>();
  let generation = 0;
  for (const name of names) {
    const match = DELETES_FILE.exec(name);
    if (match === null) continue;
    const number = Number(match[1]);
    const fileGeneration = Number(match[2]);
    generation = Math.max(generation, fileGeneration);
    if ((deletes.get(number)?.generation ?? -1) < fileGeneration) deletes.set(number, { file: name, generation: fileGeneration });
  }
  const segments: ManifestSegment[] = [];
  let nextSegmentNumber = 1;
  const numbered = names.flatMap((name) => {
    const match = SEGMENT_FILE.exec(name);
    return match === null ? [] : [{ name, number: Number(match[1]) }];
  });
  for (const { name, number } of numbered.sort((a, b) => a.number - b.number)) {
    nextSegmentNumber = Math.max(nextSegmentNumber, number + 1);
    let docCount: number;
    try {
      docCount = SegmentReader.open(path.join(dir, name)).docCount;
    } catch {
      continue; // a damaged segment is not taken in (checkCollection reports it)
    }
    const deletesFile = deletes.get(number)?.file ?? null;
    let deletedCount = 0;
    if (deletesFile !== null) {
      try {
        deletedCount = readDeletesFile(path.join(dir, deletesFile)).size;
      } catch {
        continue;
      }
    }
    segments.push({ name, docCount, deletedCount, deletes: deletesFile, byteLength: fs.statSync(path.join(dir, name)).size });
  }
  const walGenerations = listWalGenerations(path.join(dir, WAL_DIR_NAME));
  return {
    formatVersion: MANIFEST_FORMAT_VERSION,
    generation: generation + 1,
    walGeneration: walGenerations[0] ?? FIRST_WAL_GENERATION,
    nextSegmentNumber,
    segments,
  };
}

interface WalScan {
  /** Payloads of the records that pass their checks, in order. */
  records: Uint8Array[];
  damaged: { problem: string; documentIds: string[] | null }[];
}

/**
 * Every frame of a WAL file, cut by the WAL's own framing (WAL_FRAMING): a frame with a bad
 * checksum is skipped (its length is kept) and reading goes on after it; a bad length ends the
 * file's readable part. A frame cut short at the very end, or zeros to the end, is a torn tail
 * (a crash mid-append), not damage.
 */
function scanWal(file: string): WalScan {
  const bytes = fs.readFileSync(file);
  const scan: WalScan = { records: [], damaged: [] };
  for (let pos = 0; pos < bytes.length; ) {
    const decoded = WAL_FRAMING.decode(bytes.subarray(pos), 0);
    if (decoded.kind === 'record') {
      scan.records.push(decoded.record);
      pos += decoded.size;
      continue;
    }
    if (decoded.kind === 'partial' || bytes.subarray(pos).every((byte) => byte === 0)) break;
    if (decoded.size === undefined) {
      scan.damaged.push({ problem: `${decoded.problem} at byte ${pos}; the rest of the file (${bytes.length - pos} bytes) is unreadable`, documentIds: null });
      break;
    }
    scan.damaged.push({ problem: `${decoded.problem} at byte ${pos}`, documentIds: recordIds(bytes.subarray(pos + WAL_FRAME_HEADER_BYTES, pos + decoded.size)) });
    pos += decoded.size;
  }
  return scan;
}

/** The ids a (damaged) WAL record names, if it still decodes. */
function recordIds(payload: Uint8Array): string[] | null {
  try {
    const record = decodeWalRecord(payload);
    if (record.op === 'delete') return record.ids;
    if (record.op === 'upsert') return record.docs.map((doc) => doc.id);
    return record.body.ids;
  } catch {
    return null;
  }
}

function setAside(dir: string, file: string, outcome: RepairOutcome): void {
  const from = path.join(dir, file);
  if (!fs.existsSync(from)) return;
  fs.renameSync(from, `${from}.damaged`);
  outcome.setAside.push(`${file}.damaged`);
}
