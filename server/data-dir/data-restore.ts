// `folio restore FILE --data DIR` (issue 18): unpacks a snapshot tar (data-snapshot.ts) into a
// new data directory, all or nothing — into a staging folder beside it, checked, then renamed
// into place — and verifies every file of it as `folio check` does. A server then starts on
// it; the WAL each collection carries replays the writes acknowledged before the snapshot.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { extractTar } from '../../storage/index.ts';
import { checkDataDir } from '../indexing/index.ts';
import type { CollectionCheck } from '../indexing/index.ts';
import { SNAPSHOT_FORMAT, SNAPSHOT_MANIFEST } from './data-snapshot.ts';
import type { SnapshotInfo } from './data-snapshot.ts';

export class RestoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreError';
  }
}

export interface RestoreOutcome {
  info: SnapshotInfo;
  files: number;
  checks: CollectionCheck[];
}

/** Unpacks the snapshot read from `source` into `dataDir`, which must not exist or be empty. */
export async function restoreSnapshot(source: AsyncIterable<Uint8Array>, dataDir: string): Promise<RestoreOutcome> {
  const target = path.resolve(dataDir);
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0) {
    throw new RestoreError(`${target} is not empty: restore into a new data directory (then point the server at it)`);
  }
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.restoring-${randomBytes(4).toString('hex')}`);
  try {
    const files = await extractTar(source, staging);
    const infoPath = path.join(staging, SNAPSHOT_MANIFEST);
    if (!fs.existsSync(infoPath)) throw new RestoreError(`the archive has no ${SNAPSHOT_MANIFEST}: it is not a Folio snapshot`);
    const info = JSON.parse(fs.readFileSync(infoPath, 'utf8')) as SnapshotInfo;
    if (info.format !== SNAPSHOT_FORMAT) throw new RestoreError(`snapshot format ${String(info.format)} is not one this version reads (${SNAPSHOT_FORMAT})`);
    fs.rmSync(infoPath);
    fs.chmodSync(staging, 0o700);
    if (fs.existsSync(target)) fs.rmdirSync(target);
    fs.renameSync(staging, target);
    return { info, files: files.length - 1, checks: checkDataDir(target) };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
