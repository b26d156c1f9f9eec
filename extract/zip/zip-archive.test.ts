// Unit tests for the one ZIP reader (extract/zip/) on real zip bytes from the shared test
// writer, patched where a test needs a hostile or unusual file: each limit in zip-limits.ts
// (entries, name length, compression ratio, the unpack budget), ZIP64, data descriptors,
// encrypted and unknown-method entries, damaged and truncated files, and name decoding.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeZip, type TestEntry } from '../../test/helpers/zip-writer.ts';
import { ExtractionError } from '../extraction.ts';
import {
  crc32,
  MAX_ZIP_ENTRIES,
  MAX_ZIP_NAME_BYTES,
  readZipListing,
  ZipArchive,
  ZipLimitError,
  type ZipLimit,
} from './index.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const decode = (bytes: Uint8Array | null): string | null => (bytes === null ? null : new TextDecoder().decode(bytes));
const MIB = 1024 * 1024;
const BUDGET = { maxUnpackedBytes: 10 * MIB };

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Offsets of the central directory records of a zip from makeZip (no comment, no ZIP64). */
function centralRecords(zip: Uint8Array): number[] {
  const view = viewOf(zip);
  const eocd = zip.length - 22;
  const offsets: number[] = [];
  let at = view.getUint32(eocd + 16, true);
  for (let i = 0; i < view.getUint16(eocd + 10, true); i++) {
    offsets.push(at);
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return offsets;
}

/** A copy of `zip` with `patch` applied to the central record (and local header) of entry `index`. */
function patched(zip: Uint8Array, index: number, patch: (view: DataView, central: number, local: number) => void): Uint8Array {
  const copy = new Uint8Array(zip);
  const view = viewOf(copy);
  const central = centralRecords(copy)[index];
  patch(view, central, view.getUint32(central + 42, true));
  return copy;
}

/**
 * The same archive in ZIP64 form: every central record's sizes and offset moved to a ZIP64
 * extra field, and a ZIP64 end record (claiming `count` entries) before the classic one.
 */
function toZip64(zip: Uint8Array, count?: number): Uint8Array {
  const view = viewOf(zip);
  const directoryStart = view.getUint32(zip.length - 22 + 16, true);
  const records: Buffer[] = [];
  for (const at of centralRecords(zip)) {
    const nameLength = view.getUint16(at + 28, true);
    const record = Buffer.from(zip.subarray(at, at + 46 + nameLength));
    const extra = Buffer.alloc(28);
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(24, 2);
    extra.writeBigUInt64LE(BigInt(view.getUint32(at + 24, true)), 4);
    extra.writeBigUInt64LE(BigInt(view.getUint32(at + 20, true)), 12);
    extra.writeBigUInt64LE(BigInt(view.getUint32(at + 42, true)), 20);
    record.writeUInt32LE(0xffffffff, 20);
    record.writeUInt32LE(0xffffffff, 24);
    record.writeUInt32LE(0xffffffff, 42);
    record.writeUInt16LE(extra.length, 30);
    records.push(record, extra);
  }
  const directory = Buffer.concat(records);
  const entries = count ?? centralRecords(zip).length;
  const zip64End = Buffer.alloc(56);
  zip64End.writeUInt32LE(0x06064b50, 0);
  zip64End.writeBigUInt64LE(44n, 4);
  zip64End.writeBigUInt64LE(BigInt(entries), 24);
  zip64End.writeBigUInt64LE(BigInt(entries), 32);
  zip64End.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64End.writeBigUInt64LE(BigInt(directoryStart), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(directoryStart + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return new Uint8Array(Buffer.concat([zip.subarray(0, directoryStart), directory, zip64End, locator, end]));
}

function open(zip: Uint8Array, options = BUDGET): ZipArchive {
  return ZipArchive.open(zip, options);
}

async function readNamed(zip: ZipArchive, name: string, maxBytes?: number): Promise<Uint8Array> {
  const entry = zip.entries.find((e) => e.name === name);
  assert.ok(entry !== undefined, `no entry ${name}`);
  return zip.read(entry, maxBytes);
}

async function refusal(run: () => unknown): Promise<ExtractionError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof ExtractionError, `not an ExtractionError: ${String(error)}`);
    assert.equal(error.code, 'extraction_failed');
    return error;
  }
  assert.fail('the read should have been refused');
}

async function limitRefusal(limit: ZipLimit, run: () => unknown): Promise<ZipLimitError> {
  const error = await refusal(run);
  assert.ok(error instanceof ZipLimitError, `not a ZipLimitError: ${error.message}`);
  assert.equal(error.limit, limit);
  return error;
}

const SAMPLE: TestEntry[] = [
  { name: 'folder/', data: '' },
  { name: 'folder/stored.txt', data: 'stored words', store: true },
  { name: 'folder/deflated.txt', data: 'deflated words '.repeat(100) },
  { name: 'empty.txt', data: '' },
];

test('entries are listed in directory order and read back, stored and deflated', async () => {
  const zip = open(makeZip(SAMPLE));
  assert.deepEqual(zip.entries.map((e) => e.name), ['folder/', 'folder/stored.txt', 'folder/deflated.txt', 'empty.txt']);
  assert.deepEqual(zip.files.map((e) => e.name), ['folder/stored.txt', 'folder/deflated.txt', 'empty.txt']);
  assert.equal(decode(await readNamed(zip, 'folder/stored.txt')), 'stored words');
  assert.equal(decode(await readNamed(zip, 'folder/deflated.txt')), 'deflated words '.repeat(100));
  assert.equal((await readNamed(zip, 'empty.txt')).length, 0);
  assert.equal(zip.remaining, BUDGET.maxUnpackedBytes - 12 - 1500);
});

test('ZIP64: sizes and offsets from the extra field, the directory from the ZIP64 end record', async () => {
  const zip = open(toZip64(makeZip(SAMPLE)));
  assert.deepEqual(zip.files.map((e) => [e.name, e.uncompressedSize]), [
    ['folder/stored.txt', 12],
    ['folder/deflated.txt', 1500],
    ['empty.txt', 0],
  ]);
  assert.equal(decode(await readNamed(zip, 'folder/deflated.txt')), 'deflated words '.repeat(100));
  assert.deepEqual(readZipListing(toZip64(makeZip(SAMPLE)))?.names, SAMPLE.map((e) => e.name));
});

test(`more than ${MAX_ZIP_ENTRIES} entries are refused before any record is read`, async () => {
  const claimed = toZip64(makeZip([{ name: 'a.txt', data: 'a' }]), MAX_ZIP_ENTRIES + 1);
  const error = await limitRefusal('entries', () => open(claimed));
  assert.match(error.message, new RegExp(`more than the ${MAX_ZIP_ENTRIES} allowed`));
  // Detection falls back to the local headers and still sees the entry.
  assert.deepEqual(readZipListing(claimed)?.names, ['a.txt']);
});

test(`an entry name longer than ${MAX_ZIP_NAME_BYTES} bytes is refused; one at the limit is read`, async () => {
  const longest = 'n'.repeat(MAX_ZIP_NAME_BYTES);
  assert.equal(open(makeZip([{ name: longest, data: 'x' }])).entries[0].name, longest);
  await limitRefusal('name', () => open(makeZip([{ name: `${longest}n`, data: 'x' }])));
});

test('a declared compression ratio no deflate stream reaches is refused before inflating', async () => {
  const zip = open(makeZip([{ name: 'x.txt', data: 'tiny', declaredSize: 5 * MIB }]));
  await limitRefusal('ratio', () => zip.checkDeclaredSizes(zip.files));
  const error = await limitRefusal('ratio', () => zip.read(zip.files[0]));
  assert.match(error.message, /x\.txt declares a compression ratio of \d+:1/);
  // Honest zeros compress about 1000:1 and are read.
  const zeros = open(makeZip([{ name: 'zeros', data: new Uint8Array(2 * MIB) }]));
  zeros.checkDeclaredSizes(zeros.files);
  assert.equal((await zeros.read(zeros.files[0])).length, 2 * MIB);
});

test('the budget: declared sizes over it are refused up front, and reads share it', async () => {
  const part = new Uint8Array(600_000);
  const bytes = makeZip([{ name: 'a', data: part }, { name: 'b', data: part }]);
  const small = { maxUnpackedBytes: 1_000_000 };
  const up = open(bytes, small);
  const error = await limitRefusal('unpacked', () => up.checkDeclaredSizes(up.files));
  assert.match(error.message, /unpacks to more than 1000000 bytes/);
  const zip = open(bytes, small);
  assert.equal((await readNamed(zip, 'a')).length, 600_000);
  await limitRefusal('unpacked', () => readNamed(zip, 'b'));
  // A per-read limit (a budget shared with other archives) lowers it further.
  await limitRefusal('unpacked', () => readNamed(open(bytes, small), 'a', 500_000));
});

test('an entry lying about its size is stopped at the budget while inflating, or fails its size check', async () => {
  const zeros = new Uint8Array(5 * MIB);
  const liar = open(makeZip([{ name: 'small.txt', data: zeros, declaredSize: 100 }]), { maxUnpackedBytes: MIB });
  const started = Date.now();
  await limitRefusal('unpacked', () => readNamed(liar, 'small.txt'));
  assert.ok(Date.now() - started < 2000);
  const within = open(makeZip([{ name: 'small.txt', data: new Uint8Array(1000), declaredSize: 100 }]));
  assert.match((await refusal(() => readNamed(within, 'small.txt'))).message, /declared size/);
  const stored = open(makeZip([{ name: 's.txt', data: new Uint8Array(1000), declaredSize: 100, store: true }]));
  assert.match((await refusal(() => readNamed(stored, 's.txt'))).message, /declared size/);
});

test('entries whose sizes follow their data (data descriptor) are read from the central directory', async () => {
  const bytes = patched(makeZip([{ name: 'a.txt', data: 'described later' }, { name: 'b.txt', data: 'second' }]), 0, (view, central, local) => {
    view.setUint16(central + 8, view.getUint16(central + 8, true) | 0x08, true);
    view.setUint16(local + 6, view.getUint16(local + 6, true) | 0x08, true);
    for (const field of [14, 18, 22]) view.setUint32(local + field, 0, true);
  });
  assert.equal(decode(await readNamed(open(bytes), 'a.txt')), 'described later');
  // Without its central directory, the walk cannot skip such an entry and stops after it.
  assert.deepEqual(readZipListing(bytes.subarray(0, 60))?.names, ['a.txt']);
});

test('encrypted entries and unknown compression methods are refused', async () => {
  const bytes = makeZip([{ name: 'a.txt', data: 'secret' }]);
  const encrypted = patched(bytes, 0, (view, central) => view.setUint16(central + 8, view.getUint16(central + 8, true) | 0x01, true));
  assert.match((await refusal(() => readNamed(open(encrypted), 'a.txt'))).message, /encrypted/);
  const bzip2 = patched(bytes, 0, (view, central) => view.setUint16(central + 10, 12, true));
  assert.match((await refusal(() => readNamed(open(bzip2), 'a.txt'))).message, /compression method 12/);
});

test('damaged files: bad CRC, garbled deflate data, a missing local header, a cut central directory', async () => {
  const bytes = makeZip([{ name: 'a.txt', data: 'some text that will be damaged, repeated repeated repeated' }]);
  const badCrc = patched(bytes, 0, (view, central) => view.setUint32(central + 16, 0x12345678, true));
  assert.match((await refusal(() => readNamed(open(badCrc), 'a.txt'))).message, /CRC/);
  const garbled = new Uint8Array(bytes);
  for (let i = 38; i < 50; i++) garbled[i] ^= 0xff;
  assert.match((await refusal(() => readNamed(open(garbled), 'a.txt'))).message, /damaged/);
  const noLocal = patched(bytes, 0, (view, central) => view.setUint32(central + 42, 5, true));
  assert.match((await refusal(() => readNamed(open(noLocal), 'a.txt'))).message, /local header/);
  const records = patched(bytes, 0, (view) => view.setUint16(bytes.length - 22 + 10, 3, true));
  assert.match((await refusal(() => open(records))).message, /record 2 of 3 is missing/);
  assert.match((await refusal(() => open(bytes.subarray(0, bytes.length - 10)))).message, /central directory is missing/);
  assert.match((await refusal(() => open(utf8('PK\u0003\u0004 not really a zip')))).message, /damaged/);
});

test('a truncated file is listed from its local headers for detection, with its mimetype', () => {
  const bytes = makeZip([
    { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', store: true },
    { name: 'content.xml', data: '<x/>' },
    { name: 'meta.xml', data: '<y/>' },
  ]);
  assert.deepEqual(readZipListing(bytes), { names: ['mimetype', 'content.xml', 'meta.xml'], mimetype: 'application/vnd.oasis.opendocument.text' });
  const cut = readZipListing(bytes.subarray(0, 120)); // cut inside content.xml's data
  assert.deepEqual(cut, { names: ['mimetype', 'content.xml'], mimetype: 'application/vnd.oasis.opendocument.text' });
  assert.equal(readZipListing(utf8('PK\u0003\u0004')), null);
  assert.equal(readZipListing(new Uint8Array(0)), null);
});

test('names: backslashes become slashes; Latin-1 without the UTF-8 flag; the Info-ZIP Unicode path wins', () => {
  const bytes = makeZip([{ name: 'dir\\file.txt', data: 'x' }]);
  assert.equal(open(bytes).entries[0].name, 'dir/file.txt');
  // "café" in Latin-1 (not valid UTF-8), UTF-8 flag cleared: read as Latin-1.
  const latin1 = patched(makeZip([{ name: 'cafX', data: 'x' }]), 0, (view, central) => {
    view.setUint16(central + 8, 0, true);
    view.setUint8(central + 46 + 3, 0xe9);
  });
  assert.equal(open(latin1).entries[0].name, 'café');
  // A Unicode path extra field (version 1, CRC of the raw name, UTF-8 name) replaces it.
  const view = viewOf(latin1);
  const central = centralRecords(latin1)[0];
  const unicodeName = utf8('café ☕');
  const extra = Buffer.alloc(9 + unicodeName.length);
  extra.writeUInt16LE(0x7075, 0);
  extra.writeUInt16LE(5 + unicodeName.length, 2);
  extra.writeUInt8(1, 4);
  extra.writeUInt32LE(crc32(latin1.subarray(central + 46, central + 50)), 5);
  extra.set(unicodeName, 9);
  const record = Buffer.from(latin1.subarray(central, central + 50));
  record.writeUInt16LE(extra.length, 30);
  const end = Buffer.from(latin1.subarray(latin1.length - 22));
  end.writeUInt32LE(view.getUint32(latin1.length - 22 + 12, true) + extra.length, 12);
  const withExtra = new Uint8Array(Buffer.concat([latin1.subarray(0, central), record, extra, end]));
  assert.equal(open(withExtra).entries[0].name, 'café ☕');
});
