// The Python client (clients/python/folio_client.py) against a real server: starts one with
// kept files and the default rate limits, then runs the client's own unittest suite
// (clients/python/test_folio_client.py) in a `python3` child process pointed at it. The child
// is spawned asynchronously, because the server runs in this process and must keep serving.
// Skipped when `python3` is not installed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = 'python3';
const TIMEOUT_MS = 180_000;

function pythonVersion(): string | null {
  const probe = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) return null;
  return (probe.stdout || probe.stderr).trim();
}

const version = pythonVersion();
const skip = version === null ? `${PYTHON} is not installed: the Python client is not tested` : false;

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the Python tests took over ${TIMEOUT_MS} ms:\n${output}`));
    }, TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('Python client', { skip }, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ keepFiles: true });
  });
  after(async () => {
    await server?.close();
  });

  test(`its unittest suite passes against a real server (${version ?? 'no python3'})`, { timeout: TIMEOUT_MS + 10_000 }, async () => {
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FOLIO_'))),
      FOLIO_TEST_URL: server.url,
      FOLIO_TEST_KEY: TEST_MASTER_KEY,
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONUNBUFFERED: '1',
      PYTHONIOENCODING: 'utf-8',
      // The server is on loopback: never through a proxy from the environment.
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
    };
    const { code, output } = await run(PYTHON, ['-W', 'error', '-m', 'unittest', '-v', 'clients/python/test_folio_client.py'], env);
    assert.equal(code, 0, `python3 -m unittest failed (exit ${code}):\n${output}`);
    assert.match(output, /^OK$/m, `unexpected unittest summary:\n${output}`);
    assert.doesNotMatch(output, /skipped/, `some Python tests were skipped:\n${output}`);
  });
});
