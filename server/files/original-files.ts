// The original files of uploads, kept when the server runs with `--keep-files`, so clients can
// download what they uploaded (`GET …/documents/{id}/file`). They live in the collection's own
// directory, so deleting the collection removes them:
//   <collection>/originals/<sha256(id)>.json     { id, file_name, mime, format, bytes, sha256, indexed_at, file }
//   <collection>/originals/<sha256(id)>-<sha256(bytes)>-<random>.bin   the bytes
// A file is moved there (fsynced) before its document is written, so an acknowledged upload
// has its file; the file it replaces is removed only once the new document is written. A
// record names the document version (`indexed_at`) it belongs to, so concurrent uploads of one
// id can at worst leave a document without its original, never with another one's. Replacing
// or deleting the document discards it; leftovers of a crash (a file no record names, a record
// whose document is gone) are removed when the server starts.

import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fsyncDirectory, writeFileAtomic } from '../../storage/index.ts';
import type { Collection } from '../indexing/index.ts';

export const ORIGINALS_DIR_NAME = 'originals';

/** What is known of a kept file. */
export interface OriginalFileRecord {
  id: string;
  /** The client's name for the file, or null. */
  file_name: string | null;
  mime: string;
  format: string;
  bytes: number;
  sha256: string;
  /** `indexed_at` of the document version this is the original of. */
  indexed_at: string;
  /** The bytes' file name in the originals directory. */
  file: string;
}

export interface OriginalFile {
  record: OriginalFileRecord;
  /** Absolute path of the bytes. */
  path: string;
}

/** An original just kept, and the one it replaces. */
export interface KeptOriginal {
  kept: OriginalFileRecord;
  previous: OriginalFileRecord | null;
}

async function removeQuietly(filePath: string): Promise<void> {
  await rm(filePath, { force: true }).catch(() => undefined);
}

function idKey(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

function isRecord(value: unknown): value is OriginalFileRecord {
  const r = value as Partial<OriginalFileRecord> | null;
  return (
    typeof r === 'object' && r !== null && typeof r.id === 'string' && (r.file_name === null || typeof r.file_name === 'string') &&
    typeof r.mime === 'string' && typeof r.format === 'string' && typeof r.bytes === 'number' &&
    typeof r.sha256 === 'string' && typeof r.indexed_at === 'string' && typeof r.file === 'string' &&
    /^[0-9a-f]{64}-[0-9a-f]{64}-[0-9a-f]{16}\.bin$/.test(r.file)
  );
}

/** The kept originals of one collection directory. */
export class OriginalFiles {
  readonly dir: string;
  /** Records by document id, read from disk on first use. */
  private records: Map<string, OriginalFileRecord> | null = null;

  constructor(collectionDir: string) {
    this.dir = path.join(collectionDir, ORIGINALS_DIR_NAME);
  }

  private load(): Map<string, OriginalFileRecord> {
    if (this.records !== null) return this.records;
    const records = new Map<string, OriginalFileRecord>();
    let names: string[] = [];
    try {
      names = fs.readdirSync(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      try {
        const record: unknown = JSON.parse(fs.readFileSync(path.join(this.dir, name), 'utf8'));
        if (isRecord(record) && `${idKey(record.id)}.json` === name) records.set(record.id, record);
      } catch {
        // An unreadable record is a leftover; removeLeftovers deletes it.
      }
    }
    this.records = records;
    return records;
  }

  /**
   * Moves the uploaded file at `tempPath` (same file system) here as the original of `id`,
   * durably. Returns what it replaces: `settle` it once the document write has succeeded or
   * failed.
   */
  async keep(tempPath: string, record: Omit<OriginalFileRecord, 'file'>): Promise<KeptOriginal> {
    const records = this.load();
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const key = idKey(record.id);
    const file = `${key}-${record.sha256}-${randomBytes(8).toString('hex')}.bin`;
    const handle = await open(tempPath, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tempPath, path.join(this.dir, file));
    fsyncDirectory(this.dir);
    const kept: OriginalFileRecord = { ...record, file };
    writeFileAtomic(path.join(this.dir, `${key}.json`), JSON.stringify(kept));
    const previous = records.get(record.id) ?? null;
    records.set(record.id, kept);
    return { kept, previous };
  }

  /**
   * After the document write: on success the replaced original's bytes go; on failure the
   * previous record comes back (if no other upload has replaced this one meanwhile) and the
   * new bytes go.
   */
  async settle({ kept, previous }: KeptOriginal, written: boolean): Promise<void> {
    const records = this.load();
    if (written) {
      if (previous !== null) await removeQuietly(path.join(this.dir, previous.file));
      return;
    }
    if (records.get(kept.id) === kept) {
      const recordPath = path.join(this.dir, `${idKey(kept.id)}.json`);
      if (previous === null) {
        records.delete(kept.id);
        await removeQuietly(recordPath);
      } else {
        records.set(kept.id, previous);
        writeFileAtomic(recordPath, JSON.stringify(previous));
      }
    }
    await removeQuietly(path.join(this.dir, kept.file));
  }

  /** A PATCH made a new version of the document: its original follows it. */
  follow(id: string, indexedAt: string): void {
    const records = this.load();
    const record = records.get(id);
    if (record === undefined) return;
    const moved = { ...record, indexed_at: indexedAt };
    records.set(id, moved);
    try {
      writeFileAtomic(path.join(this.dir, `${idKey(id)}.json`), JSON.stringify(moved));
    } catch {
      // The record keeps the old version: the original reads as missing, never as another's.
    }
  }

  /**
   * Removes the originals of `ids` (documents replaced by JSON ones, or deleted). Never throws:
   * the write it follows has succeeded, and what a failure leaves is removed at the next start.
   */
  async discard(ids: Iterable<string>): Promise<void> {
    const records = this.load();
    if (records.size === 0) return;
    for (const id of ids) {
      const record = records.get(id);
      if (record === undefined) continue;
      records.delete(id);
      await removeQuietly(path.join(this.dir, `${idKey(id)}.json`));
      await removeQuietly(path.join(this.dir, record.file));
    }
  }

  /** The original of `id`, if one is kept. */
  find(id: string): OriginalFile | null {
    const record = this.load().get(id);
    return record === undefined ? null : { record, path: path.join(this.dir, record.file) };
  }

  /**
   * Removes what a crash may leave: records whose document no longer exists (per `exists`),
   * bytes no record names, and half-written temporaries.
   */
  removeLeftovers(exists: (id: string) => boolean): void {
    const records = this.load();
    for (const [id, record] of records) {
      if (!exists(id)) {
        records.delete(id);
        fs.rmSync(path.join(this.dir, `${idKey(id)}.json`), { force: true });
        fs.rmSync(path.join(this.dir, record.file), { force: true });
      }
    }
    if (!fs.existsSync(this.dir)) return;
    const named = new Set<string>();
    for (const [id, record] of records) named.add(`${idKey(id)}.json`).add(record.file);
    for (const name of fs.readdirSync(this.dir)) {
      if (!named.has(name)) fs.rmSync(path.join(this.dir, name), { force: true, recursive: true });
    }
  }
}

/** The kept originals of every collection; `enabled` is `--keep-files`. */
export class KeptOriginals {
  readonly enabled: boolean;
  private readonly byCollection = new WeakMap<Collection, OriginalFiles>();

  constructor(enabled: boolean) {
    this.enabled = enabled;
  }

  /** The originals of this opening of a collection (a re-created collection starts empty). */
  of(collection: Collection): OriginalFiles {
    let originals = this.byCollection.get(collection);
    if (originals === undefined) {
      originals = new OriginalFiles(collection.dir);
      this.byCollection.set(collection, originals);
    }
    return originals;
  }
}
