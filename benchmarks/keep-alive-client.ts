// A minimal HTTP client for sequential latency: one keep-alive connection (node:http with an
// agent limited to one socket), GET only, the body read in full as bytes and not parsed.
// Lighter than fetch, so the measured time is mostly the server's and the loopback's.

import http from 'node:http';

export class KeepAliveClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly base: URL;
  private readonly headers: Record<string, string>;

  constructor(baseUrl: string, headers: Record<string, string> = {}) {
    this.base = new URL(baseUrl);
    this.headers = headers;
  }

  /** GETs `path`; resolves with the body's length, rejects on a status other than 200. */
  async get(path: string): Promise<number> {
    const { status, bytes } = await this.request(path);
    if (status !== 200) throw new Error(`GET ${path} → ${status}`);
    return bytes;
  }

  /** GETs `path`; resolves with the status and the body's length, whatever the status. */
  request(path: string): Promise<{ status: number; bytes: number }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        { host: this.base.hostname, port: this.base.port, path, method: 'GET', agent: this.agent, headers: this.headers },
        (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
