// Splits a JSON array into its elements as its bytes arrive, so a batch can be parsed one
// document at a time, in bounded memory (http's json-body-parser.ts), or a whole batch body
// cut into its documents' byte spans (parse-batch-body.ts). A small hand-written scanner:
// it tracks strings (and escapes in them) and the nesting depth of {} and [] to find the
// commas and the `]` at the top level, and hands on each element's text once it is complete,
// for the caller to JSON.parse; that finds any error inside an element. The scanner refuses
// what lies between elements: anything but whitespace before `[`, an empty element (`[,1]`,
// `[1,,2]`, `[1,]`), a stray `}`, text after the closing `]`, and an end before it.
//
// It reads UTF-8 bytes. Every byte it acts on (quote, backslash, brackets, comma, whitespace)
// is ASCII, and those never occur inside a multi-byte character, so a chunk may end anywhere,
// even inside a character or an escape; each element is decoded whole.

/** A body that is not a well-formed JSON array, found between its elements. */
export class JsonArraySyntaxError extends SyntaxError {
  override name = 'JsonArraySyntaxError';
}

const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

// Where the scanner is.
const BEFORE_ARRAY = 0; // leading whitespace, then `[`
const BEFORE_FIRST = 1; // after `[`: whitespace, then an element or `]`
const BEFORE_NEXT = 2; // after a top-level comma: whitespace, then an element
const IN_ELEMENT = 3;
const AFTER_ARRAY = 4; // after the closing `]`: whitespace only

function isWhitespace(byte: number): boolean {
  return byte === SPACE || byte === LINE_FEED || byte === CARRIAGE_RETURN || byte === TAB;
}

/**
 * Feed the body with `write` (chunks split anywhere), then call `end`. Each element's text
 * (from its first non-whitespace byte to just before its comma or `]`) goes to `onElement`
 * with its index and its [start, end) byte offsets in the stream; an error there propagates
 * from `write`, after which the scanner is spent.
 */
export class JsonArrayStream {
  /** Elements handed on so far. */
  count = 0;
  private state = BEFORE_ARRAY;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Bytes consumed before the current chunk (for error positions). */
  private consumed = 0;
  /** The current element's bytes from earlier chunks. */
  private pieces: Buffer[] = [];
  /** Stream offset of the current element's first byte. */
  private elementStart = 0;

  constructor(private readonly onElement: (text: string, index: number, start: number, end: number) => void) {}

  write(chunk: Uint8Array): void {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let { state, depth, inString, escaped } = this;
    let start = 0; // where the current element starts in this chunk
    // The next quote and backslash at or after the scan position (-1: none left in the chunk),
    // found with indexOf so long strings are skipped at memchr speed, each byte searched once.
    let nextQuote = -2;
    let nextBackslash = -2;
    try {
      for (let i = 0; i < bytes.length; i++) {
        if (state === IN_ELEMENT && inString) {
          if (escaped) {
            escaped = false;
            continue;
          }
          if (nextQuote !== -1 && nextQuote < i) nextQuote = bytes.indexOf(QUOTE, i);
          if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = bytes.indexOf(BACKSLASH, i);
          if (nextQuote === -1 && nextBackslash === -1) break; // the string goes on in the next chunk
          i = nextQuote === -1 ? nextBackslash : nextBackslash === -1 ? nextQuote : Math.min(nextQuote, nextBackslash);
          if (bytes[i] === BACKSLASH) escaped = true;
          else inString = false;
          continue;
        }
        const byte = bytes[i];
        if (state === IN_ELEMENT) {
          if (byte === QUOTE) {
            inString = true;
          } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
            depth++;
          } else if (depth > 0 && (byte === CLOSE_BRACE || byte === CLOSE_BRACKET)) {
            depth--;
          } else if (byte === COMMA || byte === CLOSE_BRACKET) {
            if (depth === 0) {
              state = byte === COMMA ? BEFORE_NEXT : AFTER_ARRAY;
              this.finishElement(bytes.subarray(start, i), this.consumed + i);
            }
          } else if (byte === CLOSE_BRACE) {
            throw this.error("an unmatched '}'", i);
          }
        } else if (isWhitespace(byte)) {
          // Whitespace between tokens.
        } else if (state === BEFORE_ARRAY) {
          if (byte !== OPEN_BRACKET) throw this.error("the body does not start with '['", i);
          state = BEFORE_FIRST;
        } else if (state === AFTER_ARRAY) {
          throw this.error("text after the closing ']'", i);
        } else if (byte === COMMA) {
          throw this.error('an empty element', i);
        } else if (byte === CLOSE_BRACKET) {
          if (state === BEFORE_NEXT) throw this.error("a comma before ']'", i);
          state = AFTER_ARRAY;
        } else {
          state = IN_ELEMENT;
          start = i;
          this.elementStart = this.consumed + i;
          i--; // scan this byte as the element's first
        }
      }
    } finally {
      Object.assign(this, { state, depth, inString, escaped });
    }
    // The element goes on in the next chunk: keep a copy of its start, not the whole chunk.
    if (state === IN_ELEMENT) this.pieces.push(Buffer.from(bytes.subarray(start)));
    this.consumed += bytes.length;
  }

  /** The body is complete: it must have closed its array. */
  end(): void {
    if (this.state !== AFTER_ARRAY) {
      const what = this.state === BEFORE_ARRAY ? 'the body holds no array' : "the body ends before the array's closing ']'";
      throw new JsonArraySyntaxError(what);
    }
  }

  private finishElement(last: Buffer, end: number): void {
    const pieces = this.pieces;
    this.pieces = [];
    const text = pieces.length === 0 ? last.toString('utf8') : Buffer.concat([...pieces, last]).toString('utf8');
    const index = this.count++;
    this.onElement(text, index, this.elementStart, end);
  }

  private error(what: string, index: number): JsonArraySyntaxError {
    return new JsonArraySyntaxError(`${what} at byte ${this.consumed + index}`);
  }
}
