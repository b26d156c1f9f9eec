// Starts a real Folio server as a child process (`folio serve --port 0`) on a data directory,
// waits for it to announce its URL, and stops it gracefully or with SIGKILL. Used by the
// benchmarks and by the crash tests.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LISTENING = /listening on (http:\/\/[^\s]+)/i;
const START_TIMEOUT_MS = 30_000;

export interface ServerProcess {
  url: string;
  masterKey: string;
  child: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit: a crash. */
  kill(): Promise<void>;
}

export async function startServerProcess(dataDir: string, masterKey: string, extraArgs: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/folio.ts', 'serve', '--port', '0', '--data', dataDir, ...extraArgs], {
    cwd: ROOT,
    env: { ...process.env, FOLIO_MASTER_KEY: masterKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before listening:\n${output}`));
    });
  });
  const stopWith = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    masterKey,
    child,
    output: () => output,
    stop: () => stopWith('SIGTERM'),
    kill: () => stopWith('SIGKILL'),
  };
}
