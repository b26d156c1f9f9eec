// Parses and checks a batch body as a whole, in the ingest thread or, for a small body, on the
// main thread; the body is kept only if every document is valid — the answer is its documents'
// ids, sizes and byte spans (batch-body.ts), or the FolioError its client gets:
//  - NDJSON (`application/x-ndjson`, one JSON document a line): each line is parsed and checked
//    against the document schema; errors name their lines (`/body/line/3/metadata/tags`; lines
//    count from 1, blank lines included, and are otherwise skipped). Past MAX_BATCH_DOCUMENTS
//    document lines, or once MAX_LISTED_FIELD_ERRORS errors are found, lines are only counted.
//  - A JSON array (`application/json`): cut into its elements (json-array-stream.ts), each
//    parsed and checked. The answers are those the server's JSON parser and request validator
//    give for the whole body: any syntax error or poisoned key is "request body is not valid
//    JSON"; more than MAX_BATCH_DOCUMENTS elements (all still parsed) a 413 with the count;
//    an invalid document the request validator's errors for the whole array (`/body/3/id`).
// Either way a document's own `vectors` must fit the collection's `user` embedders (`rules`).

import { Compile } from 'typebox/compile';
import { DocumentPostBodySchema, DocumentWithIdSchema, MAX_BATCH_DOCUMENTS, MAX_LISTED_FIELD_ERRORS, toFieldErrors } from '../api/index.ts';
import type { DocumentInput, RawValidationError } from '../api/index.ts';
import { FolioError } from '../errors/index.ts';
import type { FieldError } from '../errors/index.ts';
import { BatchBody } from './batch-body.ts';
import type { BatchFormat } from './batch-body.ts';
import { vectorErrors } from './document-vectors.ts';
import type { VectorRules } from './document-vectors.ts';
import { documentInputBytes } from './index-document.ts';
import { JsonArrayStream, JsonArraySyntaxError } from './json-array-stream.ts';

const documentValidator = Compile(DocumentWithIdSchema);
/** What the request validator checks a POST body against (a JSON array's errors come from it). */
const postBodyValidator = Compile(DocumentPostBodySchema);
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const BYTE_ORDER_MARK = 0xfeff;
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

/** A `"__proto__":` key, letters possibly written as \u escapes (secure-json-parse's test). */
const ESCAPED_PROTO_KEY = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;
/** A `"constructor":` key, likewise. */
const ESCAPED_CONSTRUCTOR_KEY = /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;

/** Could `text` hold a `__proto__` or `constructor` key, plainly or with escaped letters? */
function mayHoldPoisonedKey(text: string): boolean {
  if (text.includes('__proto__') || text.includes('constructor')) return true;
  return text.includes('\\u') && (ESCAPED_PROTO_KEY.test(text) || ESCAPED_CONSTRUCTOR_KEY.test(text));
}

function parseJsonText(text: string): unknown {
  // A reviver slows parsing severalfold: only texts that could hold such a key get one (the
  // check secure-json-parse, Fastify's JSON parser, makes).
  return mayHoldPoisonedKey(text) ? JSON.parse(text, rejectPoisonedKeys) : JSON.parse(text);
}

function isBlank(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0b && byte !== 0x0c) return false;
  }
  return true;
}

/** Parses and checks a whole batch body; throws the FolioError a client gets for a bad one. */
export function parseBatchBody(bytes: Uint8Array, format: BatchFormat, rules: VectorRules = {}): BatchBody {
  return format === 'ndjson' ? parseNdjson(bytes, rules) : parseJsonArray(bytes, rules);
}

function parseNdjson(bytes: Uint8Array, rules: VectorRules): BatchBody {
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
      value = parseJsonText(line);
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
    const input = value as DocumentInput;
    const wrongVectors = vectorErrors(input.vectors, rules, `/body/line/${lineNumber}/vectors`);
    if (wrongVectors.length > 0) {
      errors.push(...wrongVectors);
      continue;
    }
    if (errors.length > 0) continue;
    ids.push(input.id);
    sizes.push(documentInputBytes(input));
    spans.push(from, end);
  }
  if (documentLines > MAX_BATCH_DOCUMENTS) throw batchTooLarge(documentLines);
  if (documentLines === 0) {
    throw new FolioError('validation_failed', 'the NDJSON body holds no documents', [{ path: '/body', message: 'must hold at least one document' }]);
  }
  if (errors.length > 0) throw new FolioError('validation_failed', 'invalid NDJSON body; nothing was written', errors.slice(0, MAX_LISTED_FIELD_ERRORS));
  return new BatchBody('ndjson', bytes, ids, sizes, Uint32Array.from(spans));
}

/** What the server's JSON parser answers for any body it cannot parse. */
function notValidJson(): FolioError {
  return new FolioError('validation_failed', 'request body is not valid JSON');
}

function parseJsonArray(bytes: Uint8Array, rules: VectorRules): BatchBody {
  // The server's parser skips one byte-order mark before the body (not before an element).
  const skip = UTF8_BOM.every((byte, i) => bytes[i] === byte) ? UTF8_BOM.length : 0;
  const values: unknown[] = [];
  const spans: number[] = [];
  let invalid = false;
  const scanner = new JsonArrayStream((text, index, start, end) => {
    if (text.charCodeAt(0) === BYTE_ORDER_MARK) throw notValidJson();
    let value: unknown;
    try {
      value = parseJsonText(text);
    } catch {
      throw notValidJson();
    }
    if (index >= MAX_BATCH_DOCUMENTS) return; // counted, not kept: the answer is a 413
    values.push(value);
    spans.push(skip + start, skip + end);
    if (!documentValidator.Check(value)) invalid = true;
  });
  try {
    scanner.write(bytes.subarray(skip));
    scanner.end();
  } catch (error) {
    throw error instanceof JsonArraySyntaxError ? notValidJson() : error;
  }
  if (scanner.count > MAX_BATCH_DOCUMENTS) throw batchTooLarge(scanner.count);
  if (invalid || values.length === 0) {
    const raw = postBodyValidator.Errors(values) as unknown as RawValidationError[];
    throw new FolioError('validation_failed', 'invalid request body', toFieldErrors('body', raw));
  }
  const inputs = values as DocumentInput[];
  const wrongVectors = inputs.flatMap((input, index) => vectorErrors(input.vectors, rules, `/body/${index}/vectors`));
  if (wrongVectors.length > 0) throw new FolioError('validation_failed', 'invalid request body', wrongVectors.slice(0, MAX_LISTED_FIELD_ERRORS));
  return new BatchBody('json-array', bytes, inputs.map((input) => input.id), inputs.map(documentInputBytes), Uint32Array.from(spans));
}
