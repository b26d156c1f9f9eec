// What one pass of `folio index` has to do, decided from the files on disk and the documents
// the collection already holds from the same root (their metadata: path, size, modified_at,
// sha256): a file with no document is new; one whose size and modification time match its
// document's is unchanged (nothing read, nothing sent); one whose size matches but whose time
// does not is checked by its hash (touched, or really changed); any other is uploaded again.
// Documents whose file is gone are deleted. Pure: index-files.ts carries the plan out.

export interface LocalFile {
  /** Where it is on disk. */
  absolute: string;
  /** Relative to the root, `/` between parts: how the collection knows it. */
  relative: string;
  size: number;
  modifiedMs: number;
}

/** A document indexed from this root before (by `folio index`). */
export interface IndexedFile {
  id: string;
  path: string;
  size: number | null;
  modifiedAt: string | null;
  sha256: string | null;
}

export type FileAction = 'new' | 'update' | 'check';

export interface PlannedUpload {
  file: LocalFile;
  /** `check`: same size, other time: hash it, upload only if the bytes changed. */
  action: FileAction;
  /** Its document now, if it has one. */
  existing: IndexedFile | null;
}

export interface IndexPlan {
  uploads: PlannedUpload[];
  unchanged: LocalFile[];
  /** Documents whose file is no longer there. */
  gone: IndexedFile[];
}

/** A document's metadata as an IndexedFile, or null when `folio index` did not write it. */
export function indexedFile(id: string, metadata: Record<string, unknown> | undefined): IndexedFile | null {
  if (metadata === undefined || typeof metadata.path !== 'string') return null;
  return {
    id,
    path: metadata.path,
    size: typeof metadata.size === 'number' ? metadata.size : null,
    modifiedAt: typeof metadata.modified_at === 'string' ? metadata.modified_at : null,
    sha256: typeof metadata.sha256 === 'string' ? metadata.sha256 : null,
  };
}

/**
 * The plan for `local` against `indexed`. `expectedId` is the id a file's document should have
 * (null: the server chooses, from the bytes): a document under another id is replaced.
 */
export function planIndex(local: readonly LocalFile[], indexed: readonly IndexedFile[], expectedId: (file: LocalFile) => string | null): IndexPlan {
  const byPath = new Map<string, IndexedFile>();
  const extra: IndexedFile[] = [];
  for (const document of indexed) {
    // Two documents for one path (from an older version of the CLI): keep one, the rest go.
    if (byPath.has(document.path)) extra.push(document);
    else byPath.set(document.path, document);
  }
  const plan: IndexPlan = { uploads: [], unchanged: [], gone: extra };
  const present = new Set<string>();
  for (const file of local) {
    present.add(file.relative);
    const existing = byPath.get(file.relative) ?? null;
    if (existing === null) {
      plan.uploads.push({ file, action: 'new', existing });
      continue;
    }
    const id = expectedId(file);
    const sameId = id === null || id === existing.id;
    const sameSize = existing.size === file.size;
    if (sameId && sameSize && existing.modifiedAt === new Date(file.modifiedMs).toISOString()) plan.unchanged.push(file);
    else plan.uploads.push({ file, action: sameId && sameSize && existing.sha256 !== null ? 'check' : 'update', existing });
  }
  for (const [path, document] of byPath) if (!present.has(path)) plan.gone.push(document);
  return plan;
}
