// Parses and checks a batch body (`application/x-ndjson`: one JSON document a line) as a whole,
// in the ingest thread or, for a small body, on the main thread: each line is parsed and
// checked against the document schema, and the body is kept only if every document is valid —
// the answer is its documents' ids, sizes and byte spans (batch-body.ts), or the FolioError
// naming the bad lines (`/body/line/3/metadata/tags`; lines count from 1, blank lines included,
// and are otherwise skipped). Past MAX_BATCH_DOCUMENTS document lines, or once
// MAX_LISTED_FIELD_ERRORS errors are found, lines are only counted, not parsed.

import { Compile } from 'typebox/compile';
import { DocumentWithIdSchema, MAX_BATCH_DOCUMENTS, MAX_LISTED_FIELD_ERRORS, toFieldErrors } from '../api/index.ts';
import type { DocumentInput, RawValidationError } from '../api/index.ts';
import { FolioError } from '../errors/index.ts';
import type { FieldError } from '../errors/index.ts';
import { BatchBody } from './batch-body.ts';
import type { BatchFormat } from './batch-body.ts';
import { jsonByteLength } from './index-document.ts';

const documentValidator = Compile(DocumentWithIdSchema);
/** Keeps a leading byte-order mark, so a body starting with one is refused as invalid JSON, as it always was. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const LINE_FEED = 0x0a;

/** The error for a batch of `count` documents, more than MAX_BATCH_DOCUMENTS. */
export function batchTooLarge(count: number): FolioError {
  return new FolioError('payload_too_large', `a batch may hold at most ${MAX_BATCH_DOCUMENTS} documents; this one has ${count}`);
}

/** Refuses keys that could rewrite prototypes when the value is later merged (as Fastify's JSON parser does). */
function rejectPoisonedKeys(key: string, value: unknown): unknown {
  if (key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)) {
    throw new SyntaxError(`forbidden property name "${key}"`);
  }
  return value;
}

function parseLine(line: string): unknown {
  // A reviver slows parsing severalfold: only lines that could hold such a key get one (the
  // check secure-json-parse, Fastify's JSON parser, makes).
  return line.includes('__proto__') || line.includes('constructor') ? JSON.parse(line, rejectPoisonedKeys) : JSON.parse(line);
}

function isBlank(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0b && byte !== 0x0c) return false;
  }
  return true;
}

/** Parses and checks a whole batch body; throws the FolioError a client gets for a bad one. */
export function parseBatchBody(bytes: Uint8Array, format: BatchFormat): BatchBody {
  const ids: string[] = [];
  const sizes: number[] = [];
  const spans: number[] = [];
  const errors: FieldError[] = [];
  let documentLines = 0;
  let lineNumber = 0;
  for (let start = 0; start <= bytes.length; ) {
    let end = bytes.indexOf(LINE_FEED, start);
    if (end === -1) end = bytes.length;
    lineNumber++;
    const from = start;
    start = end + 1;
    // Blank lines are skipped; a line of other whitespace (Unicode spaces) is decoded to tell.
    if (isBlank(bytes, from, end)) continue;
    const line = utf8.decode(bytes.subarray(from, end));
    if (line.trim() === '') continue;
    documentLines++;
    if (documentLines > MAX_BATCH_DOCUMENTS || errors.length >= MAX_LISTED_FIELD_ERRORS) continue; // only counted now
    let value: unknown;
    try {
      value = parseLine(line);
    } catch (error) {
      const reason = error instanceof SyntaxError ? error.message : 'invalid JSON';
      errors.push({ path: `/body/line/${lineNumber}`, message: `is not valid JSON: ${reason}` });
      continue;
    }
    if (!documentValidator.Check(value)) {
      const raw = documentValidator.Errors(value) as unknown as RawValidationError[];
      errors.push(...toFieldErrors(`body/line/${lineNumber}`, raw));
      continue;
    }
    if (errors.length > 0) continue;
    const input = value as DocumentInput;
    ids.push(input.id);
    sizes.push(jsonByteLength({ id: input.id, title: input.title ?? null, text: input.text ?? '', metadata: input.metadata ?? {} }));
    spans.push(from, end);
  }
  if (documentLines > MAX_BATCH_DOCUMENTS) throw batchTooLarge(documentLines);
  if (documentLines === 0) {
    throw new FolioError('validation_failed', 'the NDJSON body holds no documents', [{ path: '/body', message: 'must hold at least one document' }]);
  }
  if (errors.length > 0) throw new FolioError('validation_failed', 'invalid NDJSON body; nothing was written', errors.slice(0, MAX_LISTED_FIELD_ERRORS));
  return new BatchBody(format, bytes, ids, sizes, Uint32Array.from(spans));
}
