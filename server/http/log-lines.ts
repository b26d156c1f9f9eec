// How the server's log reads. Every request is one line, written when its answer is sent
// (method, path without the query string, status, milliseconds, and the error code of a
// refusal), instead of Fastify's two and the error handler's. On
// a terminal the log is for people: pino's JSON lines turned into `12:00:01 INFO  GET
// /v1/collections 200 3 ms`, other fields as key=value; elsewhere (a file, a pipe, a log
// collector) or with `--log-format json` it stays one JSON object per line.

import type { FastifyInstance, FastifyRequest } from 'fastify';

/** pino's numeric levels, as words of equal width. */
const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
/** Fields shown in the line's own words rather than as key=value. */
const LINE_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'reqId', 'method', 'path', 'status', 'ms']);

/** The error code of a refused request, for its line. */
const refusals = new WeakMap<FastifyRequest, string>();

/** Records why a request was refused (the error handler calls it): its line names the code. */
export function noteRefusal(request: FastifyRequest, code: string): void {
  refusals.set(request, code);
}

/** Logs one line per request when its answer has been sent. */
export function logEachRequestOnce(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?', 1)[0];
    const status = reply.statusCode;
    const code = refusals.get(request);
    const fields = { method: request.method, path, status, ms: Math.round(reply.elapsedTime * 10) / 10, ...(code !== undefined && { code }) };
    if (status >= 500) request.log.error(fields, 'request');
    else request.log.info(fields, 'request');
  });
}

/** A value as it reads in a line: strings bare when they have no space, others as JSON. */
function show(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value instanceof Object && 'message' in value && typeof value.message === 'string') return JSON.stringify(value.message);
  return JSON.stringify(value);
}

/** One pino JSON line as a line for people; a line that is not JSON is kept as it is. */
export function prettyLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = LEVEL_NAMES[entry.level as number] ?? String(entry.level);
  const request = entry.msg === 'request' && typeof entry.method === 'string';
  const text = request ? `${entry.method} ${String(entry.path)} ${String(entry.status)} ${String(entry.ms)} ms` : String(entry.msg ?? '');
  const extras = Object.entries(entry)
    .filter(([key]) => !LINE_FIELDS.has(key) || (!request && ['method', 'path', 'status', 'ms'].includes(key)))
    .map(([key, value]) => `${key}=${show(value)}`);
  return `${time} ${level} ${[text, ...extras].filter(Boolean).join(' ')}\n`;
}

/** A pino destination that writes `out` in the pretty form. */
export function prettyLogStream(out: { write(text: string): unknown }): { write(line: string): void } {
  return { write: (line) => void out.write(prettyLogLine(line)) };
}
