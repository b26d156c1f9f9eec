// Where the server's log lines go: stdout, written in batches rather than one write(2) per line.
// A line waits at most LOG_FLUSH_MS, or until LOG_BATCH_BYTES are waiting, so a busy server
// makes one system call for dozens of request lines instead of one each (GCIDE, ids searches
// over one connection: about +8 % QPS). Lines still waiting are written when the process exits
// (the `exit` event: a normal stop, a fatal error, SIGTERM or SIGINT, all of which end in
// process.exit); SIGKILL loses at most the last LOG_FLUSH_MS of lines, never a write
// (documents are durable before they are acknowledged, whatever the log says).

/** Bytes of lines that are written at once, without waiting for the timer. */
export const LOG_BATCH_BYTES = 16 * 1024;
/** The longest a line waits before it is written. */
export const LOG_FLUSH_MS = 100;

export interface LogDestination {
  write(line: string): void;
  /** Writes the lines waiting now. */
  flush(): void;
  /** Writes the lines waiting now; later lines are written at once, each on its own. */
  close(): void;
}

/** Lines for `out` (stdout), batched; flushed on exit. */
export function batchedLines(out: { write(text: string): unknown }): LogDestination {
  let waiting: string[] = [];
  let bytes = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (waiting.length === 0) return;
    const text = waiting.join('');
    waiting = [];
    bytes = 0;
    out.write(text);
  };
  process.once('exit', flush);
  return {
    write(line) {
      if (closed) {
        out.write(line);
        return;
      }
      waiting.push(line);
      bytes += line.length;
      if (bytes >= LOG_BATCH_BYTES) flush();
      else if (timer === null) {
        timer = setTimeout(flush, LOG_FLUSH_MS);
        timer.unref();
      }
    },
    flush,
    close() {
      closed = true;
      flush();
      process.off('exit', flush);
    },
  };
}
