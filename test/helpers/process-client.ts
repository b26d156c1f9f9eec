// Requests to a real server process (benchmarks/server-process.ts) with its master key, for the
// tests that kill one with SIGKILL and start it again: each answer's status and parsed JSON.

import type { ServerProcess } from '../../benchmarks/server-process.ts';

export type ProcessCall = (method: string, path: string, body?: unknown, contentType?: string) => Promise<{ status: number; json: any }>;

/** A caller of `server` with `masterKey`; a string body is sent as it is (NDJSON), anything else as JSON. */
export function processClient(server: ServerProcess, masterKey: string): ProcessCall {
  return async (method, path, body, contentType = 'application/json') => {
    const response = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${masterKey}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : null };
  };
}
