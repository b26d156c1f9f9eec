// A merge larger than memory should hold, killed with SIGKILL halfway: a real server imports
// enough documents that its merges write segments past 128 MiB (what a merge built in memory
// was capped at) and spill their postings to files beside them; it is killed the moment a
// spilling merge is under way, and started again on the same data directory. Nothing
// acknowledged is lost, every document is searchable, the merge's spill files are gone, and the
// merges go on to leave a segment larger than the old cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../benchmarks/server-process.ts';
import { processClient } from './helpers/process-client.ts';
import { seededRandom } from './helpers/seeded-random.ts';

const MASTER_KEY = 'folio_' + 'M'.repeat(40);
const OLD_MERGE_CAP = 128 * 1024 * 1024;
const DOCUMENTS = 250_000;
/** Postings spilled when the kill comes: only a merge writing past the old cap has spilled this much. */
const SPILLED_BYTES = 48 * 1024 * 1024;
const BATCH = 5_000;

/** Documents of about 1.5 KiB of words from a skewed vocabulary (so postings are large), seeded. */
function* batches(): Generator<string> {
  const random = seededRandom(17);
  const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
  const word = (): string => vocabulary[Math.floor(vocabulary.length * random() ** 3)];
  for (let first = 0; first < DOCUMENTS; first += BATCH) {
    const lines: string[] = [];
    for (let n = first; n < first + BATCH; n++) {
      const text = Array.from({ length: 300 }, word).join(' ');
      lines.push(JSON.stringify({ id: `d${n}`, title: `${word()} ${word()}`, text, metadata: { shelf: n % 7 } }));
    }
    yield lines.join('\n');
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('SIGKILL in the middle of a spilling merge past the old 128 MiB cap loses nothing', { timeout: 600_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-merge-crash-'));
  const collectionDir = join(dataDir, 'collections', 'big');
  const spillFiles = (): string[] => readdirSync(collectionDir).filter((name) => name.includes('.spill-'));
  let server = await startServerProcess(dataDir, MASTER_KEY);
  try {
    let call = processClient(server, MASTER_KEY);
    assert.equal((await call('POST', '/v1/collections', { name: 'big' })).status, 201);
    for (const body of batches()) {
      for (;;) {
        const answer = await call('POST', '/v1/collections/big/documents', body, 'application/x-ndjson');
        if (answer.status === 200) break;
        assert.ok(answer.status === 503 || answer.status === 429, `batch answered ${answer.status}`);
        await sleep(200);
      }
    }
    assert.equal((await call('POST', '/v1/collections/big/refresh', {})).status, 200);
    // Once the merges of the load are over, a refresh with nothing left to build starts the
    // merges for a quiet collection. (Right after a load they do not always start on their own:
    // see the closing note of issue 43's first session.)
    let segments = -1;
    for (let stable = 0; stable < 6; ) {
      await sleep(500);
      const now = (await call('GET', '/v1/collections/big')).json.segments;
      stable = now === segments ? stable + 1 : 0;
      segments = now;
    }
    assert.equal((await call('POST', '/v1/collections/big/refresh', {})).status, 200);
    // Kill the server while a merge spills, once it spilled more postings than a segment of
    // the old cap holds.
    const spilledBytes = (): number => spillFiles().reduce((sum, name) => sum + (statSync(join(collectionDir, name), { throwIfNoEntry: false })?.size ?? 0), 0);
    let spilled = 0;
    for (let waited = 0; waited < 180_000 && spilled < SPILLED_BYTES; waited += 20) {
      spilled = spilledBytes();
      if (spilled < SPILLED_BYTES) await sleep(20);
    }
    assert.ok(spilled >= SPILLED_BYTES, `a merge spilled ${spilled} bytes of postings`);
    await server.kill();
    const leftovers = spillFiles();
    assert.ok(leftovers.length > 0, 'the kill left the merge half written');

    server = await startServerProcess(dataDir, MASTER_KEY);
    call = processClient(server, MASTER_KEY);
    // The collection opens on first use, and removes what the crashed merge left.
    assert.equal((await call('GET', '/v1/collections/big')).json.documents, DOCUMENTS);
    const remaining = new Set(spillFiles());
    assert.deepEqual(leftovers.filter((name) => remaining.has(name)), [], 'the crashed merge left nothing behind');
    for (const n of [0, 1, 124_999, 125_000, DOCUMENTS - 1]) {
      const got = await call('GET', `/v1/collections/big/documents/d${n}`);
      assert.equal(got.status, 200, `d${n} is there`);
    }
    const all = await call('GET', '/v1/collections/big/search?limit=1&track_total=true');
    assert.deepEqual([all.json.total, all.json.total_relation], [DOCUMENTS, 'eq']);

    // The merges go on by themselves: a collection that opens with no write coming is quiet.
    let largest = 0;
    for (let waited = 0; waited < 240_000 && largest <= OLD_MERGE_CAP; waited += 500) {
      await sleep(500);
      const segments = readdirSync(collectionDir).filter((name) => name.endsWith('.fseg'));
      largest = Math.max(0, ...segments.map((name) => statSync(join(collectionDir, name)).size));
    }
    assert.ok(largest > OLD_MERGE_CAP, `a merged segment of ${largest} bytes is past the old cap`);
    const word = await call('GET', '/v1/collections/big/search?q=w0&limit=5&track_total=true');
    assert.equal(word.status, 200);
    assert.ok(word.json.total > 1_000, `w0 matches ${word.json.total}`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
