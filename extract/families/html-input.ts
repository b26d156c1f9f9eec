// Decoding HTML bytes: a BOM or valid UTF-8 wins; otherwise the page's own declared charset
// (`<meta charset>` or http-equiv Content-Type) when the platform knows it, else windows-1252.

import { decodeText } from '../text-decoding.ts';
import { readTextFile } from './text-input.ts';

/** The text of an HTML file, honouring a declared legacy charset. */
export function decodeHtmlBytes(bytes: Uint8Array): string {
  const decoded = decodeText(bytes);
  if (decoded.encoding !== 'windows-1252') return readTextFile(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const declared = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  if (declared !== undefined) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // unknown label: fall back to windows-1252 below
    }
  }
  return readTextFile(bytes);
}
