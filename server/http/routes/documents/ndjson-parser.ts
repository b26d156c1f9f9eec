// Parses `application/x-ndjson` bodies (one JSON document a line) for batch writes, as they
// stream in: the bytes are decoded incrementally, and each line is parsed and checked against
// the document schema as soon as it is complete, so only the parsed documents and the partial
// last line are held. Errors name the line they are on (`/body/line/3/metadata/tags`; lines
// count from 1, blank lines included, and are otherwise skipped). The whole body is checked
// before anything is written, like a JSON array.

import { StringDecoder } from 'node:string_decoder';
import type { FastifyRequest } from 'fastify';
import { Compile } from 'typebox/compile';
import { FolioError } from '../../../errors/index.ts';
import type { FieldError } from '../../../errors/index.ts';
import { DocumentWithIdSchema } from '../../../api/index.ts';
import { MAX_BATCH_DOCUMENTS, MAX_LISTED_FIELD_ERRORS } from '../../../api/index.ts';
import { toFieldErrors } from '../../validation/validation-errors.ts';
import type { RawValidationError } from '../../validation/validation-errors.ts';
import { batchTooLarge, isBatchWrite } from './batch-route.ts';
import { readBodyStream } from './body-stream.ts';
import type { BodyStream } from './body-stream.ts';

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
    // A reviver slows parsing severalfold: only lines that could hold such a key get one (the
    // check secure-json-parse, Fastify's JSON parser, makes).
    value = line.includes('__proto__') || line.includes('constructor') ? JSON.parse(line, rejectPoisonedKeys) : JSON.parse(line);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'invalid JSON';
    return { error: { path, message: `is not valid JSON: ${reason}` } };
  }
  return { value };
}

/**
 * One NDJSON batch, fed chunk by chunk (split anywhere, even inside a character). `end`
 * returns the documents or throws the FolioError naming the bad lines. Past
 * MAX_BATCH_DOCUMENTS document lines, or once MAX_LISTED_FIELD_ERRORS errors are found, lines
 * are only counted, not parsed, and no documents are kept.
 */
export class NdjsonBatch {
  private readonly decoder = new StringDecoder('utf8');
  /** The current line's text from earlier chunks. */
  private partial: string[] = [];
  private lineNumber = 0;
  private documentLines = 0;
  private documents: unknown[] = [];
  private readonly errors: FieldError[] = [];

  write(chunk: Buffer): void {
    this.split(this.decoder.write(chunk));
  }

  end(): unknown[] {
    this.split(this.decoder.end());
    // What follows the last newline is a line too, even when empty.
    this.line(this.partial.join(''));
    this.partial = [];
    if (this.documentLines > MAX_BATCH_DOCUMENTS) throw batchTooLarge(this.documentLines);
    if (this.documentLines === 0) {
      throw new FolioError('validation_failed', 'the NDJSON body holds no documents', [
        { path: '/body', message: 'must hold at least one document' },
      ]);
    }
    if (this.errors.length > 0) {
      throw new FolioError(
        'validation_failed',
        'invalid NDJSON body; nothing was written',
        this.errors.slice(0, MAX_LISTED_FIELD_ERRORS),
      );
    }
    return this.documents;
  }

  private split(text: string): void {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      this.partial.push(text.slice(start, newline));
      const line = this.partial.length === 1 ? this.partial[0] : this.partial.join('');
      this.partial = [];
      this.line(line);
      start = newline + 1;
    }
    if (start < text.length) this.partial.push(text.slice(start));
  }

  private line(line: string): void {
    this.lineNumber += 1;
    if (line.trim() === '') return;
    this.documentLines += 1;
    if (this.documentLines > MAX_BATCH_DOCUMENTS || this.errors.length >= MAX_LISTED_FIELD_ERRORS) {
      this.documents = []; // the answer is an error now: only count what is left
      return;
    }
    const lineNumber = this.lineNumber;
    const { value, error } = parseLine(line, lineNumber);
    if (error !== undefined) {
      this.errors.push(error);
    } else if (!documentValidator.Check(value)) {
      const raw = documentValidator.Errors(value) as unknown as RawValidationError[];
      this.errors.push(...toFieldErrors(`body/line/${lineNumber}`, raw));
    } else if (this.errors.length === 0) {
      this.documents.push(value);
    }
    if (this.errors.length > 0) this.documents = [];
  }
}

/** Parses and validates a whole NDJSON batch held as one text. */
export function parseNdjsonBatch(text: string): unknown[] {
  const batch = new NdjsonBatch();
  batch.write(Buffer.from(text, 'utf8'));
  return batch.end();
}

/** Fastify content-type parser for NDJSON (registered without `parseAs`: it reads the stream). */
export async function ndjsonParser(request: FastifyRequest, payload: BodyStream): Promise<unknown[]> {
  if (!isBatchWrite(request)) {
    // Read (and drop) the body first, so an oversized one is still a 413, as before.
    await readBodyStream(request, payload, () => {});
    throw new FolioError('unsupported_media_type', `${NDJSON_CONTENT_TYPE} is accepted only by POST /v1/collections/{name}/documents`);
  }
  const batch = new NdjsonBatch();
  await readBodyStream(request, payload, (chunk) => batch.write(chunk));
  return batch.end();
}
