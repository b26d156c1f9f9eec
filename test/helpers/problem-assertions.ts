// Assertions shared by the HTTP tests: an answer is an RFC 9457 problem with the expected
// status and stable code (docs/api.md, "Errors"), and carries nothing a client should never see (stack traces, paths).

import assert from 'node:assert/strict';
import type { TestResponse } from './test-server.ts';

export function assertProblem(response: TestResponse, status: number, code: string): void {
  assert.equal(response.status, status, `expected ${status} ${code}, got ${response.status}: ${response.text}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = response.body;
  assert.equal(body.type, 'about:blank');
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.doesNotMatch(response.text, /\n\s+at |node_modules|\/work\/|\/tmp\//, 'problem body leaks internals');
}

/** The problem lists a field error at `path` (exact, or a prefix ending in `*`). */
export function assertFieldError(response: TestResponse, path: string): void {
  const errors: { path: string; message: string }[] = response.body.errors ?? [];
  const matches = path.endsWith('*')
    ? errors.some((error) => error.path.startsWith(path.slice(0, -1)))
    : errors.some((error) => error.path === path);
  assert.ok(matches, `expected a field error at ${path}, got ${JSON.stringify(errors)}`);
}
