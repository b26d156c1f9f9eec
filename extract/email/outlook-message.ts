// Outlook messages (.msg, [MS-OXMSG]): an OLE2 compound file whose properties are streams named
// `__substg1.0_<tag><type>` (type 001F: UTF-16 text, 001E: 8-bit text, 0102: bytes). Read here:
// the subject (0037), the sender's name and address (0C1A, 0C1F or 5D01), To and Cc (0E04,
// 0E03), the plain body (1000) or else the HTML body (1013) as text, and each attachment's
// storage (`__attach_version1.0_#N`): its long or short file name (3707, 3704) and its bytes
// (3701). The message comes out as an e-mail does (message.ts), so the e-mail family reads
// both the same way.

import { ExtractionError } from '../extraction.ts';
import { CompoundFile } from '../office/compound-file.ts';
import { htmlToText } from '../text-formats/html.ts';
import type { MailAttachment, MailContent } from './message.ts';

const ATTACHMENT_STORAGE = /^__attach_version1\.0_#[0-9A-Fa-f]{8}$/;
/** Attachments read at most (the rest are left out). */
const MAX_ATTACHMENTS = 1_000;

function text(file: CompoundFile, prefix: string, tag: string): string | null {
  const wide = file.stream(`${prefix}__substg1.0_${tag}001F`);
  if (wide !== null) return new TextDecoder('utf-16le').decode(wide).replace(/\0+$/, '');
  const narrow = file.stream(`${prefix}__substg1.0_${tag}001E`);
  return narrow === null ? null : new TextDecoder('windows-1252').decode(narrow).replace(/\0+$/, '');
}

function nonEmpty(value: string | null): string | null {
  return value === null || value.trim() === '' ? null : value.trim();
}

/** The message as the e-mail family reads one. */
export function readOutlookMessage(bytes: Uint8Array): MailContent {
  const file = CompoundFile.open(bytes);
  if (!file.streamNames.some((name) => name.startsWith('__substg1.0_'))) {
    throw new ExtractionError('extraction_failed', 'the file is not an Outlook message: it has no message properties');
  }
  const senderName = nonEmpty(text(file, '', '0C1A'));
  const senderAddress = nonEmpty(text(file, '', '5D01') ?? text(file, '', '0C1F'));
  const headerLines: string[] = [];
  const from = senderName !== null && senderAddress !== null ? `${senderName} <${senderAddress}>` : (senderName ?? senderAddress);
  if (from !== null) headerLines.push(`From: ${from}`);
  for (const [tag, label] of [['0E04', 'To'], ['0E03', 'Cc']] as const) {
    const value = nonEmpty(text(file, '', tag));
    if (value !== null) headerLines.push(`${label}: ${value}`);
  }
  const body: string[] = [];
  const plain = nonEmpty(text(file, '', '1000'));
  if (plain !== null) {
    body.push(plain.replace(/\r\n?/g, '\n'));
  } else {
    const html = file.stream('__substg1.0_10130102');
    if (html !== null) body.push(htmlToText(new TextDecoder('utf-8').decode(html)).text);
  }
  const attachments: MailAttachment[] = [];
  for (const storage of file.storageNames.filter((name) => ATTACHMENT_STORAGE.test(name)).sort().slice(0, MAX_ATTACHMENTS)) {
    const data = file.stream(`${storage}/__substg1.0_37010102`);
    // An attached message (a storage, 3701000D) or an OLE object has no bytes stream: left out.
    if (data === null) continue;
    attachments.push({ name: nonEmpty(text(file, `${storage}/`, '3707') ?? text(file, `${storage}/`, '3704')), bytes: data });
  }
  return { subject: nonEmpty(text(file, '', '0037')), headerLines, body, attachments };
}
