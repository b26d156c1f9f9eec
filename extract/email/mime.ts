// MIME building blocks for reading e-mail (RFC 5322, 2045–2047, 2231): header blocks with
// folded lines unfolded, structured header values with parameters, encoded words in headers,
// quoted-printable and base64 bodies, and text in a declared charset. Messages are handled as
// "binary strings" (one char per byte, Latin-1) so byte content survives until decoded.

import { Buffer } from 'node:buffer';
import { decodeText, decodeWindows1252 } from '../text-decoding.ts';

/** A part's header fields by lowercased name, in order, values unfolded but not decoded. */
export type HeaderFields = Map<string, string[]>;

export interface MimeEntity {
  headers: HeaderFields;
  /** The body as a binary string. */
  body: string;
}

/** A binary string's bytes. */
export function binaryBytes(binary: string): Uint8Array {
  return new Uint8Array(Buffer.from(binary, 'latin1'));
}

/** A byte array as a binary string. */
export function bytesToBinary(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Splits a message or body part into its header fields and its body. */
export function parseEntity(raw: string): MimeEntity {
  const headers: HeaderFields = new Map();
  let at = 0;
  let current: { name: string; value: string } | null = null;
  const store = (): void => {
    if (current === null) return;
    const list = headers.get(current.name) ?? [];
    list.push(current.value.trim());
    headers.set(current.name, list);
    current = null;
  };
  while (at < raw.length) {
    let end = raw.indexOf('\n', at);
    if (end < 0) end = raw.length;
    const line = raw.slice(at, end).replace(/\r$/, '');
    const next = end + 1;
    if (line === '') {
      at = next;
      break;
    }
    if ((line[0] === ' ' || line[0] === '\t') && current !== null) {
      current.value += line; // unfolding: the line break goes, the whitespace stays
    } else {
      store();
      const colon = line.indexOf(':');
      if (colon > 0 && !/\s/.test(line.slice(0, colon))) current = { name: line.slice(0, colon).toLowerCase(), value: line.slice(colon + 1) };
      else if (headers.size === 0 && !line.startsWith('From ')) return { headers, body: raw }; // no header block at all
    }
    at = next;
  }
  store();
  return { headers, body: at < raw.length ? raw.slice(at) : '' };
}

/** The first value of a header field, or null. */
export function header(headers: HeaderFields, name: string): string | null {
  return headers.get(name)?.[0] ?? null;
}

/** Text in a named charset; unknown or missing charsets fall back to UTF-8/windows-1252 detection. */
export function decodeCharset(bytes: Uint8Array, charset: string | null): string {
  const label = charset?.trim().toLowerCase().replace(/\*.*$/, '') ?? '';
  if (label !== '' && label !== 'us-ascii' && label !== 'ascii') {
    try {
      const decoder = new TextDecoder(label);
      // Latin-1 labels mean windows-1252, which Node's TextDecoder gets wrong (as ISO-8859-1).
      return decoder.encoding === 'windows-1252' ? decodeWindows1252(bytes) : decoder.decode(bytes);
    } catch {
      // an unknown label: detect below
    }
  }
  return decodeText(bytes).text;
}

/** Raw header text: 8-bit UTF-8 (RFC 6532) or Latin-1, then RFC 2047 encoded words decoded. */
export function decodeHeaderText(raw: string): string {
  const text = /[\x80-\xff]/.test(raw) ? decodeCharset(binaryBytes(raw), null) : raw;
  return text
    .replace(/(=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=)/g, '$1')
    .replace(/=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g, (_word, charset: string, encoding: string, data: string) => {
      const bytes = encoding.toUpperCase() === 'B'
        ? new Uint8Array(Buffer.from(data, 'base64'))
        : decodeQuotedPrintable(data.replace(/_/g, ' '));
      return decodeCharset(bytes, charset);
    });
}

/** Quoted-printable → bytes: `=XX` escapes and soft line breaks (`=` at a line end). */
export function decodeQuotedPrintable(binary: string): Uint8Array {
  const text = binary.replace(/[ \t]+(\r?\n)/g, '$1').replace(/=\r?\n/g, '');
  const out = new Uint8Array(text.length);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3d && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out[length++] = Number.parseInt(text.slice(i + 1, i + 3), 16);
      i += 2;
    } else {
      out[length++] = c & 0xff;
    }
  }
  return out.subarray(0, length);
}

/** A body's bytes after its Content-Transfer-Encoding. */
export function decodeTransferEncoding(body: string, encoding: string | null): Uint8Array {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === 'base64') return new Uint8Array(Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64'));
  if (name === 'quoted-printable') return decodeQuotedPrintable(body);
  return binaryBytes(body);
}

export interface StructuredValue {
  /** The main value, lowercased (`text/plain`, `attachment`). */
  value: string;
  /** Parameters by lowercased name, RFC 2231 continuations and charsets applied. */
  params: Record<string, string>;
}

/** Splits on `;` outside quoted strings. */
function splitParameters(raw: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && quoted && i + 1 < raw.length) {
      current += c + raw[++i];
      continue;
    }
    if (c === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) return trimmed.slice(1, -1).replace(/\\(.)/g, '$1');
  return trimmed;
}

/** Parses `type/subtype; name="value"; name*=utf-8''…` (Content-Type, Content-Disposition). */
export function parseStructured(raw: string | null): StructuredValue {
  if (raw === null) return { value: '', params: {} };
  const [main, ...rest] = splitParameters(raw);
  const simple: Record<string, string> = {};
  const pieces = new Map<string, Array<{ index: number; value: string; extended: boolean }>>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = unquote(part.slice(eq + 1));
    const match = /^([^*]+)(?:\*(\d+))?(\*)?$/.exec(key);
    if (match === null) continue;
    if (match[2] === undefined && match[3] === undefined) {
      simple[key] = value;
      continue;
    }
    const list = pieces.get(match[1]) ?? [];
    list.push({ index: Number(match[2] ?? 0), value, extended: match[3] !== undefined });
    pieces.set(match[1], list);
  }
  const params: Record<string, string> = { ...simple };
  for (const [name, list] of pieces) {
    list.sort((a, b) => a.index - b.index);
    let charset: string | null = null;
    let binary = '';
    for (const piece of list) {
      let value = piece.value;
      if (piece.extended && piece.index === 0) {
        const quote = /^([^']*)'[^']*'/.exec(value);
        if (quote !== null) {
          charset = quote[1] || null;
          value = value.slice(quote[0].length);
        }
      }
      binary += piece.extended
        ? value.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
        : value;
    }
    params[name] = decodeCharset(binaryBytes(binary), charset); // RFC 2231 value, percent-decoded above
  }
  for (const key of Object.keys(params)) if (pieces.has(key) === false) params[key] = decodeHeaderText(params[key]);
  return { value: main.trim().toLowerCase(), params };
}
