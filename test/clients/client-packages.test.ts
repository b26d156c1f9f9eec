// The clients install as packages, as another project would use them: the TypeScript client is
// packed with `npm pack` (compiled to JavaScript with declarations), installed from the tarball
// into a fresh project and imported by plain Node.js (no TypeScript loader); the Python client
// is installed with pip from its pyproject.toml into a fresh folder and imported from there.
// Both then talk to a real server.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { PROJECT_ROOT } from '../helpers/spawn-cli.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

async function pythonCanInstall(): Promise<string | false> {
  try {
    await run('python3', ['-m', 'pip', '--version']);
    return false;
  } catch {
    return 'python3 with pip is not installed here';
  }
}

describe('the clients as packages', () => {
  let server: TestServer;
  let work: string;

  before(async () => {
    server = await startTestServer();
    work = await mkdtemp(join(tmpdir(), 'folio-client-packages-'));
    await server.request('POST', '/v1/collections', { name: 'packaged' });
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  test('npm pack of the TypeScript client installs and runs in plain Node.js', async () => {
    const packageDir = join(PROJECT_ROOT, 'clients', 'typescript');
    const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    try {
      await run(NPM, ['pack', '--pack-destination', work], { cwd: packageDir, env });
    } finally {
      await rm(join(packageDir, 'dist'), { recursive: true, force: true });
    }
    const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack made a tarball');
    // A fresh project of the user's, outside the checkout, installing from the tarball alone.
    await writeFile(join(work, 'package.json'), '{"name":"user-project","version":"1.0.0","type":"module"}\n');
    await run(NPM, ['install', '--offline', '--no-save', join(work, tarball)], { cwd: work, env });
    await writeFile(
      join(work, 'check.mjs'),
      [
        "import { FolioClient, FolioError } from 'folio-search-client';",
        'const client = new FolioClient({ url: process.argv[2], apiKey: process.argv[3] });',
        "await client.upsert('packaged', 'a', { text: 'packed and shipped' }, { refresh: true });",
        "const answer = await client.search('packaged', 'shipped');",
        "let code = null; try { await client.getDocument('packaged', 'nope'); } catch (error) { code = error instanceof FolioError ? error.code : 'other'; }",
        'console.log(JSON.stringify({ total: answer.total, code }));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [join(work, 'check.mjs'), server.url, TEST_MASTER_KEY], { cwd: work });
    assert.deepEqual(JSON.parse(stdout), { total: 1, code: 'document_not_found' });
  });

  test('pip installs the Python client from its pyproject.toml', async (t) => {
    const missing = await pythonCanInstall();
    if (missing) return t.skip(missing);
    const source = join(work, 'python-source');
    await cp(join(PROJECT_ROOT, 'clients', 'python'), source, { recursive: true, filter: (path) => !/__pycache__|test_folio_client/.test(path) });
    const site = join(work, 'site');
    await run('python3', ['-m', 'pip', 'install', '--quiet', '--no-deps', '--no-index', '--target', site, source]);
    const script = [
      'import folio_client, sys',
      'assert folio_client.__file__.startswith(sys.argv[3]), folio_client.__file__',
      'folio = folio_client.FolioClient(sys.argv[1], api_key=sys.argv[2])',
      "print(folio.health()['status'])",
    ].join('\n');
    const { stdout } = await run('python3', ['-c', script, server.url, TEST_MASTER_KEY, site], { env: { ...process.env, PYTHONPATH: site } });
    assert.equal(stdout.trim(), 'ok');
  });
});
