// Tests for the durable append log on real files: group commit (one fdatasync per batch,
// appends made during a batch wait for the next and resolve only after its sync), the chunked
// scanner against a naive whole-file one (random records, cuts and flipped bytes, tiny chunks),
// torn tails cut off at open while damage is reported, failed writes and syncs rejecting their
// appends and cut off before the next batch, rotation writing files strictly in order, and
// compaction during appends losing nothing and never running under a write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppendLog, NODE_APPEND_LOG_IO } from './append-log.ts';
import type { AppendLogIo, AppendLogOptions } from './append-log.ts';
import { LINE_FRAMING } from './line-framing.ts';
import { scanRecords } from './record-framing.ts';
import type { LogScan, RecordFraming } from './record-framing.ts';
import { WAL_FRAME_HEADER_BYTES, WAL_FRAMING, encodeWalFrame } from './wal-frame.ts';
import { crc32 } from './crc32.ts';
import { CorruptFileError, StorageError } from './errors.ts';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-append-log-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** Every record of a file, read back through a framing (and the scan's verdict). */
function readBack<R>(file: string, framing: RecordFraming<R>, chunkBytes?: number): { records: R[]; scan: LogScan } {
  const records: R[] = [];
  const scan = scanRecords(file, framing, (record) => records.push(record), chunkBytes);
  return { records, scan };
}

function lineLog(file: string, options: Partial<AppendLogOptions<string>> = {}): AppendLog<string> {
  return AppendLog.open(file, { framing: LINE_FRAMING, name: 'test log', errorCode: 'test_log', ...options });
}

/** Real file calls, counted, with hooks to hold or fail them. */
class TestIo implements AppendLogIo {
  writes = 0;
  syncs = 0;
  truncates = 0;
  /** Calls being made right now (to check that nothing else touches the file meanwhile). */
  busy = 0;
  onWrite: ((fd: number, data: Uint8Array, offset: number, length: number) => Promise<number>) | null = null;
  onSync: ((fd: number) => Promise<void>) | null = null;
  onTruncate: ((fd: number, length: number) => Promise<void>) | null = null;

  async write(fd: number, data: Uint8Array, offset: number, length: number): Promise<number> {
    this.writes++;
    this.busy++;
    try {
      return await (this.onWrite ?? NODE_APPEND_LOG_IO.write)(fd, data, offset, length);
    } finally {
      this.busy--;
    }
  }

  async fdatasync(fd: number): Promise<void> {
    this.syncs++;
    this.busy++;
    try {
      await (this.onSync ?? NODE_APPEND_LOG_IO.fdatasync)(fd);
    } finally {
      this.busy--;
    }
  }

  async ftruncate(fd: number, length: number): Promise<void> {
    this.truncates++;
    this.busy++;
    try {
      await (this.onTruncate ?? NODE_APPEND_LOG_IO.ftruncate)(fd, length);
    } finally {
      this.busy--;
    }
  }
}

/** A promise and the function that settles it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Settles pending I/O callbacks and microtasks a few times over. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits until `condition` holds (file I/O runs on the thread pool: no fixed number of turns). */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

function errnoError(code: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: injected`);
  error.code = code;
  return error;
}

// ---------------------------------------------------------------------------------------------
// Group commit

test('appends in one tick share one write and one fdatasync, resolve in order, and replay', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const io = new TestIo();
  const log = AppendLog.open(file, { framing: WAL_FRAMING, name: 'test log', io });
  const resolved: number[] = [];
  const count = 300;
  await Promise.all(Array.from({ length: count }, (_, i) => log.append(encode(`record-${i}`)).then(() => resolved.push(i))));
  assert.equal(io.syncs, 1, `one fdatasync for ${count} appends made together`);
  assert.equal(io.writes, 1);
  assert.deepEqual(log.stats, { appends: count, syncs: 1, rewrites: 0 });
  assert.deepEqual(resolved, Array.from({ length: count }, (_, i) => i));
  await log.close();
  const { records, scan } = readBack(file, WAL_FRAMING);
  assert.equal(scan.problem, null);
  assert.deepEqual(records.map(decode), Array.from({ length: count }, (_, i) => `record-${i}`));
});

test('appends made while a batch is syncing wait, then share the next batch and resolve only after its sync', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const io = new TestIo();
  const syncGates: ReturnType<typeof gate>[] = [];
  io.onSync = async (fd) => {
    const g = gate();
    syncGates.push(g);
    await g.promise;
    await NODE_APPEND_LOG_IO.fdatasync(fd);
  };
  const log = lineLog(file, { io });
  const settled: string[] = [];
  const first = log.append('first').then(() => settled.push('first'));
  await until(() => syncGates.length === 1); // the first batch is syncing
  const later = Array.from({ length: 50 }, (_, i) => log.append(`later-${i}`).then(() => settled.push(`later-${i}`)));
  await settle();
  assert.deepEqual(settled, [], 'nothing resolves before its sync');
  assert.equal(syncGates.length, 1, 'no second write while the first batch syncs');

  syncGates[0]!.open();
  await first;
  await until(() => syncGates.length === 2);
  assert.deepEqual(settled, ['first']);
  assert.equal(io.writes, 2);

  syncGates[1]!.open();
  await Promise.all(later);
  assert.deepEqual(settled, ['first', ...Array.from({ length: 50 }, (_, i) => `later-${i}`)]);
  assert.equal(io.syncs, 2, 'the 50 later appends formed one batch');
  await log.close();
  assert.deepEqual(readBack(file, LINE_FRAMING).records, ['first', ...Array.from({ length: 50 }, (_, i) => `later-${i}`)]);
});

test('by default the log syncs through fs.fdatasync, once per batch', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const log = lineLog(file);
  const sync = t.mock.method(fs, 'fdatasync');
  await Promise.all(Array.from({ length: 40 }, (_, i) => log.append(`line ${i}`)));
  assert.equal(sync.mock.callCount(), 1);
  sync.mock.restore();
  await log.close();
});

test('appendAll is one unit: one promise for its records, none written for none', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const io = new TestIo();
  const log = lineLog(file, { io });
  await log.appendAll([]);
  assert.equal(io.writes, 0);
  await log.appendAll(['a', 'b', 'c']);
  assert.equal(io.syncs, 1);
  assert.equal(log.stats.appends, 3);
  await log.close();
  assert.deepEqual(readBack(file, LINE_FRAMING).records, ['a', 'b', 'c']);
});

test('records the framing cannot frame are rejected up front; a closed log refuses appends', async (t) => {
  const dir = tempDir(t);
  const wal = AppendLog.open(path.join(dir, 'wal'), { framing: WAL_FRAMING, name: 'test wal', errorCode: 'test' });
  await assert.rejects(wal.append(new Uint8Array(0)), RangeError);
  const lines = lineLog(path.join(dir, 'lines'));
  await assert.rejects(lines.append('two\nlines'), RangeError);
  await assert.rejects(lines.appendAll(['fine', 'not\nfine']), RangeError);
  await lines.append('fine');
  await lines.close();
  await wal.close();
  await assert.rejects(lines.append('late'), (error: unknown) => error instanceof StorageError && error.code === 'test_log_closed' && /closed/.test(error.message));
  assert.deepEqual(readBack(path.join(dir, 'lines'), LINE_FRAMING).records, ['fine'], 'nothing of a rejected appendAll was written');
});

test('a new file gets the mode and a rewrite keeps it', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const state = new Map<string, string>();
  const log = lineLog(file, { mode: 0o600, compaction: { live: () => state.values() } });
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  state.set('a', 'a');
  await log.append('a');
  await log.compact();
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  await log.close();
});

// ---------------------------------------------------------------------------------------------
// Replay: the chunked scanner against a naive one, torn tails and damage

/** The WAL scan as it was before the shared log: the whole file in one buffer. */
function naiveWalScan(data: Uint8Array): { records: string[]; validLength: number; whole: boolean; tornTail: boolean } {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const records: string[] = [];
  const allZero = (from: number) => data.subarray(from).every((byte) => byte === 0);
  let pos = 0;
  while (pos < data.length) {
    const bad = (torn: boolean) => ({ records, validLength: pos, whole: false, tornTail: torn || allZero(pos) });
    if (pos + WAL_FRAME_HEADER_BYTES > data.length) return bad(true);
    const length = view.getUint32(pos, true);
    const checksum = view.getUint32(pos + 4, true);
    if (length === 0 || length > 1 << 30) return bad(false);
    const end = pos + WAL_FRAME_HEADER_BYTES + length;
    if (end > data.length) return bad(true);
    const payload = data.subarray(pos + WAL_FRAME_HEADER_BYTES, end);
    if (crc32(payload) !== checksum) return bad(false);
    records.push(decode(payload));
    pos = end;
  }
  return { records, validLength: pos, whole: true, tornTail: false };
}

/** Lines, naively: everything up to the last newline; bytes after it are a torn tail. */
function naiveLineScan(data: Uint8Array): { records: string[]; validLength: number; whole: boolean; tornTail: boolean } {
  const text = Buffer.from(data);
  const last = text.lastIndexOf(0x0a);
  const validLength = last + 1;
  const records = validLength === 0 ? [] : text.toString('utf8', 0, last).split('\n');
  const whole = validLength === data.length;
  return { records, validLength, whole, tornTail: !whole };
}

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('property: the chunked scan reads what a naive whole-file scan reads, for any cut or flipped byte', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'log');
  const next = random(1313);
  const int = (n: number) => Math.floor(next() * n);
  const text = (length: number) => Array.from({ length }, () => 'abcdé€xyz 0'[int(11)]).join('');
  for (let round = 0; round < 300; round++) {
    const count = int(12);
    const lengthOf = () => (int(10) === 0 ? 200 + int(2000) : 1 + int(30));
    const texts = Array.from({ length: count }, () => text(lengthOf()));
    const wal = round % 2 === 0;
    let data = Buffer.concat(texts.map((s) => (wal ? encodeWalFrame(encode(s)) : LINE_FRAMING.encode(s))));
    switch (int(5)) {
      case 0: // whole
        break;
      case 1: // cut anywhere (a crash mid-append)
        data = data.subarray(0, int(data.length + 1));
        break;
      case 2: // one byte flipped
        if (data.length > 0) data[int(data.length)] ^= 1 << int(8);
        break;
      case 3: // zeros appended (file extended, data never written)
        data = Buffer.concat([data, Buffer.alloc(1 + int(40))]);
        break;
      case 4: // garbage appended
        data = Buffer.concat([data, Buffer.from(text(1 + int(20)))]);
        break;
    }
    fs.writeFileSync(file, data);
    const expected = wal ? naiveWalScan(data) : naiveLineScan(data);
    for (const chunkBytes of [1, 7, 64, 4096]) {
      const { records, scan } = wal ? readBack(file, WAL_FRAMING, chunkBytes) : readBack(file, LINE_FRAMING, chunkBytes);
      const got = records.map((r) => (typeof r === 'string' ? r : decode(r)));
      const where = `round ${round} (${wal ? 'wal' : 'lines'}), chunk ${chunkBytes}`;
      assert.deepEqual(got, expected.records, where);
      assert.equal(scan.validLength, expected.validLength, where);
      assert.equal(scan.problem === null, expected.whole, where);
      assert.equal(scan.tornTail, expected.tornTail, where);
    }
  }
});

test('lines far longer than the read chunk replay whole', (t) => {
  const file = path.join(tempDir(t), 'log');
  const long = 'x'.repeat(3 * 1024 * 1024 + 17);
  fs.writeFileSync(file, `short\n${long}\nend\n`);
  const { records, scan } = readBack(file, LINE_FRAMING);
  assert.equal(scan.problem, null);
  assert.deepEqual(records.map((r) => r.length), [5, long.length, 3]);
});

test('open cuts a torn tail off and appends after the last whole record', async (t) => {
  const dir = tempDir(t);
  for (const [name, framing, tail] of [
    ['wal', WAL_FRAMING, encodeWalFrame(encode('torn record')).subarray(0, 11)],
    ['lines', LINE_FRAMING, Buffer.from('{"half":')],
  ] as const) {
    const file = path.join(dir, name);
    const first = AppendLog.open<Uint8Array | string>(file, { framing: framing as RecordFraming<Uint8Array | string>, name });
    const records = name === 'wal' ? [encode('one'), encode('two')] : ['one', 'two'];
    for (const record of records) await first.append(record);
    await first.close();
    const good = fs.statSync(file).size;
    fs.appendFileSync(file, tail);

    const replayed: unknown[] = [];
    const reopened = AppendLog.open<Uint8Array | string>(file, {
      framing: framing as RecordFraming<Uint8Array | string>,
      name,
      onRecord: (record) => replayed.push(typeof record === 'string' ? record : decode(record)),
    });
    assert.deepEqual(replayed, ['one', 'two'], name);
    assert.equal(fs.statSync(file).size, good, `${name}: cut to the last whole record`);
    await reopened.append(name === 'wal' ? encode('three') : 'three');
    await reopened.close();
    const { records: after, scan } = readBack<Uint8Array | string>(file, framing as RecordFraming<Uint8Array | string>);
    assert.equal(scan.problem, null, name);
    assert.deepEqual(after.map((r) => (typeof r === 'string' ? r : decode(r))), ['one', 'two', 'three'], name);
  }
});

test('damage that is not a torn tail is reported with the file, and the file is left alone', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const log = AppendLog.open(file, { framing: WAL_FRAMING, name: 'test' });
  for (const text of ['first', 'second', 'third']) await log.append(encode(text));
  await log.close();
  const data = fs.readFileSync(file);
  data[WAL_FRAME_HEADER_BYTES + 5 + WAL_FRAME_HEADER_BYTES + 1] ^= 0x20; // inside 'second'
  fs.writeFileSync(file, data);
  const isCorrupt = (error: unknown) => error instanceof CorruptFileError && error.path === file && /checksum mismatch in record at byte 13/.test(error.message);
  assert.throws(() => AppendLog.open(file, { framing: WAL_FRAMING, name: 'test' }), isCorrupt);
  assert.throws(() => AppendLog.replay(file, WAL_FRAMING, () => {}, { cutTornTail: true }), isCorrupt);
  assert.equal(fs.statSync(file).size, data.length);
  // A torn tail is damage too where none is forgiven.
  fs.writeFileSync(file, encodeWalFrame(encode('whole')).subarray(0, 10));
  assert.throws(() => AppendLog.replay(file, WAL_FRAMING, () => {}, { cutTornTail: false }), /runs past the end/);
  assert.equal(fs.statSync(file).size, 10);
});

// ---------------------------------------------------------------------------------------------
// Failed writes and syncs

test('a write failing part-way rejects its batch; the next batch starts after the last whole record', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const io = new TestIo();
  const log = lineLog(file, { io });
  await log.append('before');
  const good = fs.statSync(file).size;

  io.onWrite = async (fd, data, offset) => {
    await NODE_APPEND_LOG_IO.write(fd, data, offset, 5); // a few bytes land, then the disk is full
    throw errnoError('ENOSPC');
  };
  const failed = [log.append('lost-1'), log.append('lost-2')];
  for (const result of await Promise.allSettled(failed)) {
    assert.equal(result.status, 'rejected');
    assert.equal((result as PromiseRejectedResult).reason.code, 'ENOSPC');
  }
  assert.equal(fs.statSync(file).size, good + 5, 'the fragment is there until the next batch');
  assert.deepEqual(readBack(file, LINE_FRAMING).scan.tornTail, true, 'a crash now would leave a torn tail, which replay cuts');

  io.onWrite = null;
  const syncsBefore = io.syncs;
  await log.append('after');
  assert.equal(io.truncates, 1);
  assert.equal(io.syncs - syncsBefore, 2, 'one sync for the cut, one for the batch');
  await log.close();
  const { records, scan } = readBack(file, LINE_FRAMING);
  assert.equal(scan.problem, null);
  assert.deepEqual(records, ['before', 'after']);
});

test('a failed fdatasync rejects its batch and the batch is cut off before the next', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const io = new TestIo();
  const log = AppendLog.open(file, { framing: WAL_FRAMING, name: 'test', io });
  await log.append(encode('kept'));
  io.onSync = async () => {
    throw errnoError('EIO');
  };
  await assert.rejects(log.append(encode('unsynced')), { code: 'EIO' });
  io.onSync = null;
  await log.append(encode('next'));
  await log.close();
  assert.deepEqual(readBack(file, WAL_FRAMING).records.map(decode), ['kept', 'next']);
});

test('with refuseAfterFailedSync (the WAL), a failed fdatasync refuses every later append', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const io = new TestIo();
  const log = AppendLog.open(file, { framing: WAL_FRAMING, name: 'test', errorCode: 'test_log', refuseAfterFailedSync: true, io });
  await log.append(encode('kept'));
  io.onSync = async () => {
    throw errnoError('EIO');
  };
  const isFailed = (error: unknown) => error instanceof StorageError && error.code === 'test_log_failed' && /failed to sync: .*EIO/.test(error.message);
  await assert.rejects(log.append(encode('unsynced')), isFailed);
  io.onSync = null;
  const writesBefore = io.writes;
  await assert.rejects(log.append(encode('next')), isFailed);
  assert.equal(io.writes, writesBefore, 'nothing more is written');
  await log.close();
  assert.deepEqual(readBack(file, WAL_FRAMING).records.map(decode).slice(0, 1), ['kept']);
});

test('when the failed bytes cannot be cut off, the log refuses every later append', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const io = new TestIo();
  const log = lineLog(file, { io });
  await log.append('kept');
  io.onWrite = async () => {
    throw errnoError('EIO');
  };
  io.onTruncate = async () => {
    throw errnoError('EROFS');
  };
  await assert.rejects(log.append('a'), { code: 'EIO' });
  io.onWrite = null;
  const isFailed = (error: unknown) => error instanceof StorageError && error.code === 'test_log_failed' && /EROFS/.test(error.message);
  await assert.rejects(log.append('b'), isFailed);
  await assert.rejects(log.append('c'), isFailed, 'refused up front from now on');
  io.onTruncate = null;
  await assert.rejects(log.append('d'), isFailed);
  await log.close();
  assert.deepEqual(readBack(file, LINE_FRAMING).records, ['kept']);
});

// ---------------------------------------------------------------------------------------------
// Rotation

test('rotation: a new file is written only once every batch of the older one is durable', async (t) => {
  const dir = tempDir(t);
  const io = new TestIo();
  const order: string[] = [];
  const files = new Map<number, string>();
  io.onWrite = async (fd, data, offset, length) => {
    order.push(`write ${files.get(fd)}`);
    return NODE_APPEND_LOG_IO.write(fd, data, offset, length);
  };
  io.onSync = async (fd) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await NODE_APPEND_LOG_IO.fdatasync(fd);
    order.push(`sync ${files.get(fd)}`);
  };
  const realOpen = fs.openSync;
  t.mock.method(fs, 'openSync', (...args: Parameters<typeof fs.openSync>) => {
    const fd = realOpen(...args);
    files.set(fd, path.basename(String(args[0])));
    return fd;
  });
  const log = AppendLog.open(path.join(dir, 'a'), { framing: WAL_FRAMING, name: 'test', io });
  const before = [log.append(encode('a1')), log.append(encode('a2'))];
  log.rotate(path.join(dir, 'b'));
  assert.ok(fs.existsSync(path.join(dir, 'b')), 'the new file exists at once');
  assert.equal(log.path, path.join(dir, 'b'));
  assert.deepEqual([...log.busyPaths()], [path.join(dir, 'a')]);
  const after = log.append(encode('b1'));
  await Promise.all([...before, after]);
  assert.deepEqual(order, ['write a', 'sync a', 'write b', 'sync b']);
  await log.close();
  assert.deepEqual(readBack(path.join(dir, 'a'), WAL_FRAMING).records.map(decode), ['a1', 'a2']);
  assert.deepEqual(readBack(path.join(dir, 'b'), WAL_FRAMING).records.map(decode), ['b1']);
});

// ---------------------------------------------------------------------------------------------
// Compaction

/** A key-value store on a line log: the in-memory map is the live content. */
function keyValueLog(file: string, io: TestIo, due?: (bytes: number, after: number) => boolean) {
  const state = new Map<string, string>();
  let liveCalls = 0;
  const log = lineLog(file, {
    io,
    onRecord: (line) => {
      const [key, value] = JSON.parse(line) as [string, string | null];
      if (value === null) state.delete(key);
      else state.set(key, value);
    },
    compaction: {
      ...(due !== undefined && { due }),
      live: function* () {
        liveCalls++;
        assert.equal(io.busy, 0, 'a rewrite never runs under a write, sync or cut');
        for (const [key, value] of state) yield JSON.stringify([key, value]);
      },
    },
  });
  const set = (key: string, value: string | null): Promise<void> => {
    if (value === null) state.delete(key);
    else state.set(key, value);
    return log.append(JSON.stringify([key, value]));
  };
  return { log, state, set, liveCalls: () => liveCalls };
}

function replayKeyValues(file: string): Map<string, string> {
  const state = new Map<string, string>();
  for (const line of readBack(file, LINE_FRAMING).records) {
    const [key, value] = JSON.parse(line) as [string, string | null];
    if (value === null) state.delete(key);
    else state.set(key, value);
  }
  return state;
}

test('compaction while appends keep coming loses nothing, and appends it took in resolve', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const io = new TestIo();
  io.onSync = async (fd) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    await NODE_APPEND_LOG_IO.fdatasync(fd);
  };
  const kv = keyValueLog(file, io);
  const next = random(7);
  const pending: Promise<void>[] = [];
  for (let round = 0; round < 40; round++) {
    for (let i = 0; i < 10; i++) {
      const key = `k${Math.floor(next() * 30)}`;
      pending.push(kv.set(key, next() < 0.2 ? null : `v${round}-${i}`));
    }
    if (round % 4 === 0) pending.push(kv.log.compact());
    if (round % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const results = await Promise.allSettled(pending);
  assert.deepEqual(results.filter((r) => r.status === 'rejected'), []);
  assert.ok(kv.log.stats.rewrites >= 5, `rewrites: ${kv.log.stats.rewrites}`);
  assert.deepEqual(replayKeyValues(file), kv.state, 'the file, as it is without close, holds exactly the live state');
  await kv.log.close();

  const reopened = keyValueLog(file, new TestIo());
  assert.deepEqual(reopened.state, kv.state);
  await reopened.log.close();
});

test('automatic compaction when due: the file shrinks, nothing is lost', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const io = new TestIo();
  const kv = keyValueLog(file, io, (bytes, after) => bytes > Math.max(2000, 2 * after));
  for (let i = 0; i < 400; i++) await kv.set(`k${i % 10}`, `value ${i}`);
  assert.ok(kv.log.stats.rewrites > 0);
  assert.ok(fs.statSync(file).size <= 4000 + 100, `size ${fs.statSync(file).size}`);
  await kv.log.close();
  assert.deepEqual(replayKeyValues(file), kv.state);
  assert.equal(kv.state.get('k9'), 'value 399');
});

test('compaction at open rewrites the replayed state; a failed rewrite keeps the old file in use', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'log');
  fs.writeFileSync(file, '["a","1"]\n["a","2"]\n["b","1"]\n["b",null]\n["c"');
  const state = new Map<string, string>();
  const options: AppendLogOptions<string> = {
    framing: LINE_FRAMING,
    name: 'test',
    onRecord: (line) => {
      const [key, value] = JSON.parse(line) as [string, string | null];
      if (value === null) state.delete(key);
      else state.set(key, value);
    },
    compaction: { atOpen: true, live: () => [...state].map((entry) => JSON.stringify(entry)) },
  };
  const log = AppendLog.open(file, options);
  assert.equal(fs.readFileSync(file, 'utf8'), '["a","2"]\n');
  assert.equal(log.stats.rewrites, 1);

  // A rewrite that fails before its rename (here the owner's live content throws part-way)
  // leaves the old file in use, whole.
  const failingLive = state;
  options.compaction!.live = function* () {
    yield JSON.stringify(['a', '2']);
    throw new Error('live content failed');
  };
  await assert.rejects(log.compact(), /live content failed/);
  assert.equal(fs.readFileSync(file, 'utf8'), '["a","2"]\n');
  assert.deepEqual(fs.readdirSync(dir), ['log'], 'no temporary file left behind');
  options.compaction!.live = () => [...failingLive].map((entry) => JSON.stringify(entry));
  state.set('d', '1');
  await log.append(JSON.stringify(['d', '1']));
  await log.close();
  assert.deepEqual(replayKeyValues(file), state);
});

test('a rewrite that fails after its rename follows the new file but refuses appends until a rewrite succeeds', async (t) => {
  const file = path.join(tempDir(t), 'log');
  const state = new Map<string, string>([['a', '1']]);
  const live = () => [...state].map((entry) => JSON.stringify(entry));
  const log = lineLog(file, { compaction: { live } });
  await log.append(JSON.stringify(['a', '1']));
  state.set('b', '2');
  const appended = log.append(JSON.stringify(['b', '2']));

  // The temporary file's fsync succeeds, the directory's (after the rename) fails.
  const realFsync = fs.fsyncSync;
  let calls = 0;
  const fsync = t.mock.method(fs, 'fsyncSync', (fd: number) => {
    if (++calls === 2) throw errnoError('EIO');
    realFsync(fd);
  });
  await assert.rejects(log.compact(), { code: 'EIO' });
  fsync.mock.restore();
  await assert.rejects(appended, (error: unknown) => error instanceof StorageError && error.code === 'test_log_failed');
  await assert.rejects(log.append(JSON.stringify(['c', '3'])), /may not be durable/);
  assert.equal(fs.readFileSync(file, 'utf8'), '["a","1"]\n["b","2"]\n', 'the path names the rewritten file');

  await log.compact();
  state.set('c', '3');
  await log.append(JSON.stringify(['c', '3']));
  await log.close();
  assert.deepEqual(replayKeyValues(file), state);
});

test('a log is either rotated or compacted, not both', async (t) => {
  const dir = tempDir(t);
  const log = lineLog(path.join(dir, 'a'), { compaction: { live: () => [] } });
  assert.throws(() => log.rotate(path.join(dir, 'b')), /compacted, not rotated/);
  const plain = lineLog(path.join(dir, 'c'));
  await assert.rejects(plain.compact(), /no compaction/);
  await log.close();
  await plain.close();
});
