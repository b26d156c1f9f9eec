// Signatures at the start of a file that name its type regardless of its file name. ZIP and
// OLE2 are containers: the caller looks inside (or at the extension) to name the format.

export type MagicMatch =
  | { kind: 'format'; format: string; aliases: readonly string[] }
  | { kind: 'zip' }
  | { kind: 'ole2' };

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[at + i] !== signature[i]) return false;
  return true;
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

const PDF = ascii('%PDF-');
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const TIFF_LE = [0x49, 0x49, 0x2a, 0x00];
const TIFF_BE = [0x4d, 0x4d, 0x00, 0x2a];
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');
const RTF = ascii('{\\rtf');
const ZIP_LOCAL = [0x50, 0x4b, 0x03, 0x04];
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function format(name: string, ...aliases: string[]): MagicMatch {
  return { kind: 'format', format: name, aliases };
}

/** PDF readers accept `%PDF-` anywhere in the first 1024 bytes (some writers prepend junk). */
function isPdf(bytes: Uint8Array): boolean {
  if (startsWith(bytes, PDF)) return true;
  const limit = Math.min(bytes.length - PDF.length, 1024);
  for (let i = 1; i <= limit; i++) if (bytes[i] === 0x25 && startsWith(bytes, PDF, i)) return true;
  return false;
}

/** BMP: `BM`, then reserved zero fields and a pixel offset inside the file. */
function isBmp(bytes: Uint8Array): boolean {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const reservedZero = view.getUint32(6, true) === 0;
  const pixelOffset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  return reservedZero && pixelOffset >= 26 && [12, 40, 52, 56, 64, 108, 124].includes(headerSize);
}

/** Netpbm: `P1`–`P6` followed by whitespace. */
function pnmFormat(bytes: Uint8Array): MagicMatch | null {
  if (bytes.length < 3 || bytes[0] !== 0x50) return null;
  const digit = bytes[1] - 0x30;
  if (digit < 1 || digit > 6 || ![0x20, 0x09, 0x0a, 0x0d].includes(bytes[2])) return null;
  if (digit === 1 || digit === 4) return format('pbm', 'pnm');
  if (digit === 2 || digit === 5) return format('pgm', 'pnm');
  return format('ppm', 'pnm');
}

/** What the leading bytes say the file is, or null when they say nothing. */
export function sniffMagic(bytes: Uint8Array): MagicMatch | null {
  if (isPdf(bytes)) return format('pdf');
  if (startsWith(bytes, ZIP_LOCAL) || startsWith(bytes, ZIP_EMPTY)) return { kind: 'zip' };
  if (startsWith(bytes, OLE2)) return { kind: 'ole2' };
  if (startsWith(bytes, PNG)) return format('png');
  if (startsWith(bytes, JPEG)) return format('jpg', 'jpeg', 'jpe', 'jfif');
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return format('gif');
  if (startsWith(bytes, TIFF_LE) || startsWith(bytes, TIFF_BE)) return format('tiff', 'tif');
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return format('webp');
  if (startsWith(bytes, RTF)) return format('rtf');
  if (isBmp(bytes)) return format('bmp', 'dib');
  return pnmFormat(bytes);
}
