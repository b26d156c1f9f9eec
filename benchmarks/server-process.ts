// Starts a real Folio server as a child process (`folio serve --port 0`) on a data directory,
// waits for it to announce its URL, and stops it gracefully or with SIGKILL. Used by the
// benchmarks and by the crash tests. `startListeningProcess` does the same for any Node script
// that prints "listening on http://…" (the benchmarks' empty Fastify route).

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LISTENING = /listening on (http:\/\/[^\s]+)/i;
const START_TIMEOUT_MS = 30_000;

export interface ListeningProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit: a crash. */
  kill(): Promise<void>;
}

export interface ServerProcess extends ListeningProcess {
  masterKey: string;
}

/**
 * Runs `node <args>` from the project root and resolves with the URL it announces. Once it
 * has, output is only appended (never searched again), so a server logging every request
 * under load costs the parent little. `descriptorLimit`: run it under `ulimit -n` that many (a
 * shell lowers the limit, then becomes node).
 */
export async function startListeningProcess(args: string[], env: NodeJS.ProcessEnv = process.env, descriptorLimit?: number): Promise<ListeningProcess> {
  const child =
    descriptorLimit === undefined
      ? spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('bash', ['-c', `ulimit -n ${descriptorLimit} && exec "$0" "$@"`, process.execPath, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process did not start within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const append = (chunk: Buffer): void => {
      output += chunk.toString();
    };
    const onData = (chunk: Buffer): void => {
      append(chunk);
      const match = LISTENING.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData).on('data', append);
        child.stderr!.off('data', onData).on('data', append);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited with code ${code} before listening:\n${output}`));
    });
  });
  const stopWith = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    child,
    output: () => output,
    stop: () => stopWith('SIGTERM'),
    kill: () => stopWith('SIGKILL'),
  };
}

/**
 * Starts `folio serve` on `dataDir`. `extraArgs` go to `folio serve`; `nodeArgs` go to Node
 * itself, before the script (e.g. `--cpu-prof --cpu-prof-dir=/tmp/x`: the profile is written
 * when the server exits after `stop()`).
 */
export async function startServerProcess(
  dataDir: string,
  masterKey: string,
  extraArgs: string[] = [],
  nodeArgs: string[] = [],
  descriptorLimit?: number,
): Promise<ServerProcess> {
  // The compiled server, as `npm start` and the `folio` command run it (`npm run build` first).
  const args = [...nodeArgs, 'dist/cli/folio.js', 'serve', '--port', '0', '--data', dataDir, ...extraArgs];
  const server = await startListeningProcess(args, { ...process.env, FOLIO_MASTER_KEY: masterKey }, descriptorLimit);
  return { ...server, masterKey };
}
