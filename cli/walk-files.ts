// The files `folio index` uploads: each path given is a file or a folder searched
// recursively, in name order. Inside folders, hidden entries (names starting with `.`) are
// skipped, and so are symbolic links to folders (which could loop) and anything that is not
// a regular file; a path named on the command line is taken even if hidden.

import { readdir, stat } from 'node:fs/promises';
import { join, normalize } from 'node:path';

export interface WalkProblem {
  path: string;
  code: string;
  message: string;
}

export interface WalkResult {
  files: string[];
  /** Paths that could not be read (missing, no permission). */
  problems: WalkProblem[];
}

function problem(path: string, error: unknown): WalkProblem {
  const code = (error as NodeJS.ErrnoException).code;
  const message = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
  return { path, code: code === 'ENOENT' ? 'file_not_found' : 'io_error', message };
}

async function walkFolder(dir: string, result: WalkResult): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    result.problems.push(problem(dir, error));
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walkFolder(path, result);
    else if (entry.isFile()) result.files.push(path);
    else if (entry.isSymbolicLink()) {
      const target = await stat(path).catch(() => null);
      if (target?.isFile()) result.files.push(path);
    }
  }
}

/** Every file under the given paths, each once, in the order found. */
export async function walkFiles(paths: string[]): Promise<WalkResult> {
  const result: WalkResult = { files: [], problems: [] };
  for (const path of paths.map((given) => normalize(given))) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      result.problems.push(problem(path, error));
      continue;
    }
    if (info.isDirectory()) await walkFolder(path, result);
    else if (info.isFile()) result.files.push(path);
    else result.problems.push({ path, code: 'unsupported_file_type', message: 'not a regular file or folder' });
  }
  result.files = [...new Set(result.files)];
  return result;
}
