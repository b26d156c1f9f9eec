// Parses `application/x-ndjson` bodies (one JSON document a line) for batch writes. Every line
// is parsed and checked against the document schema here, so errors name the line they are
// on (`/body/line/3/metadata/tags`); blank lines are skipped. The whole body is checked before
// anything is written, like a JSON array.

import type { FastifyRequest } from 'fastify';
import { Compile } from 'typebox/compile';
import { FolioError } from '../../errors.ts';
import type { FieldError } from '../../errors.ts';
import { DocumentWithIdSchema } from '../../schemas/document.ts';
import { MAX_BATCH_DOCUMENTS, MAX_LISTED_FIELD_ERRORS } from '../../schemas/limits.ts';
import { toFieldErrors } from '../../schemas/validation-errors.ts';
import type { RawValidationError } from '../../schemas/validation-errors.ts';

export const NDJSON_CONTENT_TYPE = 'application/x-ndjson';

const documentValidator = Compile(DocumentWithIdSchema);

/** Refuses keys that could rewrite prototypes when the value is later merged (as Fastify's JSON parser does). */
function rejectPoisonedKeys(key: string, value: unknown): unknown {
  if (key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)) {
    throw new SyntaxError(`forbidden property name "${key}"`);
  }
  return value;
}

function parseLine(line: string, lineNumber: number): { value?: unknown; error?: FieldError } {
  const path = `/body/line/${lineNumber}`;
  let value: unknown;
  try {
    value = JSON.parse(line, rejectPoisonedKeys);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'invalid JSON';
    return { error: { path, message: `is not valid JSON: ${reason}` } };
  }
  return { value };
}

/** Parses and validates an NDJSON batch; throws a FolioError naming the bad lines. */
export function parseNdjsonBatch(text: string): unknown[] {
  const lines = text.split('\n');
  const documentLines = lines.filter((line) => line.trim() !== '').length;
  if (documentLines > MAX_BATCH_DOCUMENTS) {
    throw new FolioError(
      'payload_too_large',
      `a batch may hold at most ${MAX_BATCH_DOCUMENTS} documents; this one has ${documentLines}`,
    );
  }
  if (documentLines === 0) {
    throw new FolioError('validation_failed', 'the NDJSON body holds no documents', [
      { path: '/body', message: 'must hold at least one document' },
    ]);
  }
  const documents: unknown[] = [];
  const errors: FieldError[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '' || errors.length >= MAX_LISTED_FIELD_ERRORS) return;
    const lineNumber = index + 1;
    const { value, error } = parseLine(line, lineNumber);
    if (error !== undefined) {
      errors.push(error);
    } else if (!documentValidator.Check(value)) {
      const raw = documentValidator.Errors(value) as unknown as RawValidationError[];
      errors.push(...toFieldErrors(`body/line/${lineNumber}`, raw));
    } else {
      documents.push(value);
    }
  });
  if (errors.length > 0) {
    throw new FolioError('validation_failed', 'invalid NDJSON body; nothing was written', errors.slice(0, MAX_LISTED_FIELD_ERRORS));
  }
  return documents;
}

/** Only batch writes (`POST …/documents`) take NDJSON. */
const BATCH_PATH = /\/documents\/?$/;

/** Fastify content-type parser for NDJSON (the body arrives as a string within the body limit). */
export function ndjsonParser(request: FastifyRequest, body: string | Buffer): Promise<unknown[]> {
  return Promise.resolve().then(() => {
    if (request.method !== 'POST' || !BATCH_PATH.test(request.url.split('?')[0])) {
      throw new FolioError('unsupported_media_type', `${NDJSON_CONTENT_TYPE} is accepted only by POST /v1/collections/{name}/documents`);
    }
    return parseNdjsonBatch(typeof body === 'string' ? body : body.toString('utf8'));
  });
}
