// Bytes → string for text-like files: a byte-order mark wins (UTF-8, UTF-16 LE/BE), then
// strict UTF-8, then BOM-less UTF-16 recognised by its zero bytes, else windows-1252
// ("Latin-1" as browsers read it). Also answers "is this text at all?" for sniffing.

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  /** Whether the bytes started with a byte-order mark (which is not part of `text`). */
  bom: boolean;
}

/** Which encoding the bytes use, and how many leading bytes are a byte-order mark. */
export function detectTextEncoding(bytes: Uint8Array): { encoding: TextEncodingName; bomLength: number } {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { encoding: 'utf-8', bomLength: 3 };
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  // Before UTF-8: BOM-less UTF-16 of ASCII text is also valid (NUL-ridden) UTF-8.
  const utf16 = guessBomlessUtf16(bytes);
  if (utf16 !== null) return { encoding: utf16, bomLength: 0 };
  if (isValidUtf8(bytes)) return { encoding: 'utf-8', bomLength: 0 };
  return { encoding: 'windows-1252', bomLength: 0 };
}

/** Decodes text bytes; never throws (every byte sequence is valid windows-1252). */
export function decodeText(bytes: Uint8Array): DecodedText {
  const { encoding, bomLength } = detectTextEncoding(bytes);
  const body = bomLength > 0 ? bytes.subarray(bomLength) : bytes;
  const text = encoding === 'windows-1252' ? decodeWindows1252(body) : new TextDecoder(encoding, { ignoreBOM: true }).decode(body);
  return { text, encoding, bom: bomLength > 0 };
}

/** windows-1252's characters for bytes 0x80–0x9F (the rest equals ISO-8859-1); undefined bytes stay C1 controls. */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * windows-1252 by hand: Node's TextDecoder treats the label as ISO-8859-1 (so 0x80 would be a
 * control character instead of €).
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]);
}

/** Whether the bytes are well-formed UTF-8 (pure ASCII included). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * UTF-16 without a BOM: in mostly-Latin text one byte of each pair is zero. Requires an even
 * length and a clear majority of zeros on one side only.
 */
function guessBomlessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4 || bytes.length % 2 !== 0) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return null;
}

/**
 * Whether decoded text looks like text rather than binary: few control characters other than
 * tab, newlines, form feed and escape (counted over the first 8192 characters).
 */
export function looksLikeText(text: string): boolean {
  const n = Math.min(text.length, 8192);
  if (n === 0) return true;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x0b && c !== 0x1b) control++;
    else if (c === 0xfffd) control++;
  }
  return control <= n * 0.02;
}

/** Whether raw bytes are text: they decode (see decodeText) to something that looks like text. */
export function isProbablyText(bytes: Uint8Array): boolean {
  return looksLikeText(decodeText(bytes.subarray(0, 8192)).text);
}
