// Page previews (docs/api.md, "Page previews"): page N of a document's kept original
// (`--keep-files`) as a PNG or WebP picture of the width asked for, drawn in the extraction pool
// (never the main thread; bounded in time and memory like extraction) and cached on disk.
// The cache is keyed by what the picture is made of — the original's SHA-256, the page, the
// width and the format — so a replaced document never shows an old picture, and two
// collections holding the same file share one. It lives in `<data>/previews/` (private to the
// server) within a size budget: the least recently used pictures go first. Only the
// current version's original is drawn; a document without one is 404 `not_found`.

import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PageImageFormat } from '../../extract/index.ts';
import type { Collection } from '../indexing/index.ts';
import type { ExtractionPool } from '../pools/index.ts';
import type { FileUploads } from './file-uploads.ts';

/** The cache's folder in the data directory. */
export const PREVIEWS_DIR_NAME = 'previews';
/** Default size of the cache on disk. */
export const DEFAULT_PREVIEW_CACHE_BYTES = 256 * 1024 * 1024;

export interface PageImage {
  bytes: Uint8Array;
  contentType: string;
  /** A strong ETag: the same for the same picture. */
  etag: string;
}

const CONTENT_TYPES: Readonly<Record<PageImageFormat, string>> = { png: 'image/png', webp: 'image/webp' };

export class PagePreviews {
  private readonly dir: string;
  /** Cached pictures (file name → bytes), least recently used first. */
  private readonly cached = new Map<string, number>();
  private cachedBytes = 0;

  constructor(
    dataDir: string,
    private readonly uploads: FileUploads,
    private readonly extraction: ExtractionPool,
    private readonly budgetBytes: number = DEFAULT_PREVIEW_CACHE_BYTES,
  ) {
    this.dir = path.join(dataDir, PREVIEWS_DIR_NAME);
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // What the cache held when the server stopped, oldest use first; a crash's partial files go.
    const found: { name: string; bytes: number; usedMs: number }[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      const file = path.join(this.dir, name);
      if (name.startsWith('.')) {
        fs.rmSync(file, { force: true });
        continue;
      }
      const info = fs.statSync(file, { throwIfNoEntry: false });
      if (info?.isFile()) found.push({ name, bytes: info.size, usedMs: info.mtimeMs });
    }
    found.sort((a, b) => a.usedMs - b.usedMs);
    for (const { name, bytes } of found) this.remember(name, bytes);
    void this.evict();
  }

  /** Page `page` of document `id`'s kept original as a `format` picture `width` pixels wide. */
  async image(collection: Collection, id: string, page: number, width: number, format: PageImageFormat): Promise<PageImage> {
    const original = this.uploads.original(collection, id);
    const { record } = original;
    const key = createHash('sha256').update(`${record.sha256}\n${record.format}\n${page}\n${width}`).digest('hex').slice(0, 40);
    const name = `${key}.${format}`;
    const file = path.join(this.dir, name);
    const picture: PageImage = { bytes: new Uint8Array(0), contentType: CONTENT_TYPES[format], etag: `"${key}-${format}"` };
    if (this.cached.has(name)) {
      const bytes = await readFile(file).catch(() => null);
      if (bytes !== null) {
        this.touch(name, file);
        return { ...picture, bytes };
      }
      this.forget(name);
    }
    const bytes = await this.extraction.renderPage(original.path, record.format, { page, width, format });
    await this.store(name, file, bytes);
    return { ...picture, bytes };
  }

  /** Written whole (a temporary file renamed), then counted against the budget. */
  private async store(name: string, file: string, bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength > this.budgetBytes) return;
    const temp = path.join(this.dir, `.${name}-${randomBytes(4).toString('hex')}`);
    try {
      await writeFile(temp, bytes, { mode: 0o600 });
      await rename(temp, file);
    } catch {
      await rm(temp, { force: true });
      return;
    }
    this.remember(name, bytes.byteLength);
    await this.evict();
  }

  private remember(name: string, bytes: number): void {
    this.forget(name);
    this.cached.set(name, bytes);
    this.cachedBytes += bytes;
  }

  private forget(name: string): void {
    const bytes = this.cached.get(name);
    if (bytes === undefined) return;
    this.cached.delete(name);
    this.cachedBytes -= bytes;
  }

  /** Marks a picture used now: last to go, also after a restart (its time on disk). */
  private touch(name: string, file: string): void {
    const bytes = this.cached.get(name)!;
    this.cached.delete(name);
    this.cached.set(name, bytes);
    const now = new Date();
    void utimes(file, now, now).catch(() => {});
  }

  /** Removes the least recently used pictures until the cache is within its budget. */
  private async evict(): Promise<void> {
    for (const [name] of this.cached) {
      if (this.cachedBytes <= this.budgetBytes) return;
      this.forget(name);
      await rm(path.join(this.dir, name), { force: true });
    }
  }

  /** The bytes the cache holds (stats and tests). */
  get sizeBytes(): number {
    return this.cachedBytes;
  }
}
