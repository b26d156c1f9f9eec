// The Lucene peer of the throughput benchmarks: finds a JDK (javac on PATH, and the java beside
// it) and Debian's liblucene8-java jars in /usr/share/java, compiles
// benchmarks/peers/LucenePeer.java into a temporary folder under the input's `dir` (each run,
// a second or two, not timed) and runs it with `java -Xmx2g`, which speaks peer-process.ts's
// protocol. The heap limit is part of the result's indexBytesNote. Where the JDK or a jar is
// missing the peer is skipped: the caller gets null and a note is printed, never an error.

import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPeerCommand } from './peer-process.ts';
import type { PeerInput, PeerResult } from './peer-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PEER_SOURCE = 'benchmarks/peers/LucenePeer.java';
const PEER_CLASS = 'LucenePeer';
const JAR_DIR = '/usr/share/java';
/** The jars the peer needs: lucene-<name>.jar or lucene-<name>-<version>.jar. */
const JAR_NAMES = ['core', 'analyzers-common', 'queryparser'];
export const LUCENE_JVM_OPTIONS = ['-Xmx2g'];

export interface LuceneToolchain {
  javac: string;
  java: string;
  /** Absolute paths of JAR_NAMES' jars, in that order. */
  jars: string[];
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && executable(join(dir, command))) return join(dir, command);
  }
  return null;
}

/** Compares dotted versions numerically (8.10.0 > 8.7.0). */
function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** `lucene-<name>.jar` if present, else the highest `lucene-<name>-<version>.jar`, else null. */
function luceneJar(files: string[], name: string): string | null {
  if (files.includes(`lucene-${name}.jar`)) return join(JAR_DIR, `lucene-${name}.jar`);
  const pattern = new RegExp(`^lucene-${name.replace(/[-.]/g, '\\$&')}-(\\d+(?:\\.\\d+)*)\\.jar$`);
  const versions = files.flatMap((file) => pattern.exec(file)?.[1] ?? []).sort(compareVersions);
  return versions.length === 0 ? null : join(JAR_DIR, `lucene-${name}-${versions[versions.length - 1]}.jar`);
}

let found: LuceneToolchain | null | undefined;
let missing = '';

/** javac, java and the jars, or null when one is missing (probed once). */
export function luceneToolchain(): LuceneToolchain | null {
  if (found !== undefined) return found;
  found = null;
  const javacOnPath = onPath('javac');
  if (javacOnPath === null || spawnSync(javacOnPath, ['-version'], { stdio: 'ignore' }).status !== 0) {
    missing = 'no working javac on PATH';
    return found;
  }
  // The java of the same JDK as javac (so the classes it compiles are ones it can run).
  const beside = join(dirname(realpathSync(javacOnPath)), 'java');
  const java = executable(beside) ? beside : onPath('java');
  if (java === null || spawnSync(java, ['-version'], { stdio: 'ignore' }).status !== 0) {
    missing = 'no working java beside javac or on PATH';
    return found;
  }
  const files = existsSync(JAR_DIR) ? readdirSync(JAR_DIR) : [];
  const jars = JAR_NAMES.map((name) => luceneJar(files, name));
  const absent = JAR_NAMES.filter((_, i) => jars[i] === null);
  if (absent.length > 0) {
    missing = `no ${absent.map((name) => `lucene-${name}*.jar`).join(', ')} in ${JAR_DIR}`;
    return found;
  }
  found = { javac: javacOnPath, java, jars: jars as string[] };
  return found;
}

export const LUCENE_SKIPPED_NOTE =
  `Lucene peer skipped: it needs javac and java on PATH and the ${JAR_NAMES.map((name) => `lucene-${name}`).join(', ')} jars in ${JAR_DIR} ` +
  '(on Debian: apt-get install liblucene8-java default-jdk-headless).';

/** What the probe found missing ('' before it ran or when nothing is). */
export function luceneMissing(): string {
  return missing;
}

/** Runs the Lucene peer, or prints why it is skipped and resolves with null. */
export async function runLucenePeer(input: PeerInput): Promise<PeerResult | null> {
  const toolchain = luceneToolchain();
  if (toolchain === null) {
    console.log(`${LUCENE_SKIPPED_NOTE} Missing: ${missing}.`);
    return null;
  }
  const classes = mkdtempSync(join(input.dir, 'lucene-classes-'));
  try {
    const compiled = spawnSync(toolchain.javac, ['-nowarn', '-d', classes, '-cp', toolchain.jars.join(delimiter), PEER_SOURCE], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (compiled.status !== 0) {
      throw new Error(`javac ${PEER_SOURCE} exited with code ${compiled.status}:\n${compiled.stderr}${compiled.stdout}${compiled.error ?? ''}`);
    }
    const classPath = [...toolchain.jars, classes].join(delimiter);
    return await runPeerCommand(`${PEER_CLASS}.java`, toolchain.java, [...LUCENE_JVM_OPTIONS, '-cp', classPath, PEER_CLASS], input);
  } finally {
    rmSync(classes, { recursive: true, force: true });
  }
}
