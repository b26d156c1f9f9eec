// A growable list of unsigned 32-bit integers backed by a typed array: the segment writer's
// scratch storage for per-token and per-posting numbers, with no per-element JS objects.

import { growArray, newArray } from '../../storage/index.ts';

export class U32List {
  private buffer: Uint32Array;
  private used = 0;

  constructor(initialCapacity = 1024) {
    this.buffer = newArray(Uint32Array, Math.max(16, initialCapacity));
  }

  get length(): number {
    return this.used;
  }

  push(value: number): void {
    if (this.used === this.buffer.length) this.grow();
    this.buffer[this.used++] = value;
  }

  /** The values pushed so far (a view; it goes stale when the list grows). */
  view(): Uint32Array {
    return this.buffer.subarray(0, this.used);
  }

  private grow(): void {
    this.buffer = growArray(this.buffer, this.buffer.length * 2);
  }
}
