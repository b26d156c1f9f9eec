// `folio check` as a user runs it (a real child process on a real data directory): a healthy
// directory exits 0; a damaged segment is listed with the ids it held and exit status 1;
// `--repair` refuses while a live server holds the directory, then sets the segment aside and
// lists what to re-index, after which the check passes and the server serves the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/spawn-cli.ts';
import { startTestServer } from '../helpers/test-server.ts';

test('folio check lists a damaged segment with its ids; --repair sets it aside and lists what to re-index', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'folio-check-'));
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const server = await startTestServer({ dataDir, refreshIntervalMs: 60_000 });
  await server.request('POST', '/v1/collections', { name: 'notes' });
  await server.request('POST', '/v1/collections/notes/documents', [{ id: 'n1', text: 'first note' }, { id: 'n2', text: 'second note' }]);
  await server.request('POST', '/v1/collections/notes/refresh');
  await server.request('POST', '/v1/collections/notes/documents', [{ id: 'n3', text: 'third note' }]);
  await server.request('POST', '/v1/collections/notes/refresh');
  await server.close();

  const clean = await runCli(['check', '--data', dataDir]);
  assert.equal(clean.code, 0, clean.output);
  assert.match(clean.output, /ok\s+notes \(\d+ files\)/);

  const dir = path.join(dataDir, 'collections', 'notes');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).body;
  const first = path.join(dir, manifest.segments[0].name);
  const bytes = fs.readFileSync(first);
  bytes[bytes.length - 16] ^= 0xff; // the stored CRC-32 of the trailer: the ids still read
  fs.writeFileSync(first, bytes);

  const damaged = await runCli(['check', '--data', dataDir]);
  assert.equal(damaged.code, 1, damaged.output);
  assert.match(damaged.output, new RegExp(`DAMAGED\\s+notes[\\s\\S]*${manifest.segments[0].name}:[\\s\\S]*held 2 documents: n1, n2`));

  // A live server holds the directory: no repair.
  fs.writeFileSync(path.join(dataDir, 'server.pid'), `${process.pid}\n`);
  const refused = await runCli(['check', '--data', dataDir, '--repair']);
  assert.equal(refused.code, 1, refused.output);
  assert.match(refused.output, /server_running: a server \(pid \d+\) is using/);
  fs.rmSync(path.join(dataDir, 'server.pid'));

  const repaired = await runCli(['check', '--data', dataDir, '--repair']);
  assert.equal(repaired.code, 0, repaired.output);
  assert.match(repaired.output, /set aside seg-\d+\.fseg\.damaged/);
  assert.match(repaired.output, /re-index 2 documents: n1, n2/);
  assert.equal((await runCli(['check', '--data', dataDir])).code, 0);

  const after = await startTestServer({ dataDir, refreshIntervalMs: 60_000 });
  try {
    const found = await after.request('GET', '/v1/collections/notes/search?q=note&fields=id');
    assert.deepEqual(found.body.hits.map((hit: { id: string }) => hit.id), ['n3']);
  } finally {
    await after.close();
  }
});
