// Progress of `folio index` on standard error: on a terminal, one bar redrawn in place (files
// done of total, bytes, pages read, files a second, time left, failures, the file being
// sent); otherwise (a log, a pipe) a plain line every few seconds, so CI logs show the run is
// alive without filling up.

import { formatBytes } from '../format/index.ts';
import type { Stream } from './output.ts';

export interface ProgressCounts {
  /** Files finished, failed ones included. */
  done: number;
  failed: number;
  total: number;
  /** Bytes of the finished files, and of all. */
  bytesDone: number;
  bytesTotal: number;
  /** Pages of the documents indexed so far. */
  pages: number;
  /** The file started last, or ''. */
  current: string;
}

/** How often a bar is redrawn at most, and how often its rate is refreshed when idle. */
const REDRAW_MS = 100;
const IDLE_REDRAW_MS = 500;
/** How often a plain progress line is written. */
const PLAIN_INTERVAL_MS = 5_000;
const BAR_WIDTH = 30;
const MIN_BAR_WIDTH = 10;
/** Assumed when the terminal does not say its width. */
const DEFAULT_COLUMNS = 80;
const CLEAR_LINE = '\r\x1b[K';

/** `1:05` or `1:02:05`. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/**
 * `12/40 files, 3.5 MiB/10.0 MiB, 57 pages, 3.2 files/s, 0:12 left, 1 failed · docs/guide.md`:
 * the time left from the bytes still to send at the rate so far.
 */
export function progressText(counts: ProgressCounts, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (counts.done * 1000) / elapsedMs : 0;
  const bytesRate = elapsedMs > 0 ? (counts.bytesDone * 1000) / elapsedMs : 0;
  const left = bytesRate > 0 && counts.done < counts.total ? `, ${formatClock((counts.bytesTotal - counts.bytesDone) / bytesRate)} left` : '';
  const failed = counts.failed > 0 ? `, ${counts.failed} failed` : '';
  const current = counts.current === '' || counts.done === counts.total ? '' : ` · ${counts.current}`;
  const bytes = `${formatBytes(counts.bytesDone)}/${formatBytes(counts.bytesTotal)}`;
  return `${counts.done}/${counts.total} files, ${bytes}, ${counts.pages} pages, ${rate.toFixed(1)} files/s${left}${failed}${current}`;
}

/** `[██████░░░░]`: the finished share of `width` cells. */
export function progressBar(counts: ProgressCounts, width: number = BAR_WIDTH): string {
  const filled = counts.total === 0 ? width : Math.min(width, Math.floor((counts.done / counts.total) * width));
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
}

export class Progress {
  private readonly counts: ProgressCounts;
  private readonly started = Date.now();
  private lastDraw = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `interactive`: draw a bar (default: when the stream is a terminal). */
  constructor(
    total: number,
    bytesTotal: number,
    private readonly stream: Stream = process.stderr,
    private readonly interactive: boolean = stream.isTTY === true,
  ) {
    this.counts = { done: 0, failed: 0, total, bytesDone: 0, bytesTotal, pages: 0, current: '' };
  }

  start(what: string): void {
    if (this.interactive) {
      this.draw();
      this.timer = setInterval(() => this.draw(), IDLE_REDRAW_MS);
    } else {
      this.stream.write(`${what}\n`);
      this.timer = setInterval(() => this.stream.write(`${progressText(this.counts, this.elapsed())}\n`), PLAIN_INTERVAL_MS);
    }
    this.timer.unref();
  }

  /** Names the file being sent now. */
  begin(file: string): void {
    this.counts.current = file;
  }

  /** Counts one finished file of `bytes`, with the pages it had (0 when failed or unknown). */
  advance(failed: boolean, bytes = 0, pages = 0): void {
    this.counts.done += 1;
    this.counts.bytesDone += bytes;
    this.counts.pages += pages;
    if (failed) this.counts.failed += 1;
    if (this.interactive && Date.now() - this.lastDraw >= REDRAW_MS) this.draw();
  }

  /** Stops drawing and clears the bar, so a summary can follow. */
  stop(): void {
    clearInterval(this.timer);
    if (this.interactive) this.stream.write(CLEAR_LINE);
  }

  elapsed(): number {
    return Date.now() - this.started;
  }

  private draw(): void {
    this.lastDraw = Date.now();
    // Stay within one line, or the next redraw cannot overwrite it: a narrower bar, or none.
    const columns = this.stream.columns || DEFAULT_COLUMNS;
    const text = progressText(this.counts, this.elapsed()).slice(0, columns - 1);
    const width = Math.min(BAR_WIDTH, columns - text.length - 4);
    const bar = width >= MIN_BAR_WIDTH ? `${progressBar(this.counts, width)} ` : '';
    this.stream.write(`${CLEAR_LINE}${bar}${text}`);
  }
}
