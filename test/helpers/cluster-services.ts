// The real services cluster tests run against, each started on a free port in a temp
// directory and stopped by the test: PostgreSQL from Debian (initdb + pg_ctl, as the
// `postgres` user when the test runs as root, since PostgreSQL refuses root), Redis from
// Debian, and s3rver from npm as the S3 endpoint. `clusterServicesMissing()` names what is
// not installed so a test can skip with a clear message.

import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const POSTGRES_BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

function postgresBin(name: string): string | null {
  for (const dir of POSTGRES_BIN_DIRS) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const file = path.join(dir, name);
    if (dir !== '' && fs.existsSync(file)) return file;
  }
  return null;
}

/** Why cluster tests cannot run here (null: PostgreSQL and Redis are installed). */
export function clusterServicesMissing(): string | null {
  const missing: string[] = [];
  if (postgresBin('pg_ctl') === null) missing.push('PostgreSQL (apt-get install postgresql)');
  if (onPath('redis-server') === null) missing.push('Redis (apt-get install redis-server)');
  return missing.length === 0 ? null : `not installed: ${missing.join(', ')}`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const runsAsRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program, as `postgres` when this process is root. */
function runPostgresTool(program: string, args: string[]): string {
  const bin = postgresBin(program);
  if (bin === null) throw new Error(`${program} is not installed`);
  const [file, fileArgs] = runsAsRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return execFileSync(file, fileArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface PostgresServer {
  url: string;
  port: number;
  /** Stops the server (fast shutdown); it keeps its data for `start`. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

/** A fresh PostgreSQL cluster in a temp directory, trust authentication, listening on 127.0.0.1. */
export async function startPostgres(): Promise<PostgresServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-pg-'));
  const dataDir = path.join(dir, 'data');
  if (runsAsRoot) execFileSync('chown', ['postgres:postgres', dir]);
  runPostgresTool('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200`;
  const start = async (): Promise<void> => {
    runPostgresTool('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  };
  const stop = async (): Promise<void> => {
    runPostgresTool('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    destroy: async () => {
      try {
        await stop();
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const bin = onPath('redis-server');
  if (bin === null) throw new Error('redis-server is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-redis-'));
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await waitForPort(port, child);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      await stopChild(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The credentials s3rver accepts. */
  env: Record<string, string>;
  stop(): Promise<void>;
  /** Starts it again on the same port, with the same objects. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * s3rver (a real S3 API server from npm, objects on disk) in a child process, with `bucket`
 * created: a child so that stopping it is an outage the nodes see, like a real endpoint going away.
 */
export async function startS3(bucket = 'folio-test'): Promise<S3Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-s3-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const script = `
    const S3rver = require('s3rver');
    new S3rver({ port: ${port}, address: '127.0.0.1', directory: ${JSON.stringify(dir)}, silent: true,
      configureBuckets: [{ name: ${JSON.stringify(bucket)} }] }).run().then(() => console.log('ready'));
  `;
  const start = async (): Promise<void> => {
    const started = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'], cwd: path.join(import.meta.dirname, '..', '..') });
    child = started;
    await waitForPort(port, started);
  };
  await start();
  const stop = async (): Promise<void> => {
    if (child !== null) await stopChild(child);
    child = null;
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    env: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' },
    start,
    stop,
    destroy: async () => {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before listening on ${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listened on ${port} within 20 s`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
