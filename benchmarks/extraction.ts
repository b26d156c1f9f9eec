// File extraction benchmark (`npm run bench:extraction`): pages per second for text PDFs and
// seconds per OCR page (scanned PDF pages and a PNG image), for Folio in process (the extract
// module's compiled `extractFile`, each input in a child process of its own: see
// extraction-in-process.mjs; `npm run build` first) and end to end through a
// real server (`POST /v1/collections/{c}/files`), next to peers in the same run when they are
// installed: `pdftotext` (poppler-utils) for the text PDF, `pdftoppm` + the `tesseract` CLI for
// OCR. The inputs are made at run time (extraction-inputs.ts): a text PDF of N pages, a
// scanned PDF of M image-only pages and one PNG page. OCR is also scored by words read right.
// Options: --pages N text-PDF pages (200), --scanned-pages M (5), --runs R timed runs of the
// text PDF and the PNG (3), --smoke (5 text pages, one short scanned page, one run),
// --peers pdftotext,tesseract (or none), --skip-server, --keep DIR (write the inputs to DIR
// and keep them), --profile DIR (the in-process children run under --cpu-prof; prints where
// their time goes).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir, totalmem } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { formatSummary, readProfile, summariseProfile } from './cpu-profile-summary.ts';
import { greyPng, paragraphSource, renderScans, textPdfPages, wordAccuracy, wordsOf } from './extraction-inputs.ts';
import type { ScanLayout, ScannedPage, WordAccuracy } from './extraction-inputs.ts';
import { LETTER, scannedPdf, textPdf } from './extraction-pdf-writer.ts';
import { count, markdownTable, mib, ms } from './markdown-table.ts';
import { RESULT_PREFIX } from './peer-process.ts';
import { peakRssBytes } from './proc-memory.ts';
import { startServerProcess } from './server-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string' },
    'scanned-pages': { type: 'string' },
    runs: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    peers: { type: 'string', default: 'pdftotext,tesseract' },
    'skip-server': { type: 'boolean', default: false },
    keep: { type: 'string' },
    profile: { type: 'string' },
  },
});

function wholeOption(value: string | undefined, fallback: number, name: string): number {
  const parsed = value === undefined ? fallback : Number(value);
  if (!(Number.isInteger(parsed) && parsed >= 1)) throw new Error(`--${name} expects a whole number ≥ 1, got '${value}'`);
  return parsed;
}

const smoke = args.smoke;
const TEXT_PAGES = wholeOption(args.pages, smoke ? 5 : 200, 'pages');
const SCANNED_PAGES = wholeOption(args['scanned-pages'], smoke ? 1 : 5, 'scanned-pages');
const RUNS = wholeOption(args.runs, smoke ? 1 : 3, 'runs');
const PEERS = new Set(args.peers.split(',').map((p) => p.trim()).filter((p) => p !== '' && p !== 'none'));
for (const peer of PEERS) if (peer !== 'pdftotext' && peer !== 'tesseract') throw new Error(`--peers: unknown peer '${peer}' (known: pdftotext, tesseract, none)`);
/** Scans: 300 dpi, 11 pt text; a smoke run draws a short strip of a page (a few lines). */
const SCAN_LAYOUT: ScanLayout = { dpi: 300, widthPt: LETTER.widthPt, heightPt: smoke ? 144 : LETTER.heightPt, fontPt: 11 };
const MASTER_KEY = 'folio_' + 'e'.repeat(40);
const AUTH = { authorization: `Bearer ${MASTER_KEY}` };
const COLLECTION = 'files';

// ---- inputs -----------------------------------------------------------------------------
interface Inputs {
  source: string;
  textPdf: string;
  textPages: string[][];
  scannedPdf: string;
  /** The scanned PDF's first page alone: the warm-up for the scanned runs. */
  scannedWarmUp: string;
  scans: ScannedPage[];
  /** The first scanned page as a PNG: the same pixels, without pdf.js in the way. */
  png: string;
  /** Another PNG page (the next page of text): the warm-up for the PNG runs. */
  pngWarmUp: string;
  bytes: Record<'textPdf' | 'scannedPdf' | 'png', number>;
}

function makeInputs(dir: string): Inputs {
  const paragraphs = paragraphSource();
  const textPages = textPdfPages(paragraphs, TEXT_PAGES);
  const scans = renderScans(paragraphs, SCANNED_PAGES + 1, SCAN_LAYOUT);
  const spare = scans.pop()!;
  const files = {
    textPdf: join(dir, 'text.pdf'),
    scannedPdf: join(dir, 'scanned.pdf'),
    scannedWarmUp: join(dir, 'scanned-warm-up.pdf'),
    png: join(dir, 'page.png'),
    pngWarmUp: join(dir, 'page-warm-up.png'),
  };
  writeFileSync(files.textPdf, textPdf(textPages));
  writeFileSync(files.scannedPdf, scannedPdf(scans.map((scan) => scan.image)));
  writeFileSync(files.scannedWarmUp, scannedPdf([scans[0].image]));
  writeFileSync(files.png, greyPng(scans[0].image));
  writeFileSync(files.pngWarmUp, greyPng(spare.image));
  const size = (file: string): number => statSync(file).size;
  return {
    source: paragraphs.source,
    textPages,
    scans,
    ...files,
    bytes: { textPdf: size(files.textPdf), scannedPdf: size(files.scannedPdf), png: size(files.png) },
  };
}

const joinLines = (lines: readonly string[]): string => lines.join('\n');

/** Known words of all pages against all extracted pages (a multiset: page breaks do not matter). */
function pagesAccuracy(known: readonly string[], found: readonly string[]): WordAccuracy {
  return wordAccuracy(known.join('\n'), found.join('\n'));
}

// ---- measurements -----------------------------------------------------------------------
/** What extraction-in-process.mjs is given and answers. */
interface ExtractionChildInput {
  file: string;
  /** Extracted once before the timed runs; its time, start-up included, is `firstMs`. */
  warmUpFile: string;
  runs: number;
}

interface ExtractionChildResult {
  firstMs: number;
  /** One entry per timed run: wall time, and CPU time of the whole process (all its threads). */
  runMs: number[];
  runCpuMs: number[];
  pages: number;
  /** The pages' text from the last run. */
  texts: string[];
  peakRssBytes: number | null;
}

/** One row: `pages` pages read `runs` times. */
interface Measured {
  tool: string;
  pages: number;
  /** Wall-clock milliseconds per run: the median of the timed runs. */
  runMs: number;
  /**
   * CPU milliseconds per run (user + system, every thread of the process), the median: what
   * the work costs even when other processes share the cores.
   */
  cpuMs: number | null;
  runs: number;
  accuracy: WordAccuracy | null;
  peakRss: number | null;
  notes: string;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function runInProcess(input: ExtractionChildInput): ExtractionChildResult {
  const nodeArgs = args.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${args.profile}`];
  const argument = JSON.stringify({ ...input, resultPrefix: RESULT_PREFIX });
  const child = spawnSync(process.execPath, [...nodeArgs, 'benchmarks/extraction-in-process.mjs', argument], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (child.status !== 0 || line === undefined) throw new Error(`extraction-in-process.mjs exited with ${child.status ?? child.signal}:\n${child.stderr}${child.stdout}`);
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as ExtractionChildResult;
}

function inProcessRow(tool: string, result: ExtractionChildResult, known: readonly string[] | null, firstWhat: string): Measured {
  return {
    tool,
    pages: result.pages,
    runMs: median(result.runMs),
    cpuMs: median(result.runCpuMs),
    runs: result.runMs.length,
    accuracy: known === null ? null : pagesAccuracy(known, result.texts),
    peakRss: result.peakRssBytes,
    notes: `first call ${ms(result.firstMs / 1000, 2)} s (${firstWhat}); peak RSS of its own process`,
  };
}

interface Upload {
  ms: number;
  /** CPU time the server process spent meanwhile, or null without /proc. */
  cpuMs: number | null;
  pages: number;
}

let clockTicks: number | null = null;

/** CPU time (user + system, all threads) a process has used so far, from /proc; null without it. */
function processCpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
  // Fields after the command name: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

interface ServerMeasurement {
  text: Upload[];
  scanned: Upload[];
  png: Upload[];
  firstMs: { text: number; scanned: number; png: number };
  /** The stored text of the last upload of each. */
  stored: { text: string; scanned: string; png: string };
  /** The server's VmHWM after each kind's uploads (text PDF, then PNG, then scanned PDF). */
  peakRss: { text: number | null; png: number | null; scanned: number | null };
}

async function measureServer(inputs: Inputs, scratch: string): Promise<ServerMeasurement> {
  const server = await startServerProcess(join(scratch, 'folio'), MASTER_KEY);
  const call = async (method: string, path: string, body?: FormData | string): Promise<any> => {
    const headers: Record<string, string> = { ...AUTH };
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    const response = await fetch(server.url + path, { method, headers, body });
    const json = await response.json().catch(() => null);
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const upload = async (file: string, id: string, type: string): Promise<Upload> => {
    const form = new FormData();
    form.append('id', id);
    form.append('file', new Blob([readFileSync(file)], { type }), basename(file));
    const cpuBefore = processCpuMs(server.child.pid!);
    const started = performance.now();
    const summary = (await call('POST', `/v1/collections/${COLLECTION}/files`, form)) as { pages: number | null };
    const elapsed = performance.now() - started;
    const cpuAfter = processCpuMs(server.child.pid!);
    return { ms: elapsed, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, pages: summary.pages ?? 0 };
  };
  const storedText = async (id: string): Promise<string> => ((await call('GET', `/v1/collections/${COLLECTION}/documents/${id}`)) as { text: string }).text;
  try {
    await call('POST', '/v1/collections', JSON.stringify({ name: COLLECTION, language: 'english' }));
    const timed = async (file: string, warmUp: string, type: string, runs: number, prefix: string): Promise<{ first: number; uploads: Upload[] }> => {
      const first = (await upload(warmUp, `${prefix}-warm-up`, type)).ms;
      const uploads: Upload[] = [];
      for (let run = 1; run <= runs; run++) uploads.push(await upload(file, `${prefix}-${run}`, type));
      return { first, uploads };
    };
    const peak = (): number | null => peakRssBytes(server.child.pid!);
    const text = await timed(inputs.textPdf, inputs.textPdf, 'application/pdf', RUNS, 'text');
    const textPeak = peak();
    const png = await timed(inputs.png, inputs.pngWarmUp, 'image/png', RUNS, 'png');
    const pngPeak = peak();
    const scanned = await timed(inputs.scannedPdf, inputs.scannedWarmUp, 'application/pdf', 1, 'scanned');
    return {
      text: text.uploads,
      png: png.uploads,
      scanned: scanned.uploads,
      firstMs: { text: text.first, png: png.first, scanned: scanned.first },
      stored: { text: await storedText(`text-${RUNS}`), scanned: await storedText('scanned-1'), png: await storedText(`png-${RUNS}`) },
      peakRss: { text: textPeak, png: pngPeak, scanned: peak() },
    };
  } finally {
    await server.stop();
  }
}

function serverRow(tool: string, uploads: Upload[], accuracy: WordAccuracy | null, peakRss: number | null, notes: string): Measured {
  const cpu = uploads.map((u) => u.cpuMs);
  return {
    tool,
    pages: uploads[0].pages,
    runMs: median(uploads.map((u) => u.ms)),
    cpuMs: cpu.includes(null) ? null : median(cpu as number[]),
    runs: uploads.length,
    accuracy,
    peakRss,
    notes,
  };
}

// ---- peers: command-line tools ----------------------------------------------------------
function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

const GNU_TIME = '/usr/bin/time';

interface CommandRun {
  ms: number;
  /** User + system CPU time and peak RSS, through GNU time (null without it). */
  cpuMs: number | null;
  peakRss: number | null;
  stdout: string;
}

/** Runs a command to its end; CPU time and peak RSS through GNU time when it is installed. */
function runCommand(command: string, commandArgs: string[], scratch: string, env: NodeJS.ProcessEnv = process.env): CommandRun {
  const usageFile = join(scratch, 'time-usage.txt');
  const withTime = existsSync(GNU_TIME);
  const [file, fileArgs] = withTime ? [GNU_TIME, ['-f', '%M %U %S', '-o', usageFile, command, ...commandArgs]] : [command, commandArgs];
  const started = performance.now();
  const run = spawnSync(file, fileArgs, { encoding: 'utf8', env, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  const elapsed = performance.now() - started;
  if (run.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed (${run.status ?? run.signal}):\n${run.stderr}`);
  if (!withTime) return { ms: elapsed, cpuMs: null, peakRss: null, stdout: run.stdout };
  const [kib, user, system] = readFileSync(usageFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { ms: elapsed, cpuMs: (user + system) * 1000, peakRss: kib * 1024, stdout: run.stdout };
}

/** Commands run one after the other, as one run: times added, the larger peak RSS. */
function sequence(runs: readonly CommandRun[]): CommandRun {
  const cpu = runs.map((r) => r.cpuMs);
  return {
    ms: runs.reduce((sum, r) => sum + r.ms, 0),
    cpuMs: cpu.includes(null) ? null : (cpu as number[]).reduce((sum, c) => sum + c, 0),
    peakRss: Math.max(...runs.map((r) => r.peakRss ?? Number.NaN)),
    stdout: runs.map((r) => r.stdout).join('\n'),
  };
}

/** A row of timed runs of a command: medians of their times, the largest peak RSS. */
function commandRow(tool: string, pages: number, runs: readonly CommandRun[], known: string, notes: string): Measured {
  const cpu = runs.map((r) => r.cpuMs);
  const peakRss = Math.max(...runs.map((r) => r.peakRss ?? Number.NaN));
  return {
    tool,
    pages,
    runMs: median(runs.map((r) => r.ms)),
    cpuMs: cpu.includes(null) ? null : median(cpu as number[]),
    runs: runs.length,
    accuracy: wordAccuracy(known, runs[runs.length - 1].stdout),
    peakRss: Number.isNaN(peakRss) ? null : peakRss,
    notes,
  };
}

function pdftotextRow(inputs: Inputs, scratch: string): Measured {
  const read = (): CommandRun => runCommand('pdftotext', ['-enc', 'UTF-8', inputs.textPdf, '-'], scratch);
  read(); // warm-up: the file in the page cache, the binary loaded
  const version = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' }).stderr.split('\n')[0];
  const known = inputs.textPages.map(joinLines).join('\n');
  return commandRow('pdftotext (poppler)', inputs.textPages.length, Array.from({ length: RUNS }, read), known, `${version}; one process per run, start-up included`);
}

/** Folio's OCR model (tesseract.js's eng, 4.0.0_best_int) unpacked for the tesseract CLI. */
function folioModelDir(scratch: string): string {
  const root = dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json'));
  const dir = join(scratch, 'tessdata-best-int');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'eng.traineddata'), gunzipSync(readFileSync(join(root, '4.0.0_best_int', 'eng.traineddata.gz'))));
  return dir;
}

interface TesseractModel {
  name: string;
  /** `--tessdata-dir`, or null for the system's own eng model. */
  dir: string | null;
}

/** `tesseract IMAGE stdout` on one thread (as Folio's one extraction worker runs). */
function tesseract(image: string, model: TesseractModel, scratch: string): CommandRun {
  const modelArgs = model.dir === null ? [] : ['--tessdata-dir', model.dir];
  return runCommand('tesseract', [...modelArgs, image, 'stdout', '-l', 'eng'], scratch, { ...process.env, OMP_THREAD_LIMIT: '1' });
}

function tesseractRows(inputs: Inputs, scratch: string): { scanned: Measured[]; png: Measured[] } {
  const models: TesseractModel[] = [
    { name: 'eng 4.0.0_best_int, Folio\'s model', dir: folioModelDir(scratch) },
    { name: 'Debian\'s eng model', dir: null },
  ];
  const version = spawnSync('tesseract', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  const scanned: Measured[] = [];
  const png: Measured[] = [];
  const knownPng = joinLines(inputs.scans[0].lines);
  const knownScans = inputs.scans.map((scan) => joinLines(scan.lines)).join('\n');
  for (const model of models) {
    tesseract(inputs.pngWarmUp, model, scratch); // warm-up: binary and model in the page cache
    const pngRuns = Array.from({ length: RUNS }, () => tesseract(inputs.png, model, scratch));
    png.push(commandRow(`${version} CLI (${model.name})`, 1, pngRuns, knownPng, 'OMP_THREAD_LIMIT=1; one process per page, start-up and model load included'));
    if (!hasCommand('pdftoppm')) continue;
    const prefix = join(scratch, 'pdftoppm-page');
    const render = runCommand('pdftoppm', ['-r', String(SCAN_LAYOUT.dpi), '-gray', inputs.scannedPdf, prefix], scratch);
    const pageImages = readdirSync(scratch).filter((name) => name.startsWith('pdftoppm-page') && name.endsWith('.pgm')).sort();
    const reads = pageImages.map((name) => tesseract(join(scratch, name), model, scratch));
    for (const name of pageImages) rmSync(join(scratch, name));
    const renderNote = `pdftoppm ${ms(render.ms / reads.length / 1000, 2)} s a page of it; OMP_THREAD_LIMIT=1`;
    scanned.push(commandRow(`pdftoppm ${SCAN_LAYOUT.dpi} dpi + tesseract CLI (${model.name})`, reads.length, [sequence([render, ...reads])], knownScans, renderNote));
  }
  return { scanned, png };
}

// ---- output -----------------------------------------------------------------------------
function accuracyCell(accuracy: WordAccuracy | null): string {
  if (accuracy === null) return '—';
  return `${(accuracy.right / Math.max(1, accuracy.known) * 100).toFixed(1)} % (${count(accuracy.right)} / ${count(accuracy.known)})`;
}

function textRow(row: Measured): string[] {
  const pagesPerSecond = row.pages / (row.runMs / 1000);
  const cpu = row.cpuMs === null ? '—' : ms(row.cpuMs / row.pages, 2);
  return [row.tool, count(row.pages), pagesPerSecond.toFixed(pagesPerSecond < 100 ? 1 : 0), ms(row.runMs / row.pages, 2), cpu, accuracyCell(row.accuracy), mib(row.peakRss), row.notes];
}

function ocrRow(row: Measured): string[] {
  const cpu = row.cpuMs === null ? '—' : ms(row.cpuMs / row.pages / 1000, 2);
  return [row.tool, count(row.pages), String(row.runs), ms(row.runMs / row.pages / 1000, 2), cpu, accuracyCell(row.accuracy), mib(row.peakRss), row.notes];
}

function printProfiles(dir: string): void {
  console.log(`\n## CPU profiles of the in-process runs (${dir})`);
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.cpuprofile')).sort()) {
    console.log(`\n### ${name}\n`);
    console.log(formatSummary(summariseProfile(readProfile(join(dir, name)), null, 12)));
  }
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'folio-bench-extraction-'));
  const inputDir = args.keep ?? join(scratch, 'inputs');
  mkdirSync(inputDir, { recursive: true });
  if (args.profile !== undefined) mkdirSync(args.profile, { recursive: true });
  try {
    const cpu = cpus();
    console.error('[extraction] making the inputs…');
    const inputs = makeInputs(inputDir);
    const scanPixels = `${inputs.scans[0].image.width} × ${inputs.scans[0].image.height}`;
    console.log('# File extraction benchmark\n');
    console.log(
      `${new Date().toISOString().slice(0, 10)}; ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. ` +
        `Text: ${inputs.source}. Text PDF: ${count(TEXT_PAGES)} Letter pages of 10 pt Helvetica (${mib(inputs.bytes.textPdf)} MiB, ` +
        `${count(wordsOf(inputs.textPages.map(joinLines).join('\n')).length / TEXT_PAGES)} words a page). ` +
        `Scanned PDF: ${SCANNED_PAGES} image-only page(s), 8-bit grey ${scanPixels} px at ${SCAN_LAYOUT.dpi} dpi, 11 pt Liberation Sans (${mib(inputs.bytes.scannedPdf)} MiB). ` +
        `PNG: its first page (${mib(inputs.bytes.png)} MiB). ${RUNS} timed run(s) after a warm-up; times are medians.`,
    );

    console.error('[extraction] Folio in process: text PDF…');
    const knownText = inputs.textPages.map(joinLines);
    const knownScans = inputs.scans.map((scan) => joinLines(scan.lines));
    const textRows: Measured[] = [
      inProcessRow('**Folio** `extractFile` in process', runInProcess({ file: inputs.textPdf, warmUpFile: inputs.textPdf, runs: RUNS }), knownText, 'the same file, pdf.js loading included'),
    ];
    console.error('[extraction] Folio in process: scanned PDF…');
    const scannedRows: Measured[] = [
      inProcessRow('**Folio** `extractFile` in process', runInProcess({ file: inputs.scannedPdf, warmUpFile: inputs.scannedWarmUp, runs: 1 }), knownScans, 'its first page alone, tesseract start-up included'),
    ];
    console.error('[extraction] Folio in process: PNG…');
    const pngRows: Measured[] = [
      inProcessRow('**Folio** `extractFile` in process', runInProcess({ file: inputs.png, warmUpFile: inputs.pngWarmUp, runs: RUNS }), [joinLines(inputs.scans[0].lines)], 'another page, tesseract start-up included'),
    ];

    if (!args['skip-server']) {
      console.error('[extraction] Folio server: uploads…');
      const server = await measureServer(inputs, scratch);
      const first = (what: number): string => `first upload ${ms(what / 1000, 2)} s`;
      const serverNote = 'peak RSS: VmHWM of the server so far (uploads in this order: text PDF, PNG, scanned PDF)';
      textRows.push(serverRow('**Folio** server, `POST …/files`', server.text, pagesAccuracy(knownText, [server.stored.text]), server.peakRss.text, `${first(server.firstMs.text)}; ${serverNote}`));
      scannedRows.push(serverRow('**Folio** server, `POST …/files`', server.scanned, pagesAccuracy(knownScans, [server.stored.scanned]), server.peakRss.scanned, `${first(server.firstMs.scanned)} (one page); ${serverNote}`));
      pngRows.push(serverRow('**Folio** server, `POST …/files`', server.png, wordAccuracy(knownScans[0], server.stored.png), server.peakRss.png, `${first(server.firstMs.png)}; ${serverNote}`));
    }

    const notes: string[] = [];
    if (PEERS.has('pdftotext')) {
      if (hasCommand('pdftotext')) {
        console.error('[extraction] pdftotext…');
        textRows.push(pdftotextRow(inputs, scratch));
      } else notes.push('pdftotext is not installed (apt-get install poppler-utils): no text-PDF peer.');
    }
    if (PEERS.has('tesseract')) {
      if (hasCommand('tesseract')) {
        console.error('[extraction] tesseract CLI…');
        const peers = tesseractRows(inputs, scratch);
        scannedRows.push(...peers.scanned);
        pngRows.push(...peers.png);
        if (peers.scanned.length === 0) notes.push('pdftoppm is not installed (apt-get install poppler-utils): no scanned-PDF peer.');
      } else notes.push('tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng): no OCR peer.');
    }

    console.log(`\n## Text PDF: ${count(TEXT_PAGES)} pages\n`);
    console.log(markdownTable(['tool', 'pages', 'pages/s', 'ms/page', 'CPU ms/page', 'words right', 'peak RSS MiB', 'notes'], textRows.map(textRow)));
    const ocrHeader = ['tool', 'pages', 'runs', 's/page', 'CPU s/page', 'words right', 'peak RSS MiB', 'notes'];
    console.log(`\n## OCR: scanned PDF, ${SCANNED_PAGES} page(s) at ${SCAN_LAYOUT.dpi} dpi\n`);
    console.log(markdownTable(ocrHeader, scannedRows.map(ocrRow)));
    console.log('\n## OCR: PNG image, one page\n');
    console.log(markdownTable(ocrHeader, pngRows.map(ocrRow)));
    for (const note of notes) console.log(`\n${note}`);
    if (args.profile !== undefined) printProfiles(args.profile);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
