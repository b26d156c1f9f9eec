// `POST /v1/snapshots` (issue 18): a consistent online copy of the data directory, streamed as a
// tar. The server's small state files (API keys, sessions, webhooks and their outbox, the
// master key file) and every available collection (indexing/collection-snapshot.ts: each at
// one instant, so every write acknowledged before it is in the copy) are gathered in a staging
// folder of hard links inside the data directory; the tar is read from there while the server
// goes on serving and writing, and the folder is removed afterwards (or at the next start).
// `folio restore` unpacks such a tar into a new data directory to start a server on.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { tarChunks } from '../../storage/index.ts';
import type { TarEntry } from '../../storage/index.ts';
import { KEYS_FILE, MASTER_KEY_FILE, SESSIONS_FILE } from '../auth/index.ts';
import type { KeyStore } from '../auth/index.ts';
import { FOLIO_VERSION } from '../config/index.ts';
import { ORIGINALS_DIR_NAME } from '../files/index.ts';
import { linkOrCopy } from '../indexing/index.ts';
import type { CollectionRegistry } from '../indexing/index.ts';
import { OUTBOX_FILE, WEBHOOKS_FILE } from '../webhooks/index.ts';

/** The archive's first file: what it holds. */
export const SNAPSHOT_MANIFEST = 'SNAPSHOT.json';
const STAGING_PREFIX = '.snapshot-';
export const SNAPSHOT_FORMAT = 1;

export interface SnapshotInfo {
  format: typeof SNAPSHOT_FORMAT;
  version: string;
  created_at: string;
  collections: string[];
  /** Collections left out: unavailable because a file of theirs is damaged. */
  skipped: { name: string; reason: string }[];
}

export class DataSnapshots {
  constructor(
    private readonly dataDir: string,
    private readonly registry: CollectionRegistry,
    private readonly keys: KeyStore,
  ) {}

  /** Removes staging folders a server stopped mid-snapshot left behind. */
  removeLeftovers(): void {
    for (const name of fs.readdirSync(this.dataDir)) {
      if (name.startsWith(STAGING_PREFIX)) fs.rmSync(path.join(this.dataDir, name), { recursive: true, force: true });
    }
  }

  /**
   * Gathers the copy now (synchronously: the snapshot point) and returns its tar as chunks; the
   * staging folder goes when the chunks are done or abandoned.
   */
  take(): AsyncGenerator<Uint8Array> {
    const staging = path.join(this.dataDir, `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
    fs.mkdirSync(staging, { mode: 0o700 });
    let info: SnapshotInfo;
    try {
      info = this.gather(staging);
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    return archive(staging, info);
  }

  private gather(staging: string): SnapshotInfo {
    // Keys' last use times are kept in memory between flushes: write them first.
    this.keys.flush();
    for (const file of [KEYS_FILE, SESSIONS_FILE, WEBHOOKS_FILE, MASTER_KEY_FILE]) {
      // Replaced by renames, never in place: a link is one whole version.
      if (fs.existsSync(path.join(this.dataDir, file))) linkOrCopy(path.join(this.dataDir, file), path.join(staging, file));
    }
    // The outbox grows in place: a copy (a record cut short at its end is replayed as a torn tail).
    if (fs.existsSync(path.join(this.dataDir, OUTBOX_FILE))) fs.copyFileSync(path.join(this.dataDir, OUTBOX_FILE), path.join(staging, OUTBOX_FILE));
    const collections: string[] = [];
    for (const { name } of this.registry.list()) {
      this.registry.captureInto(name, path.join(staging, 'collections', name), ORIGINALS_DIR_NAME);
      collections.push(name);
    }
    const skipped = this.registry.unavailable().map(({ name, reason }) => ({ name, reason }));
    return { format: SNAPSHOT_FORMAT, version: FOLIO_VERSION, created_at: new Date().toISOString(), collections, skipped };
  }
}

async function* archive(staging: string, info: SnapshotInfo): AsyncGenerator<Uint8Array> {
  try {
    yield* tarChunks(entries(staging, info));
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

function* entries(staging: string, info: SnapshotInfo): Generator<TarEntry> {
  yield { name: SNAPSHOT_MANIFEST, bytes: Buffer.from(JSON.stringify(info, null, 1) + '\n') };
  const walk = function* (dir: string): Generator<TarEntry> {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(file);
      else if (entry.isFile()) {
        const stat = fs.statSync(file);
        yield { name: path.relative(staging, file).split(path.sep).join('/'), file, size: stat.size, mtimeMs: stat.mtimeMs };
      }
    }
  };
  yield* walk(staging);
}
