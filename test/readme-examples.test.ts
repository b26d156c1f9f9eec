// README.md's examples, run on their own and in order as a new user would paste them: every
// fenced `sh`, `js` and `python` block, against a real server started by the `folio` command
// in a fresh folder (`folio-data/` there, as `npm start` makes it). The folder holds what the
// examples name as the reader's own files (`report.pdf`, `notes.pdf`, a `docs/` folder); the
// `folio` command is put on PATH by the README's own `npm link` line (into a temporary npm
// prefix), which, like `npm start` and `npx folio`, must print no npm warning; the README's
// port 7700 is replaced by the server's free port. Skipped: the install block itself (`npm
// install`, `npm test`: CI runs them) and lines marked "needs internet". A block passes when
// it exits 0 and prints no error answer (an RFC 9457 problem body).

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { PROJECT_ROOT } from './helpers/spawn-cli.ts';

interface Example {
  language: 'sh' | 'js' | 'python';
  code: string;
  /** The line of README.md where the block starts. */
  line: number;
}

const NEEDS_INTERNET = /needs internet/;
const INSTALL_BLOCK = /^npm (install|test|start)\b/m;
const PROBLEM_BODY = /"type":"about:blank"/;
const NPM_WARNING = /npm warn|npm WARN/i;

/** The README's first `sh` block: its install commands. */
function quickStart(readme: string): string {
  return /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
}
const BLOCK_TIMEOUT_MS = 120_000;

function missingTools(): string | false {
  const missing = ['curl', 'jq', 'python3', 'bash'].filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  return missing.length === 0 ? false : `the README's examples need ${missing.join(', ')}`;
}

function examples(readme: string): Example[] {
  const found: Example[] = [];
  const fence = /^```(sh|js|python)\n([\s\S]*?)^```$/gm;
  for (const match of readme.matchAll(fence)) {
    const line = readme.slice(0, match.index).split('\n').length;
    found.push({ language: match[1] as Example['language'], code: match[2], line });
  }
  return found;
}

function runProcess(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), BLOCK_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("README.md's examples", { skip: missingTools() }, () => {
  let home: string;
  let server: ChildProcess;
  let port: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'folio-readme-'));
    await copyFile(join(PROJECT_ROOT, 'fixtures', 'files', 'labelled.pdf'), join(home, 'report.pdf'));
    await copyFile(join(PROJECT_ROOT, 'fixtures', 'files', 'manual.pdf'), join(home, 'notes.pdf'));
    await mkdir(join(home, 'docs', 'guides'), { recursive: true });
    await writeFile(join(home, 'docs', 'README.md'), '# Manuals\n\nHow to install the tools on Linux.\n');
    await writeFile(join(home, 'docs', 'guides', 'setup.md'), '# Setup\n\nInstall the package, then run it. Windows users see the other guide.\n');
    // The README's own line that puts `folio` on PATH, run in the checkout with npm's global
    // folder in the test's home.
    const prefix = join(home, 'npm-global');
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FOLIO_') && !name.startsWith('npm_')));
    const link = /\bnpm link\b[^&;|\n]*/.exec(quickStart(await readFile(join(PROJECT_ROOT, 'README.md'), 'utf8')));
    assert.ok(link, "the README's quick start lost its `npm link` command");
    const linked = await runProcess('bash', ['-eo', 'pipefail', '-c', link[0].trim()], PROJECT_ROOT, { ...inherited, HOME: home, npm_config_prefix: prefix });
    assert.equal(linked.code, 0, linked.output);
    assert.doesNotMatch(linked.output, NPM_WARNING, linked.output);
    env = { ...inherited, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, PYTHONPATH: join(PROJECT_ROOT, 'clients', 'python') };
    server = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'folio.mjs'), 'serve', '--port', '0', '--log-level', 'warn'], { cwd: home, env });
    port = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 30_000);
      server.stdout!.on('data', (chunk) => {
        output += chunk;
        const match = /Folio listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match !== null) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      server.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
    });
    env.FOLIO_API_KEY = (await readFile(join(home, 'folio-data', 'master.key'), 'utf8')).trim();
  });
  after(async () => {
    server?.kill('SIGTERM');
    await rm(home, { recursive: true, force: true });
  });

  test('npm start and npx folio print no npm warning', async () => {
    for (const [command, args] of [['npm', ['start', '--', '--help']], ['npx', ['folio', '--version']]] as const) {
      const { code, output } = await runProcess(command, [...args], PROJECT_ROOT, env);
      assert.equal(code, 0, output);
      assert.doesNotMatch(output, NPM_WARNING, `${command} ${args.join(' ')}:\n${output}`);
    }
  });

  test('every sh, js and python block runs in order without an error', async () => {
    const readme = await readFile(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const blocks = examples(readme).filter((block) => !(block.language === 'sh' && INSTALL_BLOCK.test(block.code)));
    assert.ok(blocks.filter((b) => b.language === 'sh').length >= 3 && blocks.some((b) => b.language === 'js') && blocks.some((b) => b.language === 'python'), 'the README lost its examples');
    for (const block of blocks) {
      const code = block.code
        .split('\n')
        .filter((line) => !NEEDS_INTERNET.test(line))
        .join('\n')
        .replace(/(localhost|127\.0\.0\.1):7700/g, `127.0.0.1:${port}`)
        .replace(/'\.\/dist\//g, `'${pathToFileURL(join(PROJECT_ROOT, 'dist')).href}/`);
      const file = join(home, `example-${block.line}.${block.language === 'python' ? 'py' : block.language === 'js' ? 'mjs' : 'sh'}`);
      await writeFile(file, code);
      const [command, args] = block.language === 'sh' ? ['bash', ['-eo', 'pipefail', file]] : block.language === 'js' ? [process.execPath, [file]] : ['python3', [file]];
      const { code: exit, output } = await runProcess(command, args as string[], home, env);
      const where = `README.md line ${block.line} (${block.language}):\n${output}`;
      assert.equal(exit, 0, where);
      assert.doesNotMatch(output, PROBLEM_BODY, where);
    }
  });
});
