// A minimal HTTP client for sequential latency: one keep-alive connection (node:http with an
// agent limited to one socket), GET (the body read in full as bytes and not parsed) or a JSON POST.
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

  /** POSTs a JSON body; resolves with the status and the parsed answer. */
  post(path: string, body: unknown): Promise<{ status: number; body: any }> {
    const payload = Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: this.base.hostname,
          port: this.base.port,
          path,
          method: 'POST',
          agent: this.agent,
          headers: { ...this.headers, 'content-type': 'application/json', 'content-length': String(payload.length) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
