// Damage is contained and never silent (issue 18, point 2), on a real server's data directory:
// thirteen kinds of damage to one collection's files. For each, the server starts, every other
// collection serves, the damaged one answers 503 `collection_unavailable` naming the file and
// shows as unavailable in GET /v1/stats; `folio check` (its functions) lists the damaged file
// and the document ids it held; `--repair` sets it aside, after which the collection serves
// again with what was not damaged and the rest is listed for re-indexing. A torn WAL tail (a
// crash mid-append) is not damage: the collection serves at once. A segment damaged while the
// server runs turns only that collection unavailable.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkDataDirectory, repairCheckedCollection } from '../server/index.ts';
import { assertProblem } from './helpers/problem-assertions.ts';
import { TEST_MASTER_KEY, startTestServer } from './helpers/test-server.ts';
import type { TestServer } from './helpers/test-server.ts';

const HURT = 'hurt';
const batchA = Array.from({ length: 10 }, (_, i) => ({ id: `a${i}`, text: `alpha report number ${i}` }));
const batchB = Array.from({ length: 10 }, (_, i) => ({ id: `b${i}`, text: `bravo report number ${i}` }));
/** Acknowledged writes left in the WAL (no refresh): one record each. */
const walWrites = [{ id: 'c0', text: 'charlie report first' }, { id: 'c1', text: 'charlie report second' }];

let golden: string;
const scratch: string[] = [];

function collectionDir(dataDir: string): string {
  return path.join(dataDir, 'collections', HURT);
}

function manifestOf(dataDir: string): { segments: { name: string; deletes: string | null }[] } {
  return JSON.parse(fs.readFileSync(path.join(collectionDir(dataDir), 'manifest.json'), 'utf8')).body;
}

function walFile(dataDir: string): string {
  const dir = path.join(collectionDir(dataDir), 'wal');
  const files = fs.readdirSync(dir).filter((name) => name.endsWith('.log')).sort();
  return path.join(dir, files.at(-1)!);
}

function flipByte(file: string, at: (length: number) => number): void {
  const bytes = fs.readFileSync(file);
  bytes[at(bytes.length)] ^= 0x5a;
  fs.writeFileSync(file, bytes);
}

/** The segment holding batch A (the first one committed). */
function firstSegment(dataDir: string): string {
  return path.join(collectionDir(dataDir), manifestOf(dataDir).segments[0].name);
}

interface DamageCase {
  name: string;
  damage(dataDir: string): void;
  /** The damaged file as reported, relative to the collection's directory. */
  file: RegExp | ((dataDir: string) => string);
  /** Ids the check must list as held by the damaged file (a subset), and must be re-indexed. */
  held?: string[];
  /** Ids found by a search after the repair. */
  servesAfterRepair: string[];
}

/** Byte offset of the WAL's second record (each record: 8 bytes of header + payload). */
function secondRecordAt(file: string): number {
  return 8 + fs.readFileSync(file).readUInt32LE(0);
}

const CASES: DamageCase[] = [
  { name: 'a flipped byte at the start of a segment', damage: (d) => flipByte(firstSegment(d), () => 0), file: /^seg-\d+\.fseg$/, servesAfterRepair: ['b1', 'c0', 'c1'] },
  { name: 'a flipped byte in the middle of a segment', damage: (d) => flipByte(firstSegment(d), (n) => Math.floor(n / 2)), file: /^seg-\d+\.fseg$/, servesAfterRepair: ['b1', 'c0'] },
  { name: 'a flipped byte at the end of a segment', damage: (d) => flipByte(firstSegment(d), (n) => n - 1), file: /^seg-\d+\.fseg$/, servesAfterRepair: ['b1', 'c1'] },
  {
    name: 'a truncated segment',
    damage: (d) => fs.truncateSync(firstSegment(d), Math.floor(fs.statSync(firstSegment(d)).size / 3)),
    file: /^seg-\d+\.fseg$/,
    servesAfterRepair: ['b2', 'c0'],
  },
  { name: 'a missing segment', damage: (d) => fs.rmSync(firstSegment(d)), file: /^seg-\d+\.fseg$/, servesAfterRepair: ['b3', 'c1'] },
  {
    name: 'a damaged manifest (a flipped byte)',
    damage: (d) => flipByte(path.join(collectionDir(d), 'manifest.json'), (n) => n - 20),
    file: /^manifest\.json$/,
    servesAfterRepair: ['a2', 'b2', 'c0', 'c1'],
  },
  {
    name: 'a manifest that is not JSON',
    damage: (d) => fs.writeFileSync(path.join(collectionDir(d), 'manifest.json'), '{"crc32": 1, "bo'),
    file: /^manifest\.json$/,
    servesAfterRepair: ['a4', 'b4'],
  },
  {
    name: 'a damaged collection.json',
    damage: (d) => fs.writeFileSync(path.join(collectionDir(d), 'collection.json'), '\u0000\u0001 not json'),
    file: /^collection\.json$/,
    servesAfterRepair: ['a1', 'b1', 'c0'],
  },
  {
    name: 'a damaged deletes file',
    damage: (d) => flipByte(path.join(collectionDir(d), manifestOf(d).segments.find((s) => s.deletes !== null)!.deletes!), (n) => n - 1),
    file: /^seg-\d+\.del-\d+$/,
    held: ['a7'],
    servesAfterRepair: ['b7', 'c1'],
  },
  {
    name: "the WAL's first record damaged",
    damage: (d) => flipByte(walFile(d), () => 12),
    file: /^wal\/wal-\d+\.log$/,
    servesAfterRepair: ['a1', 'b1', 'c1'],
  },
  {
    name: "the WAL's last record damaged (its last byte flipped)",
    damage: (d) => flipByte(walFile(d), (n) => n - 1),
    file: /^wal\/wal-\d+\.log$/,
    servesAfterRepair: ['a1', 'b1', 'c0'],
  },
  {
    name: "a bad length in the WAL's last record",
    damage: (d) => {
      const file = walFile(d);
      const bytes = fs.readFileSync(file);
      bytes.writeUInt32LE(0, secondRecordAt(file));
      fs.writeFileSync(file, bytes);
    },
    file: /^wal\/wal-\d+\.log$/,
    servesAfterRepair: ['a1', 'c0'],
  },
  {
    name: 'every segment of the collection damaged',
    damage: (d) => {
      for (const segment of manifestOf(d).segments) flipByte(path.join(collectionDir(d), segment.name), (n) => Math.floor(n / 3));
    },
    file: /^seg-\d+\.fseg$/,
    held: ['a1', 'b1'],
    servesAfterRepair: ['c0', 'c1'],
  },
];

/** Forces a refresh: every acknowledged write becomes a committed segment. */
async function commit(server: TestServer, collection: string): Promise<void> {
  const answer = await server.request('POST', `/v1/collections/${collection}/refresh`);
  assert.equal(answer.status, 200, answer.text);
}

async function search(server: TestServer, collection: string, q: string) {
  return server.request('GET', `/v1/collections/${collection}/search?q=${encodeURIComponent(q)}&fields=id&limit=100`);
}

async function idsFound(server: TestServer): Promise<string[]> {
  const answer = await search(server, HURT, 'report');
  assert.equal(answer.status, 200, answer.text);
  return answer.body.hits.map((hit: { id: string }) => hit.id);
}

function freshCopy(): string {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'folio-damage-'));
  scratch.push(dir);
  fs.cpSync(golden, dir, { recursive: true });
  return dir;
}

describe('damage containment', () => {
  before(async () => {
    golden = fs.mkdtempSync(path.join(tmpdir(), 'folio-damage-golden-'));
    const server = await startTestServer({ dataDir: golden, refreshIntervalMs: 60_000 });
    for (const name of ['healthy', HURT]) assert.equal((await server.request('POST', '/v1/collections', { name })).status, 201);
    // Refreshes are forced (the timer would take a minute): batch A, then B, then a delete, each committed.
    await server.request('POST', '/v1/collections/healthy/documents', [{ id: 'h1', text: 'healthy report' }]);
    await commit(server, 'healthy');
    assert.equal((await server.request('POST', `/v1/collections/${HURT}/documents`, batchA)).status, 200);
    await commit(server, HURT);
    assert.equal((await server.request('POST', `/v1/collections/${HURT}/documents`, batchB)).status, 200);
    await commit(server, HURT);
    assert.equal((await server.request('DELETE', `/v1/collections/${HURT}/documents/a0`)).status, 204);
    await commit(server, HURT);
    for (const write of walWrites) assert.equal((await server.request('POST', `/v1/collections/${HURT}/documents`, [write])).status, 200);
    await server.close();
    const manifest = manifestOf(golden);
    assert.ok(manifest.segments.length === 2 && manifest.segments.some((s) => s.deletes !== null), JSON.stringify(manifest));
    assert.ok(fs.statSync(walFile(golden)).size > 0, 'the last writes are in the WAL only');
  });
  after(() => {
    for (const dir of [golden, ...scratch]) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const kind of CASES) {
    test(kind.name, async () => {
      const dataDir = freshCopy();
      kind.damage(dataDir);

      const server = await startTestServer({ dataDir, refreshIntervalMs: 60_000 });
      let reported: string;
      try {
        const healthy = await search(server, 'healthy', 'report');
        assert.equal(healthy.status, 200, 'the other collection serves');
        assert.deepEqual(healthy.body.hits.map((hit: { id: string }) => hit.id), ['h1']);
        const refused = await search(server, HURT, 'report');
        assertProblem(refused, 503, 'collection_unavailable');
        const named = /unavailable: (\S+) is damaged/.exec(refused.body.detail);
        assert.ok(named, refused.body.detail);
        reported = named[1];
        if (typeof kind.file !== 'function') assert.match(reported, kind.file);
        assertProblem(await server.request('POST', `/v1/collections/${HURT}/documents`, [{ id: 'x', text: 'x' }]), 503, 'collection_unavailable');
        const stats = (await server.request('GET', '/v1/stats')).body;
        const entry = stats.collections.find((c: { name: string }) => c.name === HURT);
        assert.equal(entry.state, 'unavailable');
        assert.match(entry.reason, new RegExp(reported.replace(/[.]/g, '\\.')));
        assert.equal(stats.collections.find((c: { name: string }) => c.name === 'healthy').state, 'ok');
      } finally {
        await server.close();
      }

      const checks = await checkDataDirectory(dataDir);
      assert.deepEqual(checks.find((c) => c.name === 'healthy')!.problems, [], 'nothing wrong with the other collection');
      const check = checks.find((c) => c.name === HURT)!;
      assert.ok(check.problems.some((p) => p.file === reported), `check names ${reported}: ${JSON.stringify(check.problems)}`);
      for (const id of kind.held ?? []) assert.ok(check.problems.some((p) => p.documentIds?.includes(id)), `check lists ${id} as held: ${JSON.stringify(check.problems)}`);
      const repair = await repairCheckedCollection(check);
      for (const id of kind.held ?? []) assert.ok(repair.reindex.includes(id), `the repair lists ${id} to re-index`);
      assert.deepEqual((await checkDataDirectory(dataDir)).find((c) => c.name === HURT)!.problems, [], 'no damage remains after the repair');

      const repaired = await startTestServer({ dataDir, refreshIntervalMs: 60_000 });
      try {
        // A write is taken again; the refresh makes the writes replayed from the WAL searchable too.
        assert.equal((await repaired.request('POST', `/v1/collections/${HURT}/documents`, [{ id: 'new', text: 'fresh report' }])).status, 200, 'writes are taken again');
        await commit(repaired, HURT);
        const found = await idsFound(repaired);
        for (const id of [...kind.servesAfterRepair, 'new']) assert.ok(found.includes(id), `${id} is served after the repair (found ${found.join(' ')})`);
        assert.ok(!found.includes('a0'), 'a deleted document stays deleted');
      } finally {
        await repaired.close();
      }
    });
  }

  test('a torn WAL tail (an append cut short, or zeros after it) is no damage: the collection serves at once', async () => {
    for (const tear of [(file: string) => fs.truncateSync(file, fs.statSync(file).size - 3), (file: string) => fs.appendFileSync(file, Buffer.alloc(512))]) {
      const dataDir = freshCopy();
      tear(walFile(dataDir));
      assert.deepEqual((await checkDataDirectory(dataDir)).flatMap((c) => c.problems), []);
      const server = await startTestServer({ dataDir, refreshIntervalMs: 60_000 });
      try {
        await commit(server, HURT);
        const found = await idsFound(server);
        assert.ok(found.includes('c0') && found.includes('a1') && found.includes('b1'), found.join(' '));
      } finally {
        await server.close();
      }
    }
  });

  test('a segment damaged while the server runs makes only its collection unavailable', async () => {
    const dataDir = freshCopy();
    const server = await startTestServer({ dataDir, refreshIntervalMs: 60_000 });
    try {
      // A new segment, committed and opened by the server, is damaged before any search reads it.
      assert.equal((await server.request('POST', `/v1/collections/${HURT}/documents`, [{ id: 'd0', text: 'delta report' }])).status, 200);
      await commit(server, HURT);
      const newest = manifestOf(dataDir).segments.at(-1)!.name;
      flipByte(path.join(collectionDir(dataDir), newest), () => 0);
      assertProblem(await search(server, HURT, 'report'), 503, 'collection_unavailable');
      assertProblem(await search(server, HURT, 'report'), 503, 'collection_unavailable');
      const stats = (await server.request('GET', '/v1/stats')).body;
      assert.equal(stats.collections.find((c: { name: string }) => c.name === HURT).state, 'unavailable');
      assert.equal((await search(server, 'healthy', 'report')).status, 200);
    } finally {
      await server.close();
    }
  });
});

test('the repair rebuilds lost documents from their kept originals', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'folio-damage-kept-'));
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const server = await startTestServer({ dataDir, refreshIntervalMs: 60_000, keepFiles: true });
  let uploadedId: string;
  try {
    await server.request('POST', '/v1/collections', { name: 'kept' });
    const form = new FormData();
    form.append('file', new Blob(['kept original text platypusword\f second page']), 'kept.txt');
    const answer = await fetch(`${server.url}/v1/collections/kept/files`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}` }, body: form });
    assert.equal(answer.status, 201);
    uploadedId = ((await answer.json()) as { id: string }).id;
    await server.request('POST', '/v1/collections/kept/documents', [{ id: 'plain', text: 'plain platypusword' }]);
    await commit(server, 'kept');
  } finally {
    await server.close();
  }
  const dir = path.join(dataDir, 'collections', 'kept');
  const segment = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).body.segments[0].name;
  flipByte(path.join(dir, segment), (n) => n - 16); // the stored checksum: the ids still read

  const check = (await checkDataDirectory(dataDir)).find((c) => c.name === 'kept')!;
  const repair = await repairCheckedCollection(check);
  assert.deepEqual(repair.reindex, ['plain'], 'only the document without a kept original is left to re-index');
  assert.ok(repair.notes.some((note) => note.includes(`re-indexed 1 from their kept originals`) && note.includes(uploadedId)), repair.notes.join('\n'));

  const repaired = await startTestServer({ dataDir, refreshIntervalMs: 60_000, keepFiles: true });
  try {
    await commit(repaired, 'kept');
    const found = await repaired.request('GET', '/v1/collections/kept/search?q=platypusword&fields=id,page');
    assert.deepEqual(found.body.hits.map((hit: { id: string }) => hit.id), [uploadedId]);
    const document = await repaired.request('GET', `/v1/collections/kept/documents/${uploadedId}`);
    assert.equal(document.body.pages, 2);
    assert.equal(document.body.metadata.extension, 'txt');
    const original = await fetch(`${repaired.url}/v1/collections/kept/documents/${uploadedId}/file`, { headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });
    assert.equal(original.status, 200);
    assert.match(await original.text(), /kept original text/);
  } finally {
    await repaired.close();
  }
});
