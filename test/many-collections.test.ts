// Many collections (issue 31 point 4, docs/api.md "Many collections") on a real server process
// started under `ulimit -n 1024`, the limit at which 984 collections used to stop the server:
// it creates and fills 1,100 collections, keeps its descriptors and open collections bounded,
// serves random ones and lists them all, is killed with SIGKILL and starts again under the same
// limit with every document there. Under a much lower limit than its open collections need,
// running short of descriptors answers 503 `overloaded` with Retry-After (never a 500), the
// server stays up, and the retry succeeds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from './helpers/poll.ts';
import { startCli } from './helpers/spawn-cli.ts';
import type { CliServer } from './helpers/spawn-cli.ts';

const COLLECTIONS = 1_100;
const KEY = 'folio_' + 'm'.repeat(40);
const CONCURRENCY = 32;

/** `folio serve` with its descriptor limit lowered first, as a shell or service would start it. */
function serveUnder(limit: number, data: string, extra: string[] = []): Promise<CliServer> {
  const shell = ['bash', '-c', `ulimit -n ${limit} && exec "$0" "$@"`, process.execPath, 'dist/cli/folio.js'];
  return startCli(['serve', '--port', '0', '--data', data, '--rate-limit', 'off', '--log-level', 'warn', ...extra], { FOLIO_MASTER_KEY: KEY }, shell);
}

function openDescriptors(server: CliServer): number {
  return readdirSync(`/proc/${server.child.pid}/fd`).length;
}

async function call(server: CliServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text), headers: response.headers };
}

/** Runs `work` for 0…count-1, `CONCURRENCY` at a time. */
async function eachOf(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++);
  }));
}

const nameOf = (i: number): string => `tenant${String(i).padStart(4, '0')}`;

describe('many collections under ulimit -n 1024', () => {
  const data = mkdtempSync(join(tmpdir(), 'folio-many-'));
  let server: CliServer;

  before(async () => {
    server = await serveUnder(1024, data);
  });
  after(async () => {
    await server?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  test('1,100 collections created and filled, descriptors bounded, random ones served, all listed', async () => {
    await eachOf(COLLECTIONS, async (i) => {
      const created = await call(server, 'POST', '/v1/collections', { name: nameOf(i) });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const written = await call(server, 'POST', `/v1/collections/${nameOf(i)}/documents?refresh=wait_for`, [{ id: 'only', text: `the ledger of ${nameOf(i)}` }]);
      assert.equal(written.status, 200, JSON.stringify(written.body));
    });
    const descriptors = openDescriptors(server);
    assert.ok(descriptors <= 1_000, `${descriptors} descriptors open`);
    for (let k = 0; k < 50; k++) {
      const i = (k * 37) % COLLECTIONS;
      const found = await call(server, 'GET', `/v1/collections/${nameOf(i)}/search?q=ledger`);
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.deepEqual(found.body.hits.map((hit: { id: string }) => hit.id), ['only']);
    }
    const listed = await call(server, 'GET', '/v1/collections');
    assert.equal(listed.body.collections.length, COLLECTIONS);
    assert.ok(listed.body.collections.every((info: { documents: number }) => info.documents === 1));
    const stats = await call(server, 'GET', '/v1/stats');
    assert.equal(stats.status, 200);
    assert.ok(openDescriptors(server) <= 1_000);
  });

  test('killed with SIGKILL, it starts again under the same limit with every collection and document', async () => {
    // An acknowledged write not yet searchable when the process dies is there after the restart.
    const late = await call(server, 'PUT', `/v1/collections/${nameOf(7)}/documents/late`, { text: 'written just before the crash' });
    assert.equal(late.status, 200, JSON.stringify(late.body));
    process.kill(server.child.pid!, 'SIGKILL');
    await new Promise((resolve) => server.child.once('exit', resolve));
    server = await serveUnder(1024, data);
    const health = await call(server, 'GET', '/v1/health');
    assert.equal(health.status, 200);
    await pollUntil('the late write searchable', 10_000, async () => (await call(server, 'GET', `/v1/collections/${nameOf(7)}/search?q=crash`)).body.total === 1);
    for (let k = 0; k < 20; k++) {
      const i = (k * 53 + 11) % COLLECTIONS;
      const found = await call(server, 'GET', `/v1/collections/${nameOf(i)}/search?q=ledger`);
      assert.equal(found.body.total, 1, nameOf(i));
    }
    const listed = await call(server, 'GET', '/v1/collections');
    assert.equal(listed.body.collections.length, COLLECTIONS);
    assert.ok(openDescriptors(server) <= 1_000);
  });

  test('short of descriptors: 503 overloaded with Retry-After, the server stays up, and the retry works', async () => {
    await server.stop();
    // Far more open collections allowed than 256 descriptors can hold.
    server = await serveUnder(256, data, ['--open-collections', '5000']);
    const statuses = new Map<number, number>();
    let refused: { status: number; body: any; headers: Headers } | null = null;
    for (let i = 0; i < 300; i++) {
      const answer = await call(server, 'GET', `/v1/collections/${nameOf(i)}/search?q=ledger`);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status !== 200 && refused === null) refused = answer;
    }
    assert.equal(statuses.get(500), undefined, `no 500: ${JSON.stringify([...statuses])}`);
    assert.ok(refused !== null, 'the limit was reached');
    assert.equal(refused.status, 503);
    assert.equal(refused.body.code, 'overloaded');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal((await call(server, 'GET', '/v1/health')).status, 200);
    await pollUntil('a retry succeeds', 15_000, async () => (await call(server, 'GET', `/v1/collections/${nameOf(299)}/search?q=ledger`)).status === 200);
  });
});
