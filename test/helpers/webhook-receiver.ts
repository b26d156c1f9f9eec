// A webhook receiver for tests: a real HTTP server on loopback that records every request it
// gets and answers with the status `answer` picks (null: never answers, like a hung receiver).

import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received) => number | null = () => 204;
  private readonly server: Server;
  private waiters: (() => void)[] = [];

  constructor() {
    this.server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        const got = { headers: request.headers, body };
        this.received.push(got);
        for (const wake of this.waiters.splice(0)) wake();
        const status = this.answer(got);
        if (status !== null) response.writeHead(status).end();
      });
    });
  }

  async listen(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Resolves once `count` requests have arrived (fails after `ms`). */
  async waitFor(count: number, ms = 5_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} deliveries, got ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
