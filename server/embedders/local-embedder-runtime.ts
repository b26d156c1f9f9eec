// The `local` embedder's runtime — Transformers.js on ONNX Runtime, about 450 MB — is not part of
// Folio's install. `folio models runtime` (or the first `folio models pull`) installs it, pinned
// by addons/local-embedder/ (package.json and lockfile), into the add-ons directory
// (`--addons-dir`, default `<Folio>/addons`): `<addons>/local-embedder/node_modules`. Here it is
// found and loaded from there; without it a `local` embedder is refused naming the command.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The add-ons directory's folder holding the runtime (its manifests and node_modules). */
export const LOCAL_RUNTIME_FOLDER = 'local-embedder';
/** The package that runs `local` models. */
export const LOCAL_RUNTIME_PACKAGE = '@huggingface/transformers';
/** The command that installs the runtime, named by every error about it. */
export const LOCAL_RUNTIME_COMMAND = 'folio models runtime';

/** The folder the runtime is installed in for `addonsDir`. */
export function localRuntimeDir(addonsDir: string): string {
  return path.join(addonsDir, LOCAL_RUNTIME_FOLDER);
}

/** Where the runtime's package is installed for `addonsDir`. */
function runtimePackageDir(addonsDir: string): string {
  return path.join(localRuntimeDir(addonsDir), 'node_modules', ...LOCAL_RUNTIME_PACKAGE.split('/'));
}

/** Whether the runtime is installed in `addonsDir`. */
export function hasLocalRuntime(addonsDir: string): boolean {
  return existsSync(path.join(runtimePackageDir(addonsDir), 'package.json'));
}

/** Why `local` embedders cannot run with `addonsDir` (null when they can). */
export function localRuntimeProblem(addonsDir: string | null): string | null {
  if (addonsDir !== null && hasLocalRuntime(addonsDir)) return null;
  const where = addonsDir === null ? '' : ` in ${localRuntimeDir(addonsDir)}`;
  return `local embedders need their runtime (Transformers.js on ONNX Runtime, installed on demand), which is not installed${where}: run \`${LOCAL_RUNTIME_COMMAND}\` (with --addons-dir if the server has its own)`;
}

/** Loads the runtime's ES module from `addonsDir` (its package's `exports` for Node's `import`). */
export async function importLocalRuntime<T>(addonsDir: string): Promise<T> {
  const dir = runtimePackageDir(addonsDir);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { exports?: { node?: { import?: { default?: string } } }; module?: string };
  const entry = manifest.exports?.node?.import?.default ?? manifest.module;
  if (entry === undefined) throw new Error(`${LOCAL_RUNTIME_PACKAGE} in ${dir} has no ES module entry`);
  return (await import(pathToFileURL(path.join(dir, entry)).href)) as T;
}
