// Outlook messages from the committed fixture (fixtures/make-msg-fixtures.py, an OLE2 file that
// Debian's python3-olefile also reads): the subject as title; sender, To and Cc; the body; the
// attachment's text under its name; and hostile variants (a directory that loops, a file cut
// short, an OLE2 file without message properties) refused as extraction_failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { detectFormat, extractFile } from '../index.ts';
import { extractionRefusal } from '../../test/helpers/extraction-refusal.ts';

const FIXTURE = new Uint8Array(readFileSync(fileURLToPath(new URL('../../fixtures/files/sample.msg', import.meta.url))));
const DIRECTORY_SECTOR = 1; // the fixture's layout: header, one FAT sector, then the directory
const ENTRY_BYTES = 128;

test('an Outlook message is read as an e-mail: headers, body, attachments, the subject as title', async () => {
  assert.equal(detectFormat(FIXTURE, 'mail.bin'), 'msg', 'detected by its property streams');
  const result = await extractFile(FIXTURE, 'sample.msg');
  assert.equal(result.format, 'msg');
  assert.equal(result.title, 'Quarterly folioquokka report');
  assert.equal(result.pages.length, 1);
  assert.equal(
    result.pages[0].text,
    'From: Ada Lovelace <ada@example.org>\nTo: Grace Hopper\nCc: Charles Babbage\n\n'
      + 'Hello team,\nthe folioquokka msgwombat numbers are in.\nRegards, Ada\n\nAttachment: notes.txt\nattachment text attachkoala',
  );
});

test('hostile messages are refused at once', async () => {
  // The root's first child points back at itself as its right sibling: a loop.
  const looping = new Uint8Array(FIXTURE);
  const firstChild = (DIRECTORY_SECTOR + 1) * 512 + 1 * ENTRY_BYTES;
  new DataView(looping.buffer).setUint32(firstChild + 72, 1, true);
  assert.match(await extractionRefusal(looping, 'loop.msg'), /loops/);
  assert.match(await extractionRefusal(FIXTURE.subarray(0, 1100), 'short.msg'), /not a readable OLE2 compound file/);
  // A message whose property streams were renamed away holds nothing to read as a message.
  const renamed = new Uint8Array(FIXTURE);
  const text = Buffer.from(renamed.buffer);
  for (let at = text.indexOf(Buffer.from('__substg', 'utf16le')); at >= 0; at = text.indexOf(Buffer.from('__substg', 'utf16le'), at + 1)) text.write('x', at, 'utf16le');
  assert.match(await extractionRefusal(renamed, 'empty.msg'), /not an Outlook message|could not be read|no extractor/);
});
