// Runs the real `folio` command in a child process for end-to-end tests of the CLI: waits
// for the "Folio listening on <url>" line, keeps the output, and stops the process (and
// only it, by its own process group) with SIGTERM.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LISTENING = /Folio listening on (http:\/\/\S+)/;
const START_TIMEOUT_MS = 30_000;

export interface CliServer {
  url: string;
  child: ChildProcess;
  /** Everything written to standard output and standard error so far. */
  output(): string;
  /** Sends SIGTERM to the process group and resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface CliResult {
  code: number | null;
  output: string;
}

/** Environment for a child: no inherited FOLIO_* variables unless given. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FOLIO_')));
  return { ...base, ...env };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts `command args…` (default `node dist/cli/folio.js`, the built CLI) and waits until it listens. */
export async function startCli(args: string[], env: Record<string, string> = {}, command?: string[]): Promise<CliServer> {
  const [program, ...programArgs] = command ?? [process.execPath, 'dist/cli/folio.js'];
  const child = spawn(program, [...programArgs, ...args], { cwd: PROJECT_ROOT, env: childEnv(env), detached: true });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const check = () => {
      const match = LISTENING.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop() {
      const done = exited(child);
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      return done;
    },
  };
}

/** Runs the CLI to completion (for commands that should fail fast). */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawn(process.execPath, ['dist/cli/folio.js', ...args], { cwd: PROJECT_ROOT, env: childEnv(env) });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await exited(child);
  return { code, output };
}
