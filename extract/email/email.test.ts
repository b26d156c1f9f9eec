// Tests for e-mail extraction: Subject (encoded words, folded) as title, headers as text,
// quoted-printable and base64 bodies in utf-8 and iso-8859-1, HTML bodies converted, one
// alternative only, attachments read through the registry, and nesting limited by depth.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { DEFAULT_EXTRACTION_OPTIONS, ExtractionError, extractFile } from '../index.ts';
import type { ExtractionOptions } from '../index.ts';
import { decodeHeaderText, decodeQuotedPrintable, parseEntity, parseStructured } from './mime.ts';
import { splitMultipart } from './message.ts';

const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const crlf = (lines: string[]): string => lines.join('\r\n');

async function readEml(text: string, limits?: ExtractionOptions) {
  return extractFile(latin1(text), 'message.eml', limits);
}

test('the Subject is the title; From/To/Date are text; folded headers unfold', async () => {
  const result = await readEml(crlf([
    'From: "Zoë" <zoe@example.com>',
    'To: a@example.com,',
    '\tb@example.com',
    'Date: Mon, 1 Jan 2024 10:00:00 +0000',
    'Subject: =?iso-8859-1?Q?Caf=E9?= =?utf-8?B?IOKCrA==?=',
    '  and more',
    '',
    'Plain body.',
  ]));
  assert.equal(result.format, 'eml');
  assert.equal(result.title, 'Café € and more');
  assert.equal(result.pages.length, 1);
  assert.match(result.pages[0].text, /^From: "Zoë" <zoe@example.com>\nTo: a@example.com,\tb@example.com|^From: "Zoë" <zoe@example.com>\nTo: a@example.com, b@example.com/);
  assert.match(result.pages[0].text, /Date: Mon, 1 Jan 2024/);
  assert.match(result.pages[0].text, /Plain body\.$/);
});

test('quoted-printable and base64 bodies decode in their charset', async () => {
  const qp = await readEml(crlf([
    'Subject: qp',
    'Content-Type: text/plain; charset=iso-8859-1',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Cr=E8me br=FBl=E9e, a soft =',
    'break.',
  ]));
  assert.match(qp.pages[0].text, /Crème brûlée, a soft break\./);
  const b64 = await readEml(crlf([
    'Subject: b64',
    'Content-Type: text/plain; charset="UTF-8"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('Grüße aus Köln', 'utf8').toString('base64'),
  ]));
  assert.match(b64.pages[0].text, /Grüße aus Köln/);
});

test('an HTML-only message is converted to text; of alternatives only text/plain is kept', async () => {
  const html = await readEml(crlf([
    'Subject: html',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<html><head><style>.x{}</style></head><body><p>Hello &amp; <b>welcome</b></p></body></html>',
  ]));
  assert.match(html.pages[0].text, /Hello & welcome/);
  assert.doesNotMatch(html.pages[0].text, /<|\.x\{/);
  const alt = await readEml(crlf([
    'Subject: alt',
    'Content-Type: multipart/alternative; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain',
    '',
    'plain version',
    '--b',
    'Content-Type: text/html',
    '',
    '<p>html version</p>',
    '--b--',
  ]));
  assert.match(alt.pages[0].text, /plain version/);
  assert.doesNotMatch(alt.pages[0].text, /html version/);
});

test('attachments are read through the registry and appended under their names', async () => {
  const result = await readEml(crlf([
    'Subject: files',
    'Content-Type: multipart/mixed; boundary=xyz',
    '',
    '--xyz',
    'Content-Type: text/plain',
    '',
    'See attached.',
    '--xyz',
    'Content-Type: text/markdown',
    "Content-Disposition: attachment; filename*=utf-8''r%C3%A9sum%C3%A9.md",
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('# Résumé\n\nmarkdown **attachment**').toString('base64'),
    '--xyz',
    'Content-Type: application/octet-stream; name="blob.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    'AAAA',
    '--xyz--',
  ]));
  const text = result.pages[0].text;
  assert.match(text, /See attached\.\n\nAttachment: résumé\.md\nRésumé\n\nmarkdown attachment/);
  assert.doesNotMatch(text, /blob\.bin/);
});

test('an attached message is read, and refused beyond maxArchiveDepth', async () => {
  const inner = crlf(['Subject: inner', '', 'inner body words']);
  const outer = crlf([
    'Subject: outer',
    'Content-Type: multipart/mixed; boundary=q',
    '',
    '--q',
    'Content-Type: text/plain',
    '',
    'outer body',
    '--q',
    'Content-Type: message/rfc822',
    '',
    inner,
    '--q--',
  ]);
  const result = await readEml(outer);
  assert.match(result.pages[0].text, /outer body[\s\S]*Attachment: attachment\.eml\n[\s\S]*inner body words/);
  await assert.rejects(readEml(outer, { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1 << 20, maxArchiveDepth: 0 }), (error: unknown) => {
    assert.ok(error instanceof ExtractionError);
    assert.equal(error.code, 'extraction_failed');
    assert.match(error.message, /nested/);
    return true;
  });
});

test('a zip bomb attached to a message is refused', async () => {
  const zeros = new Uint8Array(3 * 1024 * 1024);
  const packed = deflateRawSync(zeros);
  const zip = Buffer.alloc(30 + 5 + packed.length + 46 + 5 + 22);
  zip.writeUInt32LE(0x04034b50, 0);
  zip.writeUInt16LE(8, 8);
  zip.writeUInt32LE(packed.length, 18);
  zip.writeUInt32LE(zeros.length, 22);
  zip.writeUInt16LE(5, 26);
  zip.write('z.txt', 30, 'latin1');
  Buffer.from(packed).copy(zip, 35);
  const central = 35 + packed.length;
  zip.writeUInt32LE(0x02014b50, central);
  zip.writeUInt16LE(8, central + 10);
  zip.writeUInt32LE(packed.length, central + 20);
  zip.writeUInt32LE(zeros.length, central + 24);
  zip.writeUInt16LE(5, central + 28);
  zip.write('z.txt', central + 46, 'latin1');
  const end = central + 51;
  zip.writeUInt32LE(0x06054b50, end);
  zip.writeUInt16LE(1, end + 8);
  zip.writeUInt16LE(1, end + 10);
  zip.writeUInt32LE(51, end + 12);
  zip.writeUInt32LE(central, end + 16);
  const message = crlf([
    'Subject: bomb',
    'Content-Type: multipart/mixed; boundary=q',
    '',
    '--q',
    'Content-Type: application/zip; name=b.zip',
    'Content-Transfer-Encoding: base64',
    '',
    zip.toString('base64'),
    '--q--',
  ]);
  await assert.rejects(readEml(message, { ...DEFAULT_EXTRACTION_OPTIONS, maxUnpackedBytes: 1024 * 1024, maxArchiveDepth: 3 }), /unpacks to more than/);
});

test('MIME helpers: unfolding, parameters (quoted, RFC 2231), encoded words, QP, multipart split', () => {
  const entity = parseEntity('Subject: a\r\n b\r\nX-Other: c\r\n\r\nbody\r\n');
  assert.deepEqual(entity.headers.get('subject'), ['a b']);
  assert.equal(entity.body, 'body\r\n');
  const ct = parseStructured('Text/Plain; charset="utf-8"; name="a \\"b\\".txt"; title*0*=us-ascii\'en\'part%20one; title*1=" two"');
  assert.equal(ct.value, 'text/plain');
  assert.deepEqual(ct.params, { charset: 'utf-8', name: 'a "b".txt', title: 'part one two' });
  assert.equal(decodeHeaderText('=?UTF-8?Q?a_b=3D?= =?UTF-8?Q?c?= d'), 'a b=c d');
  assert.equal(Buffer.from(decodeQuotedPrintable('x=3Dy =\r\nz')).toString('latin1'), 'x=y z');
  assert.deepEqual(splitMultipart('preamble\r\n--B\r\none\r\n--B\r\ntwo\r\n--B--\r\nepilogue', 'B'), ['one', 'two']);
});

test('fixtures/files/sample.eml: subject, decoded body, attachment, no HTML duplicate or script', async () => {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/files/sample.eml', import.meta.url)));
  const result = await extractFile(bytes, 'sample.eml');
  assert.equal(result.title, 'Quarterly – folioquokka report');
  const text = result.pages[0].text;
  assert.match(text, /^From: Alice Müller <alice@example.com>\nTo: Bob <bob@example.com>, Carol <carol@example.com>/);
  assert.match(text, /Café crème, a long line that is soft-wrapped by quoted-printable encoding so/);
  assert.match(text, /Attachment: notes\.txt\nAttached notes: attachwombat lives here\./);
  assert.equal(text.split('emlwombat').length, 2, 'the HTML alternative is not read as well');
  assert.doesNotMatch(text, /scriptjunk|Return-Path|MIME-Version/);
});
