// A real multi-process Folio cluster on 127.0.0.1 for tests and the cluster benchmark:
// PostgreSQL and s3rver (and Redis when asked) from cluster-services.ts, and Folio nodes as
// child processes of the built CLI (`folio serve --cluster … --object-store …`), each with its
// own data directory, stoppable with SIGTERM or killed with SIGKILL.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgres, startRedis, startS3 } from './cluster-services.ts';
import type { PostgresServer, RedisServer, S3Server } from './cluster-services.ts';
import { pollUntil } from './poll.ts';
import { startCli } from './spawn-cli.ts';
import type { CliServer } from './spawn-cli.ts';

export const CLUSTER_MASTER_KEY = 'cluster-test-master-key-0123456789abcdef';

export interface ClusterNodeProcess {
  url: string;
  server: CliServer;
  dataDir: string;
  /** SIGKILL: the node dies at once, as a crashed machine. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestCluster {
  postgres: PostgresServer;
  s3: S3Server;
  redis: RedisServer | null;
  /** Starts a node: `writer` nodes compete for writer leases, `replica` nodes only search. `dataDir`: a dead node's, to restart it. */
  startNode(role: 'writer' | 'replica', extraArgs?: string[], dataDir?: string): Promise<ClusterNodeProcess>;
  destroy(): Promise<void>;
}

export interface TestClusterOptions {
  redis?: boolean;
  /** Seconds a writer lease lasts unrenewed (`--cluster-lease`); default 2 for quick failovers. */
  leaseSeconds?: number;
}

export async function startTestCluster(options: TestClusterOptions = {}): Promise<TestCluster> {
  const postgres = await startPostgres();
  const s3 = await startS3();
  const redis = options.redis === true ? await startRedis() : null;
  const nodes: ClusterNodeProcess[] = [];
  const startNode = async (role: 'writer' | 'replica', extraArgs: string[] = [], reusedDir?: string): Promise<ClusterNodeProcess> => {
    const dataDir = reusedDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'folio-node-'));
    const args = [
      'serve',
      '--port', '0',
      '--data', dataDir,
      '--cluster', postgres.url,
      '--object-store', `s3://${s3.bucket}/folio`,
      '--s3-endpoint', s3.endpoint,
      '--cluster-role', role,
      '--cluster-lease', String(options.leaseSeconds ?? 2),
      '--log-format', 'json',
      '--log-level', 'warn',
      '--search-threads', '1',
      '--index-threads', '1',
      ...(redis !== null ? ['--redis', redis.url] : []),
      ...extraArgs,
    ];
    const server = await startCli(args, { ...s3.env, FOLIO_MASTER_KEY: CLUSTER_MASTER_KEY });
    const node: ClusterNodeProcess = {
      url: server.url,
      server,
      dataDir,
      kill: async () => {
        if (server.child.exitCode !== null || server.child.signalCode !== null) return;
        const exited = new Promise((resolve) => server.child.once('exit', resolve));
        server.child.kill('SIGKILL');
        await exited;
      },
      stop: async () => {
        await server.stop();
      },
    };
    nodes.push(node);
    return node;
  };
  return {
    postgres,
    s3,
    redis,
    startNode,
    destroy: async () => {
      await Promise.allSettled(nodes.map((node) => node.stop()));
      for (const node of nodes) fs.rmSync(node.dataDir, { recursive: true, force: true });
      await Promise.allSettled([postgres.destroy(), s3.destroy(), redis?.stop()]);
    },
  };
}

/** A request to a node with the master key; JSON in and out. */
export async function callNode(url: string, method: string, pathname: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${CLUSTER_MASTER_KEY}`, ...(body !== undefined && { 'content-type': contentType }) },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the text as it came.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/**
 * Polls `check` (poll.ts) until it returns true, a thrown error counting as not yet (a node may
 * be restarting); resolves with the milliseconds it took, fails with `what` and the last error.
 */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  let lastError: unknown = null;
  try {
    await pollUntil(what, timeoutMs, async () => {
      try {
        return await check();
      } catch (error) {
        lastError = error;
        return false;
      }
    });
  } catch (timedOut) {
    throw new Error(`${(timedOut as Error).message}${lastError !== null ? ` (last error: ${(lastError as Error).message})` : ''}`);
  }
  return Date.now() - started;
}
