// The `application/json` body parser of the document routes. A JSON array sent to the batch
// route is gathered as bytes and handed to the document service, which parses and checks it off
// the main thread (server/ingest/, like NDJSON) and answers a BatchBody. A JSON array elsewhere
// is split into its elements as it streams in (ingest's json-array-stream.ts), each parsed as
// soon as it is complete; any other body is gathered and parsed whole. The result and every
// error are what the server's JSON parser gives for the whole body (server/http/app.ts):
// Fastify's parser does the parsing, with its checks for `__proto__` and
// `constructor.prototype` keys, and an empty body is "no body". The body limit is enforced
// while reading (body-stream.ts). A batch holding more than MAX_BATCH_DOCUMENTS elements is a
// 413; the elements past the limit are still parsed, so a malformed one is still a 400.

import { errorCodes } from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JsonArrayStream, JsonArraySyntaxError } from '../../../ingest/index.ts';
import type { ParseBatchBody } from './batch-route.ts';
import { isBatchWrite } from './batch-route.ts';
import { readBodyStream } from './body-stream.ts';
import type { BodyStream } from './body-stream.ts';

export const JSON_CONTENT_TYPE = 'application/json';

/** Parses one complete JSON text, throwing Fastify's error for a bad one. */
type ParseJson = (text: string) => unknown;

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const BYTE_ORDER_MARK = 0xfeff;
const OPEN_BRACKET = 0x5b;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function invalidJson(): Error {
  return new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
}

/** One request body, fed chunk by chunk: decides from its first bytes whether it is an array. */
class JsonBody {
  private mode: 'sniff' | 'array' | 'gather' | 'whole' = 'sniff';
  /** The body so far, while it may still be anything (sniff), is not an array (whole) or is a batch (gather). */
  private held: Buffer[] = [];
  private sniffed = 0;
  /** Bytes of a leading UTF-8 byte-order mark seen (the server's parser skips one). */
  private bomBytes = 0;
  private readonly scanner: JsonArrayStream;
  private readonly elements: unknown[] = [];

  /** `gatherArrays`: an array is kept as its bytes (a batch, parsed in the ingest thread). */
  constructor(
    private readonly parse: ParseJson,
    private readonly gatherArrays: boolean,
  ) {
    this.scanner = new JsonArrayStream((text) => {
      // The server's parser skips a byte-order mark before the body, not before an element.
      if (text.charCodeAt(0) === BYTE_ORDER_MARK) throw invalidJson();
      this.elements.push(this.parse(text));
    });
  }

  /** The body's bytes when it is an array kept whole (`gatherArrays`); call after `end`. */
  gathered(): Buffer | null {
    return this.mode === 'gather' ? Buffer.concat(this.held) : null;
  }

  write(chunk: Buffer): void {
    if (this.mode === 'array') {
      this.scan(() => this.scanner.write(chunk));
    } else if (this.mode === 'whole' || this.mode === 'gather') {
      this.held.push(chunk);
    } else {
      this.sniff(chunk);
    }
  }

  /** The parsed body (undefined when empty, or gathered), or the error the whole-body parser would give. */
  end(): unknown {
    if (this.mode === 'gather') return undefined;
    if (this.mode !== 'array') {
      const text = Buffer.concat(this.held).toString('utf8');
      this.held = [];
      return text.length === 0 ? undefined : this.parse(text);
    }
    this.scan(() => this.scanner.end());
    return this.elements;
  }

  /** Looks past a byte-order mark and whitespace for the first byte: `[` starts an array. */
  private sniff(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      const position = this.sniffed++;
      if (position < UTF8_BOM.length && this.bomBytes === position && byte === UTF8_BOM[position]) {
        this.bomBytes++;
        continue;
      }
      // Half a byte-order mark, or a first byte other than `[`: for the whole-body parser.
      const partialBom = this.bomBytes > 0 && this.bomBytes < UTF8_BOM.length;
      if (partialBom || (!isWhitespace(byte) && byte !== OPEN_BRACKET)) {
        this.mode = 'whole';
        break;
      }
      if (byte === OPEN_BRACKET && this.gatherArrays) {
        this.mode = 'gather';
        break;
      }
      if (byte === OPEN_BRACKET) {
        this.mode = 'array';
        this.held = [];
        this.scan(() => this.scanner.write(chunk.subarray(i)));
        return;
      }
    }
    // Whole, or still only a byte-order mark and whitespace so far.
    this.held.push(chunk);
  }

  /** Runs the scanner, turning its syntax errors into the server's "not valid JSON". */
  private scan(step: () => void): void {
    try {
      step();
    } catch (error) {
      throw error instanceof JsonArraySyntaxError ? invalidJson() : error;
    }
  }
}

/** Fastify's JSON parser (poisoned keys refused), called on one text. */
function defaultJsonParse(app: FastifyInstance, request: FastifyRequest): ParseJson {
  const parser = app.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: (error: Error | null, value?: unknown) => void,
  ) => void;
  return (text) => {
    let outcome: { error: Error | null; value?: unknown } | undefined;
    parser(request, text, (error, value) => {
      outcome = { error, value };
    });
    if (outcome === undefined) throw new Error('the JSON parser did not answer synchronously');
    if (outcome.error !== null) throw outcome.error;
    return outcome.value;
  };
}

/** The streaming JSON content-type parser (registered without `parseAs`: it reads the stream). */
export function jsonBodyParser(app: FastifyInstance, parseBody: ParseBatchBody) {
  return async (request: FastifyRequest, payload: BodyStream): Promise<unknown> => {
    const body = new JsonBody(defaultJsonParse(app, request), isBatchWrite(request));
    await readBodyStream(request, payload, (chunk) => body.write(chunk));
    const value = body.end();
    const batch = body.gathered();
    return batch === null ? value : parseBody(batch, 'json-array', (request.params as { name?: string } | undefined)?.name);
  };
}
