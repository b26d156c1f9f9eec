// `folio ocr add|list|remove`: the languages OCR reads images and scanned pages in. English
// ships with Folio; `add` installs others from their npm packages (@tesseract.js-data/<code>,
// Tesseract's LSTM models) into the add-ons' `tessdata` folder (`--addons-dir`, default
// `<Folio>/addons`), where English is copied too so that languages combine (`deu+eng`). A
// running server sees them at once (docs/api.md, "OCR languages"). No server is needed.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { ocrLanguageFiles, resolveConfig } from '../../server/index.ts';
import { CliError, UsageError, action } from '../errors.ts';
import { note, printTable, say } from '../output.ts';
import { runNpm } from '../run-npm.ts';

/** The version of the @tesseract.js-data packages, pinned. */
const DATA_PACKAGE_VERSION = '1.0.0';

interface OcrOptions {
  addonsDir?: string;
  force?: boolean;
}

function addonsDirectory(options: OcrOptions): string {
  return resolveConfig(options.addonsDir !== undefined ? { addonsDir: options.addonsDir } : {}).addonsDir;
}

/** Fetches one language's package from the npm registry and takes its model out of it, into `dataDir`. */
function installLanguage(language: string, dataDir: string, packageFile: string): void {
  const staging = mkdtempSync(join(dataDir, `.add-${language}-`));
  try {
    runNpm(['pack', `@tesseract.js-data/${language}@${DATA_PACKAGE_VERSION}`, '--pack-destination', staging], staging, { captureOutput: true });
    const tarball = readdirSync(staging).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new CliError('npm_failed', `npm pack gave no file for @tesseract.js-data/${language}`);
    const untar = spawnSync('tar', ['-xzf', join(staging, tarball), '-C', staging, packageFile], { encoding: 'utf8' });
    if (untar.status !== 0) throw new CliError('ocr_data_missing', `@tesseract.js-data/${language} has no ${packageFile}: ${untar.stderr.trim() || untar.error?.message}`);
    renameSync(join(staging, packageFile), join(dataDir, `${language}.traineddata.gz`));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function add(languages: string[], options: OcrOptions): Promise<void> {
  const files = await ocrLanguageFiles(addonsDirectory(options));
  const bad = languages.filter((language) => !files.isLanguageCode(language));
  if (bad.length > 0) throw new UsageError(`not a Tesseract language code: ${bad.join(', ')} (three letters, as deu, fra, jpn, or with a variant, as chi_sim)`);
  mkdirSync(files.dataDir, { recursive: true });
  // English beside the others, so that a file can be read in several at once (deu+eng).
  const english = join(files.dataDir, `${files.bundled.language}.traineddata.gz`);
  if (!existsSync(english)) copyFileSync(files.bundled.file, english);
  for (const language of new Set(languages)) {
    if (language === files.bundled.language || (files.installed.includes(language) && options.force !== true)) {
      note(`${language} is installed already${language === files.bundled.language ? ' (it ships with Folio)' : ' (--force installs it again)'}.`);
      continue;
    }
    say(`Installing OCR language ${language} (@tesseract.js-data/${language}) from npm into ${files.dataDir}…`);
    installLanguage(language, files.dataDir, files.packageFile(language));
  }
  say(`OCR languages: ${(await ocrLanguageFiles(addonsDirectory(options))).installed.join(', ')}. Use them with {"ocr_languages":["${languages[0]}","eng"]} on a collection, or the ocr_languages form part of an upload.`);
}

async function list(options: OcrOptions): Promise<void> {
  const files = await ocrLanguageFiles(addonsDirectory(options));
  printTable(['LANGUAGE', 'FROM'], files.installed.map((language) => [language, language === files.bundled.language ? 'Folio' : files.dataDir]));
}

async function remove(languages: string[], options: OcrOptions): Promise<void> {
  const files = await ocrLanguageFiles(addonsDirectory(options));
  for (const language of languages) {
    if (language === files.bundled.language) throw new UsageError(`${language} ships with Folio and cannot be removed`);
    if (!files.isLanguageCode(language) || !files.installed.includes(language)) throw new CliError('not_installed', `OCR language '${language}' is not installed`);
    rmSync(join(files.dataDir, `${language}.traineddata.gz`), { force: true });
    say(`Removed ${language}. Collections that name it are refused their uploads until it is added again.`);
  }
  if (existsSync(files.dataDir) && readdirSync(files.dataDir).length === 0) rmSync(files.dataDir, { recursive: true, force: true });
}

export function registerOcr(program: Command): void {
  const ocr = program.command('ocr').description('the languages OCR reads images and scanned pages in');
  const where = (command: Command): Command =>
    command.option('--addons-dir <dir>', 'where add-ons are installed (env FOLIO_ADDONS_DIR, default <Folio>/addons)');
  where(
    ocr
      .command('add')
      .description('install OCR languages from npm (@tesseract.js-data/<code>): deu, fra, spa, ita, por, nld, jpn, chi_sim, kor, rus, …')
      .argument('<languages...>', 'Tesseract language codes')
      .option('--force', 'install them again'),
  ).action(action(add));
  where(ocr.command('list').description('the OCR languages installed')).action(action(list));
  where(ocr.command('remove').description('remove installed OCR languages').argument('<languages...>', 'Tesseract language codes')).action(action(remove));
}
