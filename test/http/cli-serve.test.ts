// `folio serve` end to end (docs/api.md, "API keys, sessions and rate limits", "Running and configuration"; README.md, "Command line"): a real process on a free port prints its URL;
// on first start without FOLIO_MASTER_KEY it generates a master key, prints it once and keeps
// it in <data>/master.key (mode 0600); a restart reuses it silently; FOLIO_MASTER_KEY wins;
// `npm start -- --port … --data …` passes flags through; SIGTERM shuts down cleanly.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pollUntil } from '../helpers/poll.ts';
import { runCli, startCli } from '../helpers/spawn-cli.ts';

const GENERATED_KEY = /folio_[0-9A-Za-z]{40}/g;

async function get(url: string, key?: string): Promise<number> {
  const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
  return (await fetch(url, { headers })).status;
}

describe('folio serve', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-cli-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('first start generates, prints and stores a master key; a restart reuses it silently', async () => {
    const data = join(root, 'first');
    const first = await startCli(['serve', '--port', '0', '--data', data]);
    let key: string;
    try {
      assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(first.url, 'http://127.0.0.1:0');
      const printed = first.output().match(GENERATED_KEY) ?? [];
      assert.equal(printed.length, 1, `the key should be printed exactly once:\n${first.output()}`);
      key = printed[0];
      const file = join(data, 'master.key');
      assert.equal((await readFile(file, 'utf8')).trim(), key);
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      assert.equal(await get(`${first.url}/v1/health`), 200);
      // It says what to do next: the dashboard's URL (which serves the page), or the CLI's login.
      await pollUntil('the next steps', 5_000, async () => first.output().includes('folio auth login'));
      assert.ok(first.output().includes(`Dashboard: open ${first.url}/ in a browser`), first.output());
      assert.match(first.output(), new RegExp(`folio auth login --url ${first.url.replace(/\./g, '\\.')} < \\S*master\\.key`));
      assert.equal(await get(`${first.url}/`), 200);
      // Not a terminal: the log is JSON lines, one per request, written in batches (within 100 ms).
      await pollUntil('the log lines', 5_000, async () => /^\{"level":30,.*"msg":"Server listening/m.test(first.output()));
      assert.equal(await get(`${first.url}/v1/collections`), 401);
      assert.equal(await get(`${first.url}/v1/collections`, key), 200);
      const created = await fetch(`${first.url}/v1/collections`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'kept' }),
      });
      assert.equal(created.status, 201);
      await fetch(`${first.url}/v1/collections/kept/documents/a`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'durable across restarts' }),
      });
    } finally {
      assert.equal(await first.stop(), 0, `SIGTERM should shut down cleanly:\n${first.output()}`);
    }

    const second = await startCli(['serve', '--port', '0', '--data', data]);
    try {
      assert.equal((second.output().match(GENERATED_KEY) ?? []).length, 0, 'the key must not be printed again');
      assert.equal(await get(`${second.url}/v1/collections/kept`, key), 200);
      const document = await fetch(`${second.url}/v1/collections/kept/documents/a`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(((await document.json()) as { text: string }).text, 'durable across restarts');
      // Nothing in the data directory is open to other users: files 0600, folders 0700.
      const open: string[] = [];
      const walk = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          const mode = (await stat(path)).mode & 0o777;
          if (mode & 0o077) open.push(`${path} ${mode.toString(8)}`);
          if (entry.isDirectory()) await walk(path);
        }
      };
      assert.equal((await stat(data)).mode & 0o077, 0, 'the data directory itself');
      await walk(data);
      assert.deepEqual(open, [], 'files and folders others can read');
    } finally {
      await second.stop();
    }
    assert.ok(!second.output().includes(key), 'the key never reaches the log');
  });

  test('FOLIO_MASTER_KEY is used as given and no key file is written', async () => {
    const data = join(root, 'env');
    const key = 'my-own-master-key-for-tests';
    const server = await startCli(['serve', '--port', '0', '--data', data], { FOLIO_MASTER_KEY: key });
    try {
      assert.equal(await get(`${server.url}/v1/collections`, key), 200);
      assert.equal(existsSync(join(data, 'master.key')), false);
      assert.ok(!server.output().includes(key));
    } finally {
      await server.stop();
    }
  });

  test('FOLIO_PORT and FOLIO_DATA_DIR apply; flags win over them', async () => {
    const fromEnv = await startCli(['serve'], {
      FOLIO_PORT: '0',
      FOLIO_DATA_DIR: join(root, 'env-only'),
      FOLIO_MASTER_KEY: 'another-long-enough-key',
    });
    try {
      assert.equal(await get(`${fromEnv.url}/v1/health`), 200);
      assert.equal(existsSync(join(root, 'env-only', 'collections')), true);
    } finally {
      await fromEnv.stop();
    }

    const flagged = join(root, 'flag-data');
    const server = await startCli(['serve', '--port', '0', '--data', flagged], {
      FOLIO_PORT: '1',
      FOLIO_DATA_DIR: join(root, 'env-data'),
      FOLIO_MASTER_KEY: 'another-long-enough-key',
    });
    try {
      assert.ok(!server.url.endsWith(':1'));
      assert.equal(existsSync(join(flagged, 'collections')), true);
      assert.equal(existsSync(join(root, 'env-data')), false);
    } finally {
      await server.stop();
    }
  });

  test('npm start -- --port 0 --data DIR passes the flags through', async () => {
    const data = join(root, 'npm');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const server = await startCli(['--', '--port', '0', '--data', data], { FOLIO_MASTER_KEY: 'npm-start-test-key-1234' }, [npm, 'start', '--silent']);
    try {
      assert.equal(await get(`${server.url}/v1/health`), 200);
      assert.equal(existsSync(join(data, 'collections')), true);
    } finally {
      await server.stop();
    }
  });

  test('bad flags and settings fail fast with a message', async () => {
    const badPort = await runCli(['serve', '--port', 'eighty']);
    assert.notEqual(badPort.code, 0);
    assert.match(badPort.output, /port/i);
    const badEnv = await runCli(['serve', '--data', join(root, 'bad')], { FOLIO_PORT: '70000' });
    assert.equal(badEnv.code, 2);
    assert.match(badEnv.output, /FOLIO_PORT/);
    const shortKey = await runCli(['serve', '--port', '0', '--data', join(root, 'short')], { FOLIO_MASTER_KEY: 'short' });
    assert.equal(shortKey.code, 1);
    assert.match(shortKey.output, /FOLIO_MASTER_KEY/);
  });
});
