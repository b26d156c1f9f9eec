// `folio index` as a sync, with the real CLI against a real server: a second run over the same
// folder leaves exactly one document per file — unchanged files skipped without an upload, a
// touched file settled by its hash, a changed file replaced under the same id, a new file
// added, a deleted file's document deleted (kept with --no-delete); plain text is text whatever
// its name; `--watch` picks up a file written after it started.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROJECT_ROOT } from '../helpers/spawn-cli.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { pollUntil } from '../helpers/poll.ts';

const CLI = join(PROJECT_ROOT, 'bin', 'folio.mjs');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('folio index as a sync', () => {
  let server: TestServer;
  let root: string;
  const env = (): NodeJS.ProcessEnv => {
    const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith('FOLIO_'));
    return { ...Object.fromEntries(inherited), HOME: root, XDG_CONFIG_HOME: join(root, 'config'), FOLIO_URL: server.url, FOLIO_API_KEY: TEST_MASTER_KEY };
  };
  const folio = (args: string[]): Promise<Run> => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: root, env: env() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  };
  const sync = async (args: string[]): Promise<string> => {
    const run = await folio(['index', ...args]);
    assert.equal(run.code, 0, `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    return run.stdout;
  };
  /** id → metadata of every document, through the listing. */
  const documents = async (collection: string): Promise<Map<string, Record<string, unknown>>> => {
    const response = await server.request('GET', `/v1/collections/${collection}/documents?limit=1000&fields=metadata`);
    assert.equal(response.status, 200, response.text);
    return new Map(response.body.documents.map((d: { id: string; metadata: Record<string, unknown> }) => [d.id, d.metadata]));
  };

  before(async () => {
    server = await startTestServer();
    root = await mkdtemp(join(tmpdir(), 'folio-index-sync-'));
  });
  after(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  test('a second run leaves exactly one document per file: new, updated, unchanged, deleted', async () => {
    await server.request('POST', '/v1/collections', { name: 'synced' });
    const folder = join(root, 'library');
    await mkdir(join(folder, 'guides', 'setup'), { recursive: true });
    await writeFile(join(folder, 'a.md'), '# Alpha\n\nalpha apricots\n');
    await writeFile(join(folder, 'b.txt'), 'bravo bananas\n');
    await writeFile(join(folder, 'guides', 'setup', 'c.md'), '# Charlie\n\ncharlie cherries\n');
    await writeFile(join(folder, 'same.txt'), 'identical twins\n');
    await writeFile(join(folder, 'copy.txt'), 'identical twins\n');

    assert.match(await sync(['synced', folder]), /: 5 new, 0 updated, 0 unchanged, 0 deleted, 0 skipped \(unsupported\), 0 failed\.\n$/);
    let docs = await documents('synced');
    assert.deepEqual([...docs.keys()], ['a.md', 'b.txt', 'copy.txt', 'guides:setup:c.md', 'same.txt'], 'identical files stay two documents');
    const c = docs.get('guides:setup:c.md')!;
    assert.equal(c.path, 'guides/setup/c.md');
    assert.deepEqual(c.folder, ['guides', 'guides/setup']);
    assert.equal(c.format, 'md');
    assert.match(String(c.modified_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    assert.match(await sync(['synced', folder]), /: 0 new, 0 updated, 5 unchanged, 0 deleted, 0 skipped \(unsupported\), 0 failed\.\n$/);

    // Touched (same bytes, new time), changed, added, removed.
    // Whole seconds: a time with milliseconds may come back from the file system a nanosecond short.
    const later = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000);
    await utimes(join(folder, 'a.md'), later, later);
    await writeFile(join(folder, 'b.txt'), 'bravo bananas, and blueberries now\n');
    await writeFile(join(folder, 'guides', 'd.md'), '# Delta\n\ndelta dates\n');
    await unlink(join(folder, 'guides', 'setup', 'c.md'));
    assert.match(await sync(['synced', folder, '--refresh']), /: 1 new, 1 updated, 3 unchanged, 1 deleted, 0 skipped \(unsupported\), 0 failed\. Searchable now\.\n$/);
    docs = await documents('synced');
    assert.deepEqual([...docs.keys()], ['a.md', 'b.txt', 'copy.txt', 'guides:d.md', 'same.txt']);
    assert.equal(docs.get('a.md')!.modified_at, later.toISOString(), "a touched file's new time is recorded");
    const found = await server.request('GET', '/v1/collections/synced/search?q=blueberries');
    assert.deepEqual(found.body.hits.map((hit: { id: string }) => hit.id), ['b.txt']);
    assert.equal((await server.request('GET', '/v1/collections/synced/search?q=charlie')).body.total, 0);
    // The touched file is now unchanged by its time alone.
    assert.match(await sync(['synced', folder]), /: 0 new, 0 updated, 5 unchanged, 0 deleted/);

    await unlink(join(folder, 'same.txt'));
    assert.match(await sync(['synced', folder, '--no-delete']), /: 0 new, 0 updated, 4 unchanged, 0 deleted/);
    assert.ok((await documents('synced')).has('same.txt'), '--no-delete keeps it');
    assert.match(await sync(['synced', folder]), /: 0 new, 0 updated, 4 unchanged, 1 deleted/);
  });

  test('plain text is text whatever its name; unsupported files are skipped, not failures', async () => {
    await server.request('POST', '/v1/collections', { name: 'names' });
    const folder = join(root, 'names');
    await mkdir(folder);
    await writeFile(join(folder, 'Apache-2.0'), 'Apache License, Version 2.0, January 2004\n');
    await writeFile(join(folder, 'notes.bak'), 'backup notes about licences\n');
    await writeFile(join(folder, 'meeting notes 2024.03.01'), 'minutes of the licence meeting\n');
    await writeFile(join(folder, 'font.ttf'), Buffer.from([0, 1, 0, 0, 0, 0x0f, 0, 0x80, 0, 3, 0, 0x70, 0x47, 0x44, 0x45, 0x46, 0, 0, 0, 0]));
    const out = await sync(['names', folder, '--refresh']);
    assert.match(out, /: 3 new, 0 updated, 0 unchanged, 0 deleted, 1 skipped \(unsupported\), 0 failed\./);
    const docs = await documents('names');
    const ids = [...docs.keys()];
    assert.equal(ids.length, 3);
    assert.equal(ids[0], 'Apache-2.0');
    assert.match(ids[1], /^meeting-notes-2024\.03\.01::[0-9a-f]{8}$/, 'spaces become - and the id ends with a hash of the path');
    assert.equal(ids[2], 'notes.bak');
    assert.deepEqual([...docs.values()].map((metadata) => metadata.format), ['txt', 'txt', 'txt']);
    assert.equal((await server.request('GET', '/v1/collections/names/search?q=licence')).body.total, 3);
  });

  test('--watch syncs a file written after it started', async () => {
    await server.request('POST', '/v1/collections', { name: 'watched' });
    const folder = join(root, 'watched');
    await mkdir(folder);
    await writeFile(join(folder, 'first.txt'), 'first file\n');
    const child = spawn(process.execPath, [CLI, 'index', 'watched', folder, '--watch', '--refresh'], { cwd: root, env: env() });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    try {
      await pollUntil('the watch to start', 20_000, async () => stderr.includes('Watching'));
      await writeFile(join(folder, 'second.txt'), 'second file, written later\n');
      await pollUntil('the new file to be searchable', 20_000, async () => (await server.request('GET', '/v1/collections/watched/search?q=later')).body.total === 1);
      await unlink(join(folder, 'first.txt'));
      await pollUntil("the deleted file's document to go", 20_000, async () => !(await documents('watched')).has('first.txt'));
    } finally {
      child.kill('SIGINT');
    }
  });
});
