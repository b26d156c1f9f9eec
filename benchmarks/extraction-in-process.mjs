// One in-process measurement of the extraction benchmark (extraction.ts runs it), in a child
// process of its own so its peak RSS is its own. It runs the compiled extract module
// (`dist/`, as the server does) under plain Node: loaded through tsx, pdf.js alone costs about
// 350 MiB more resident memory. Through the module's public API (`extractFile`) it extracts a
// warm-up file once (loads pdf.js, starts the tesseract worker), then the measured file `runs`
// times, one after the other.
// Input: one JSON argument { file, warmUpFile, runs, resultPrefix }. Output: one line,
// resultPrefix + JSON { firstMs, runMs[], runCpuMs[], pages, texts[] (last run), peakRssBytes }.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const input = JSON.parse(process.argv[2] ?? '{}');
const { extractFile } = await import(new URL('../dist/extract/index.js', import.meta.url).href);
const warmUp = readFileSync(input.warmUpFile);
const bytes = readFileSync(input.file);
let started = performance.now();
await extractFile(warmUp, basename(input.warmUpFile));
const firstMs = performance.now() - started;
const runMs = [];
const runCpuMs = [];
let texts = [];
for (let run = 0; run < input.runs; run++) {
  const cpu = process.cpuUsage(); // the whole process: the tesseract worker thread included
  started = performance.now();
  const extraction = await extractFile(bytes, basename(input.file));
  runMs.push(performance.now() - started);
  const used = process.cpuUsage(cpu);
  runCpuMs.push((used.user + used.system) / 1000);
  texts = extraction.pages.map((page) => page.text);
}
// maxRSS is the peak resident set size in KiB (getrusage), as VmHWM counts it.
const result = { firstMs, runMs, runCpuMs, pages: texts.length, texts, peakRssBytes: process.resourceUsage().maxRSS * 1024 };
// The idle tesseract worker is unref'd, but pdf.js may keep handles: end once the line is out
// (a pipe takes 64 KiB at once; the rest is written asynchronously).
process.stdout.write(`${input.resultPrefix}${JSON.stringify(result)}\n`, () => process.exit(0));
