// Summarises a V8 CPU profile (`node --cpu-prof`): self time per function and per source
// file, and total (inclusive) time per function, optionally only for samples inside a time
// window. The window is in microseconds of
// the monotonic clock that both the profile and `process.hrtime.bigint()` use, so a benchmark
// can record when each of its phases ran and read each phase's costs from one profile.
// As a command: `tsx benchmarks/cpu-profile-summary.ts FILE.cpuprofile [--from µs] [--to µs]
// [--top N]` prints the tables as Markdown.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { markdownTable } from './markdown-table.ts';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface TimeWindow {
  fromMicros: number;
  toMicros: number;
}

export interface SelfTime {
  name: string;
  micros: number;
  share: number;
}

export interface ProfileSummary {
  /** Sampled time inside the window, idle included. */
  totalMicros: number;
  idleMicros: number;
  byFunction: SelfTime[];
  byFile: SelfTime[];
  /** Time with the function anywhere on the stack (counted once per sample). */
  inclusive: SelfTime[];
}

const ROOT_URL = new URL('..', import.meta.url).href;

/** A short location: project files relative to the root, packages by their node_modules path. */
function shortUrl(url: string): string {
  if (url === '') return '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  if (url.startsWith(ROOT_URL)) return url.slice(ROOT_URL.length);
  return url.replace(/^file:\/\//, '');
}

function ranked(totals: Map<string, number>, busy: number, top: number): SelfTime[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => ({ name, micros, share: busy > 0 ? micros / busy : 0 }));
}

export function summariseProfile(profile: CpuProfile, window: TimeWindow | null = null, top = 20): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const label = (node: ProfileNode): string => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || '(anonymous)'} ${shortUrl(url)}${lineNumber > 0 ? `:${lineNumber + 1}` : ''}`;
  };
  const functions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const files = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i];
    // A sample's time runs until the next one (the last gets the profile's end).
    const next = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : profile.endTime - time;
    if (window !== null && (time < window.fromMicros || time > window.toMicros)) continue;
    const node = byId.get(profile.samples[i])!;
    total += next;
    if (node.callFrame.functionName === '(idle)') {
      idle += next;
      continue;
    }
    const file = shortUrl(node.callFrame.url);
    const name = label(node);
    functions.set(name, (functions.get(name) ?? 0) + next);
    files.set(file, (files.get(file) ?? 0) + next);
    const onStack = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) onStack.add(label(byId.get(id)!));
    for (const entry of onStack) inclusive.set(entry, (inclusive.get(entry) ?? 0) + next);
  }
  const busy = total - idle;
  for (const root of ['(root) (native)']) inclusive.delete(root);
  return {
    totalMicros: total,
    idleMicros: idle,
    byFunction: ranked(functions, busy, top),
    byFile: ranked(files, busy, top),
    inclusive: ranked(inclusive, busy, top),
  };
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** The tables as Markdown; shares are of the busy (non-idle) time. */
export function formatSummary(summary: ProfileSummary): string {
  const busyMs = (summary.totalMicros - summary.idleMicros) / 1000;
  const rows = (list: SelfTime[]): string[][] =>
    list.map((entry) => [`\`${entry.name}\``, (entry.micros / 1000).toFixed(0), `${(entry.share * 100).toFixed(1)} %`]);
  return [
    `Sampled ${(summary.totalMicros / 1000).toFixed(0)} ms, busy ${busyMs.toFixed(0)} ms (idle ${(summary.idleMicros / 1000).toFixed(0)} ms).`,
    '',
    markdownTable(['function (self time)', 'ms', 'share of busy'], rows(summary.byFunction)),
    '',
    markdownTable(['file (self time)', 'ms', 'share of busy'], rows(summary.byFile)),
    '',
    markdownTable(['function (total time, callees included)', 'ms', 'share of busy'], rows(summary.inclusive)),
  ].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { from: { type: 'string' }, to: { type: 'string' }, top: { type: 'string', default: '20' } },
  });
  if (positionals.length !== 1) {
    console.error('usage: cpu-profile-summary.ts FILE.cpuprofile [--from µs] [--to µs] [--top N]');
    process.exit(2);
  }
  const window =
    values.from === undefined && values.to === undefined
      ? null
      : { fromMicros: Number(values.from ?? -Infinity), toMicros: Number(values.to ?? Infinity) };
  console.log(formatSummary(summariseProfile(readProfile(positionals[0]), window, Number(values.top))));
}
