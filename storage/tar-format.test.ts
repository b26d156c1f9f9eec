// The snapshot archive format: what tarChunks writes, extractTar reads back byte for byte, and
// GNU tar reads too (long names through pax headers); an archive that climbs out of its
// folder or is cut short is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { TarFormatError, extractTar, tarChunks } from './tar-format.ts';
import type { TarEntry } from './tar-format.ts';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'folio-tar-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function archive(entries: TarEntry[]): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of tarChunks(entries)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const longName = `collections/${'deep-folder/'.repeat(12)}seg-12.fseg`;

test('files written are read back the same, by extractTar and by GNU tar', async (t) => {
  const dir = tempDir(t);
  const source = path.join(dir, 'source.bin');
  const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
  big.write('start');
  fs.writeFileSync(source, big);
  const tar = await archive([
    { name: 'SNAPSHOT.json', bytes: Buffer.from('{"ok":true}') },
    { name: 'collections/notes/seg-1.fseg', file: source, size: big.length },
    { name: longName, bytes: Buffer.from('long') },
    { name: 'empty', bytes: Buffer.alloc(0) },
  ]);
  assert.equal(tar.length % 512, 0);

  const out = path.join(dir, 'out');
  const written = await extractTar(Readable.from([tar.subarray(0, 1000), tar.subarray(1000, 5000), tar.subarray(5000)]), out);
  assert.deepEqual(written.sort(), ['SNAPSHOT.json', 'collections/notes/seg-1.fseg', 'empty', longName].sort());
  assert.ok(fs.readFileSync(path.join(out, 'collections/notes/seg-1.fseg')).equals(big));
  assert.equal(fs.readFileSync(path.join(out, longName), 'utf8'), 'long');
  assert.equal(fs.statSync(path.join(out, 'SNAPSHOT.json')).mode & 0o777, 0o600);

  const gnu = spawnSync('tar', ['-tf', '-'], { input: tar });
  if (gnu.error === undefined) {
    assert.equal(gnu.status, 0, gnu.stderr.toString());
    assert.deepEqual(gnu.stdout.toString().trim().split('\n').sort(), ['SNAPSHOT.json', 'collections/notes/seg-1.fseg', 'empty', longName].sort());
  }
});

test('a path that leaves the folder, or an archive cut short, is refused', async (t) => {
  const dir = tempDir(t);
  const climbing = await archive([{ name: '../escape.txt', bytes: Buffer.from('x') }]);
  await assert.rejects(extractTar(Readable.from([climbing]), path.join(dir, 'a')), TarFormatError);
  assert.equal(fs.existsSync(path.join(dir, 'escape.txt')), false);
  const whole = await archive([{ name: 'file.txt', bytes: Buffer.alloc(2000, 1) }]);
  await assert.rejects(extractTar(Readable.from([whole.subarray(0, 1200)]), path.join(dir, 'b')), /cut short|middle of a file/);
});
