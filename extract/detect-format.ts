// Names a file's format: magic bytes first (PDF, ZIP-based office/e-book files, OLE2, images,
// RTF), then the file name's extension (or a well-known extension-less name like `Makefile`),
// then, for a file without an extension or whose extension names no type Folio reads
// (`Apache-2.0`, `notes.bak`, `minutes 2024.03.01`), a sniff of its content (text → `txt`):
// text is text whatever its name. A `.doc`/`.dot` that is not an OLE2 file is sniffed too:
// Word saves web pages and plain text under that name.

import { sniffMagic } from './magic-bytes.ts';
import { ole2Format, zipFormat } from './container-formats.ts';
import { decodeText, looksLikeText } from './text-decoding.ts';

/** Extension-less file names that say what they are (compared lowercased). */
const SPECIAL_NAMES: Record<string, string> = {
  dockerfile: 'dockerfile',
  containerfile: 'dockerfile',
  makefile: 'mk',
  gnumakefile: 'mk',
  rakefile: 'rb',
  gemfile: 'rb',
  jenkinsfile: 'groovy',
  cmakelists: 'cmake',
  'cmakelists.txt': 'cmake',
};

/** The file's base name without folders. */
function baseName(fileName: string): string {
  const parts = fileName.split(/[\\/]/);
  return parts[parts.length - 1] ?? '';
}

/** The lowercased extension of a file name, or null (`.bashrc` and `README` have none). */
export function fileExtension(fileName: string | null): string | null {
  if (fileName === null) return null;
  const name = baseName(fileName);
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return null;
  return name.slice(dot + 1).toLowerCase();
}

/** The format a file name alone suggests: a special name, else the lowercased extension. */
export function formatFromFileName(fileName: string | null): string | null {
  if (fileName === null) return null;
  const special = SPECIAL_NAMES[baseName(fileName).toLowerCase()];
  if (special !== undefined) return special;
  return fileExtension(fileName);
}

/** Extension-less content: markup and subtitles by their opening, other text as `txt`. */
function sniffText(bytes: Uint8Array): string | null {
  const { text } = decodeText(bytes.subarray(0, 8192));
  if (!looksLikeText(text)) return null;
  const head = text.trimStart().slice(0, 256).toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'html';
  if (head.startsWith('<?xml')) return /<svg[\s>]/.test(text.slice(0, 2048)) ? 'svg' : 'xml';
  if (head.startsWith('webvtt')) return 'vtt';
  if (head.startsWith('begin:vcalendar')) return 'ics';
  if (head.startsWith('begin:vcard')) return 'vcf';
  return 'txt';
}

/**
 * Names under which Word saves files that are not Word binaries: "Save as Web Page" (HTML, or
 * MHTML for a single-file page), Word 2003 XML, plain text. Such a file, when it is not an
 * OLE2/ZIP/RTF file by its magic bytes, is named by its content instead.
 */
const WORD_BINARY_NAMES = new Set(['doc', 'dot']);

/** The real format of a text file named `.doc`/`.dot`: html, xml, eml (MHTML) or txt; null when binary. */
function sniffWordLookalike(bytes: Uint8Array): string | null {
  const sniffed = sniffText(bytes);
  if (sniffed !== 'txt') return sniffed;
  const head = decodeText(bytes.subarray(0, 1024)).text.trimStart().slice(0, 64).toLowerCase();
  return head.startsWith('mime-version:') ? 'eml' : 'txt';
}

/**
 * The format name of a file (a registry key such as `pdf`, `docx`, `md`), or null when
 * neither its bytes nor its name say anything. `readable` says which formats are read: a name
 * suggesting another is checked against the content (text is `txt`), else kept, so the refusal
 * can name it. The result may name a format no family reads; the registry decides.
 */
export function detectFormat(bytes: Uint8Array, fileName: string | null, readable: (format: string) => boolean = () => true): string | null {
  const extension = fileExtension(fileName);
  const magic = sniffMagic(bytes);
  if (magic !== null) {
    if (magic.kind === 'zip') return zipFormat(bytes, extension);
    if (magic.kind === 'ole2') return ole2Format(bytes, extension) ?? extension;
    // Keep the file's own spelling when it is another name for the same type (`.jpeg`).
    if (extension !== null && magic.aliases.includes(extension)) return extension;
    return magic.format;
  }
  const byName = formatFromFileName(fileName);
  if (byName !== null && WORD_BINARY_NAMES.has(byName) && bytes.length > 0) return sniffWordLookalike(bytes) ?? byName;
  if (byName !== null) return readable(byName) || bytes.length === 0 ? byName : (sniffText(bytes) ?? byName);
  if (bytes.length === 0) return fileName === null ? null : 'txt';
  return sniffText(bytes);
}
