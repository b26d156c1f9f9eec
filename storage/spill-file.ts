// A temporary file that a writer whose output may outgrow memory (a merge's postings) appends
// its bytes to as they are produced, so memory holds only what came since the last spill. The
// segment-file container copies a spilled section from it in chunks (`FilePiece`). Private to
// the server (0600), removed by whoever made it; a crash's leftover is an index file the
// collection removes when it opens (collection-layout.ts).

import fs from 'node:fs';

/** The first `length` bytes of the file at `path`: part of a section written from a file. */
export interface FilePiece {
  readonly path: string;
  readonly length: number;
}

export class SpillFile {
  private fd: number | null;
  private written = 0;

  constructor(readonly path: string) {
    this.fd = fs.openSync(path, 'w', 0o600);
  }

  /** Bytes appended so far. */
  get length(): number {
    return this.written;
  }

  append(bytes: Uint8Array): void {
    if (this.fd === null) throw new Error(`spill file ${this.path} is closed`);
    let done = 0;
    while (done < bytes.length) done += fs.writeSync(this.fd, bytes, done, bytes.length - done);
    this.written += bytes.length;
  }

  /** What was appended, as a piece of a section (the file stays open for reading by path). */
  piece(): FilePiece {
    return { path: this.path, length: this.written };
  }

  /** Closes and deletes the file. */
  remove(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    fs.rmSync(this.path, { force: true });
  }
}
