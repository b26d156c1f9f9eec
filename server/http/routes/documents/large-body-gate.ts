// Bounds the memory that document writes with large bodies can take at once. A write whose
// body may be large (over LARGE_BODY_BYTES, or of unknown length) waits for one of a few slots
// before its body is read, and keeps the slot until its response is done: parsed documents,
// the WAL record and the wait for a refresh (backpressure) all happen inside the slot. The
// bodies of waiting requests stay in the kernel's socket buffers (TCP backpressure), so
// however many clients import at once, at most MAX_LARGE_WRITES parsed bodies are in memory.
// Small writes (single documents of usual size) never wait.

import type { FastifyReply, FastifyRequest } from 'fastify';

/** Bodies up to this size (by Content-Length) skip the gate. */
export const LARGE_BODY_BYTES = 256 * 1024;
/** Large document writes handled at once; the others wait, in arrival order. */
export const MAX_LARGE_WRITES = 2;

export class ConcurrencyGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Waits for a slot; resolves with its release function (safe to call more than once). */
  async acquire(): Promise<() => void> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter (active stays the same).
      if (next !== undefined) next();
      else this.active--;
    };
  }

  get inUse(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }
}

function mayBeLarge(request: FastifyRequest): boolean {
  const declared = request.headers['content-length'];
  if (declared === undefined) return request.headers['transfer-encoding'] !== undefined;
  return Number(declared) > LARGE_BODY_BYTES;
}

/** A preParsing hook that holds large writes to the gate's slots until their responses end. */
export function largeBodyGateHook(gate: ConcurrencyGate) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: NodeJS.ReadableStream): Promise<NodeJS.ReadableStream> => {
    if (request.method === 'GET' || request.method === 'DELETE' || !mayBeLarge(request)) return payload;
    const release = await gate.acquire();
    // 'close' comes once the response is finished or the connection is gone, whichever first.
    reply.raw.once('close', release);
    if (reply.raw.destroyed) release();
    return payload;
  };
}
