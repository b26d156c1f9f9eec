// Walks an e-mail's MIME tree: the headers worth reading (Subject, From, To, Cc, Date), the
// body text (text/plain as is, text/html converted to text; of a multipart/alternative only
// one version, text/plain preferred) and the attachments as bytes with a file name, for the
// caller to extract through the registry. Attached messages (message/rfc822) are attachments
// named `*.eml`, so they are read — and depth-limited — like any other attached file.

import { htmlToText } from '../text-formats/html.ts';
import {
  bytesToBinary,
  decodeCharset,
  decodeHeaderText,
  decodeTransferEncoding,
  header,
  parseEntity,
  parseStructured,
  type MimeEntity,
} from './mime.ts';

export interface MailAttachment {
  name: string | null;
  bytes: Uint8Array;
}

export interface MailContent {
  subject: string | null;
  /** `From: …`, `To: …`, `Date: …` lines, decoded. */
  headerLines: string[];
  /** Body text blocks in reading order. */
  body: string[];
  attachments: MailAttachment[];
}

const SHOWN_HEADERS: ReadonlyArray<[string, string]> = [
  ['from', 'From'], ['to', 'To'], ['cc', 'Cc'], ['date', 'Date'],
];

/** Multipart nesting deeper than this is not followed (it is never legitimate). */
const MAX_PART_DEPTH = 40;

/** File name extensions for nameless attachments, by MIME type. */
const TYPE_EXTENSIONS: Record<string, string> = {
  'text/plain': 'txt', 'text/html': 'html', 'text/calendar': 'ics', 'text/vcard': 'vcf', 'text/x-vcard': 'vcf',
  'text/csv': 'csv', 'text/markdown': 'md', 'application/pdf': 'pdf', 'application/rtf': 'rtf', 'text/rtf': 'rtf',
  'application/zip': 'zip', 'message/rfc822': 'eml', 'application/json': 'json', 'application/xml': 'xml', 'text/xml': 'xml',
};

interface PartResult {
  body: string[];
  attachments: MailAttachment[];
  /** Whether the part (or its chosen alternative) is text/plain. */
  plain: boolean;
}

/** The body parts of a multipart body (between `--boundary` lines, preamble and epilogue dropped). */
export function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const parts: string[] = [];
  let current: string[] | null = null;
  for (const line of body.split('\n')) {
    const bare = line.replace(/[ \t\r]+$/, '');
    if (bare === delimiter || bare === `${delimiter}--`) {
      if (current !== null) parts.push(current.join('\n').replace(/\r$/, ''));
      current = bare === delimiter ? [] : null;
      if (current === null) break;
      continue;
    }
    current?.push(line);
  }
  if (current !== null && current.length > 0) parts.push(current.join('\n').replace(/\r$/, '')); // unterminated last part
  return parts;
}

function attachmentName(entity: MimeEntity, type: string): string | null {
  const disposition = parseStructured(header(entity.headers, 'content-disposition'));
  const content = parseStructured(header(entity.headers, 'content-type'));
  const name = disposition.params.filename ?? content.params.name ?? null;
  if (name !== null && name.trim() !== '') return name.trim();
  const extension = TYPE_EXTENSIONS[type];
  return extension === undefined ? null : `attachment.${extension}`;
}

function walkPart(entity: MimeEntity, depth: number): PartResult {
  const contentType = parseStructured(header(entity.headers, 'content-type'));
  const type = contentType.value === '' ? 'text/plain' : contentType.value;
  const disposition = parseStructured(header(entity.headers, 'content-disposition')).value;
  const result: PartResult = { body: [], attachments: [], plain: type === 'text/plain' };
  if (type.startsWith('multipart/')) {
    const boundary = contentType.params.boundary;
    if (boundary === undefined || depth >= MAX_PART_DEPTH) return result;
    const children = splitMultipart(entity.body, boundary).map((raw) => walkPart(parseEntity(raw), depth + 1));
    if (type === 'multipart/alternative') {
      const withText = children.filter((child) => child.body.some((text) => text.trim() !== ''));
      const chosen = withText.find((child) => child.plain) ?? withText[withText.length - 1] ?? children[0];
      return chosen ?? result;
    }
    for (const child of children) {
      result.body.push(...child.body);
      result.attachments.push(...child.attachments);
    }
    return result;
  }
  const bytes = decodeTransferEncoding(entity.body, header(entity.headers, 'content-transfer-encoding'));
  const isBodyText = (type === 'text/plain' || type === 'text/html') && disposition !== 'attachment';
  if (isBodyText) {
    const text = decodeCharset(bytes, contentType.params.charset ?? null);
    result.body.push(type === 'text/html' ? htmlToText(text).text : text.replace(/\r\n?/g, '\n'));
  } else {
    result.attachments.push({ name: attachmentName(entity, type), bytes });
  }
  return result;
}

/** Reads a whole message (bytes of an .eml file). */
export function readMessage(bytes: Uint8Array): MailContent {
  const entity = parseEntity(bytesToBinary(bytes));
  const subjectRaw = header(entity.headers, 'subject');
  const subject = subjectRaw === null ? null : decodeHeaderText(subjectRaw).replace(/\s+/g, ' ').trim() || null;
  const headerLines: string[] = [];
  for (const [name, label] of SHOWN_HEADERS) {
    for (const value of entity.headers.get(name) ?? []) headerLines.push(`${label}: ${decodeHeaderText(value).replace(/\s+/g, ' ').trim()}`);
  }
  const { body, attachments } = walkPart(entity, 0);
  return { subject, headerLines, body, attachments };
}
