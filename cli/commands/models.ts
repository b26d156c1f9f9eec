// `folio models pull|list|runtime`: the ONNX sentence-transformers that `local` embedders run,
// kept in the server's models directory (`--models-dir`, default `<data>/models`), and their
// runtime. `pull` downloads a model's files in the layout Transformers.js reads (config,
// tokenizer, `onnx/model*.onnx`) from the Hugging Face hub — on a machine with internet; for an
// air-gapped server, pull elsewhere and copy the directory. `runtime` (and the first `pull`)
// installs Transformers.js on ONNX Runtime, pinned by addons/local-embedder/, from the npm
// registry into the directory's `.runtime/`. The server itself never downloads anything.
// FOLIO_MODELS_HUB names another hub (a mirror, or a test's local server).

import { copyFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { FOLIO_PACKAGE_ROOT, localRuntimeLocation, resolveConfig } from '../../server/index.ts';
import { CliError, UsageError, action } from '../errors.ts';
import { runNpm } from '../run-npm.ts';
import { formatBytes } from '../../format/index.ts';
import { note, printTable, say } from '../output.ts';

/** Short names of the models Folio knows, and their ONNX repositories on the hub. */
export const KNOWN_MODELS: Readonly<Record<string, string>> = {
  'bge-small-en-v1.5': 'Xenova/bge-small-en-v1.5',
  'all-MiniLM-L6-v2': 'Xenova/all-MiniLM-L6-v2',
};
const DEFAULT_HUB = 'https://huggingface.co';
const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
const OPTIONAL_FILES = ['special_tokens_map.json'];
/** The ONNX file: 8-bit quantised by default (4× smaller, close in quality), full precision with --fp32. */
const ONNX_FILES = { q8: 'onnx/model_quantized.onnx', fp32: 'onnx/model.onnx' } as const;
const MODEL_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const REPOSITORY = /^[A-Za-z0-9_][A-Za-z0-9._-]*\/[A-Za-z0-9_][A-Za-z0-9._-]*$/;

interface ModelsOptions {
  data?: string;
  modelsDir?: string;
  addonsDir?: string;
}

/** The models and add-ons directories, as the server would resolve them. */
function directories(options: ModelsOptions): { modelsDir: string; addonsDir: string } {
  const { modelsDir, addonsDir } = resolveConfig({
    ...(options.data !== undefined && { data: options.data }),
    ...(options.modelsDir !== undefined && { modelsDir: options.modelsDir }),
    ...(options.addonsDir !== undefined && { addonsDir: options.addonsDir }),
  });
  return { modelsDir, addonsDir };
}

/** `bge-small-en-v1.5` or `org/name` → the repository and the local directory name. */
export function modelSource(name: string): { repository: string; directory: string } {
  const known = KNOWN_MODELS[name];
  if (known !== undefined) return { repository: known, directory: name };
  if (REPOSITORY.test(name)) return { repository: name, directory: name.split('/')[1] };
  throw new UsageError(`unknown model '${name}': name one of ${Object.keys(KNOWN_MODELS).join(', ')}, or a hub repository as org/name`);
}

async function download(url: string, file: string, required: boolean): Promise<number> {
  const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(10 * 60_000) });
  if (response.status === 404 && !required) {
    await response.body?.cancel();
    return 0;
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new CliError('download_failed', `${url} answered ${response.status}`);
  }
  mkdirSync(dirname(file), { recursive: true });
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(file));
  return statSync(file).size;
}

/** The manifests (package.json, lockfile) that pin the local embedder's runtime. */
const RUNTIME_MANIFESTS = join(FOLIO_PACKAGE_ROOT, 'addons', 'local-embedder');
const MANIFEST_FILES = ['package.json', 'package-lock.json'];

/** Installs the local embedder's runtime into `addonsDir` (again with `force`): complete or absent. */
async function installRuntime(addonsDir: string, force: boolean): Promise<void> {
  const { dir, installed } = await localRuntimeLocation(addonsDir);
  if (installed && !force) return note(`The local embedder's runtime is installed in ${dir} (--force installs it again).`);
  // Installed in a staging folder, then moved into place: the runtime is complete or absent.
  const staging = join(addonsDir, `.local-embedder-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging, { recursive: true });
  try {
    for (const file of MANIFEST_FILES) copyFileSync(join(RUNTIME_MANIFESTS, file), join(staging, file));
    say(`Installing the local embedder's runtime (Transformers.js on ONNX Runtime, about 450 MB) from npm into ${dir}…`);
    runNpm(['ci', '--omit=dev'], staging);
    mkdirSync(dir, { recursive: true });
    if (resolve(dir) !== resolve(RUNTIME_MANIFESTS)) for (const file of MANIFEST_FILES) copyFileSync(join(staging, file), join(dir, file));
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
    renameSync(join(staging, 'node_modules'), join(dir, 'node_modules'));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  say(`Installed in ${dir}: {"source":"local"} embedders can run.`);
}

async function runtime(options: ModelsOptions & { force?: boolean }): Promise<void> {
  await installRuntime(directories(options).addonsDir, options.force === true);
}

async function pull(name: string, options: ModelsOptions & { fp32?: boolean; force?: boolean }): Promise<void> {
  const { repository, directory } = modelSource(name);
  const { modelsDir, addonsDir } = directories(options);
  const target = join(modelsDir, directory);
  if (existsSync(target) && options.force !== true) throw new CliError('model_exists', `${target} exists already (--force replaces it)`);
  if (!(await localRuntimeLocation(addonsDir)).installed) await installRuntime(addonsDir, false);
  const hub = (process.env.FOLIO_MODELS_HUB ?? DEFAULT_HUB).replace(/\/$/, '');
  // Into a staging directory first: a model directory is complete or absent.
  const staging = join(modelsDir, `.pull-${directory}-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging, { recursive: true });
  try {
    let bytes = 0;
    const files = [...REQUIRED_FILES.map((file) => [file, true] as const), ...OPTIONAL_FILES.map((file) => [file, false] as const), [ONNX_FILES[options.fp32 === true ? 'fp32' : 'q8'], true] as const];
    for (const [file, required] of files) {
      say(`Fetching ${repository}/${file}…`);
      bytes += await download(`${hub}/${repository}/resolve/main/${file}`, join(staging, file), required);
    }
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    say(`Pulled ${repository} into ${target} (${formatBytes(bytes)}). Use it with {"source":"local","model":"${directory}"}.`);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

function directorySize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const entryPath = join(dir, entry.name);
    total += entry.isDirectory() ? directorySize(entryPath) : statSync(entryPath).size;
  }
  return total;
}

async function list(options: ModelsOptions): Promise<void> {
  const { modelsDir } = directories(options);
  const models = existsSync(modelsDir) ? readdirSync(modelsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && MODEL_NAME.test(entry.name)) : [];
  if (models.length === 0) return note(`No models in ${modelsDir}. Fetch one with 'folio models pull bge-small-en-v1.5'.`);
  printTable(['MODEL', 'SIZE'], models.map((entry) => [entry.name, formatBytes(directorySize(join(modelsDir, entry.name)))]));
}

export function registerModels(program: Command): void {
  const models = program.command('models').description('local embedding models (ONNX) for search by meaning');
  const where = (command: Command): Command =>
    command
      .option('-d, --data <dir>', 'data directory (env FOLIO_DATA_DIR, default ./folio-data)')
      .option('--models-dir <dir>', 'models directory (env FOLIO_MODELS_DIR, default <data>/models)')
      .option('--addons-dir <dir>', "where add-ons such as the local embedder's runtime are installed (env FOLIO_ADDONS_DIR, default <Folio>/addons)");
  where(
    models
      .command('pull')
      .description(`download a model from the Hugging Face hub: ${Object.keys(KNOWN_MODELS).join(', ')}, or org/name`)
      .argument('<model>', 'model name')
      .option('--fp32', 'the full-precision ONNX file instead of the 8-bit quantised one')
      .option('--force', 'replace a model of that name'),
  ).action(action(pull));
  where(models.command('list').description('models in the models directory')).action(action(list));
  where(
    models
      .command('runtime')
      .description("install the local embedder's runtime (Transformers.js on ONNX Runtime) from npm into the models directory")
      .option('--force', 'install it again'),
  ).action(action(runtime));
}
