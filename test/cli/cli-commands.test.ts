// The `folio` command end to end (README.md, "Command line"): the real bin/folio.mjs runs as a child process
// against a real server started here, with its config under a temporary XDG_CONFIG_HOME.
// Login with the master key on standard input, config list, environment overrides, keys,
// collections, indexing a folder (with a failing file), search and webhooks; errors read
// `folio: <code>: <message>` with exit status 1, usage errors exit with 2. Children are
// spawned asynchronously: the server runs in this process and must keep answering.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROJECT_ROOT } from '../helpers/spawn-cli.ts';
import { startTestServer, TEST_MASTER_KEY } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const CLI = join(PROJECT_ROOT, 'bin', 'folio.mjs');
const KEY = /folio_[0-9A-Za-z]{40}/;

let server: TestServer;
let root: string;
let configHome: string;

/** Runs `folio args…` with `input` on standard input; no FOLIO_* variables but `env`. */
function folio(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith('FOLIO_') && name !== 'XDG_CONFIG_HOME');
  const env = { ...Object.fromEntries(inherited), HOME: root, XDG_CONFIG_HOME: configHome, ...options.env };
  const child = spawn(process.execPath, [CLI, ...args], { cwd: root, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Asserts a run succeeded, showing its output if not. */
function ok(run: Run): Run {
  assert.equal(run.code, 0, `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return run;
}

/** A loopback URL on which nothing listens. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const configFile = () => join(configHome, 'folio', 'config.json');
const savedConfig = async () => JSON.parse(await readFile(configFile(), 'utf8')) as { url: string; api_key: string; key_id: string };

describe('folio commands against a live server', () => {
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-cli-commands-'));
    configHome = join(root, 'xdg');
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  test('--help lists the commands; usage errors exit with 2 and say so', async () => {
    const help = ok(await folio(['--help']));
    for (const command of ['serve', 'auth', 'config', 'keys', 'collections', 'index', 'documents', 'search', 'facets', 'stats', 'webhooks']) {
      assert.match(help.stdout, new RegExp(`\\n  ${command}\\b`));
    }
    const readme = await readFile(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const documented = /\n\$ folio --help\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.equal(documented, help.stdout, "README.md's Command line section shows the current `folio --help`");
    const unknown = await folio(['frobnicate']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^folio: usage: unknown command 'frobnicate'/);
    const badFilter = await folio(['search', 'docs', 'x', '--filter', '{nope']);
    assert.equal(badFilter.code, 2);
    assert.match(badFilter.stderr, /--filter/);
    assert.equal((await folio(['keys', 'delete'])).code, 2);
  });

  test('without a config, commands say to run folio auth login', async () => {
    const run = await folio(['collections', 'list']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^folio: not_logged_in: .*folio auth login/);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  });

  test('a wrong master key fails with the stable code and writes no config', async () => {
    const run = await folio(['auth', 'login', '--url', server.url], { input: 'folio_not-the-master-key\n' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^folio: unauthorized: /m);
    await assert.rejects(stat(configFile()), { code: 'ENOENT' });
    const empty = await folio(['auth', 'login', '--url', server.url], { input: '\n' });
    assert.equal(empty.code, 2);
  });

  test('auth login reads the master key from stdin and saves a working admin key (0600)', async () => {
    const run = ok(await folio(['auth', 'login', '--url', server.url], { input: `${TEST_MASTER_KEY}\n` }));
    assert.ok(!run.stdout.includes(TEST_MASTER_KEY) && !run.stderr.includes(TEST_MASTER_KEY));
    assert.equal((await stat(configFile())).mode & 0o777, 0o600);
    assert.equal((await stat(join(configHome, 'folio'))).mode & 0o777, 0o700);
    const config = await savedConfig();
    assert.equal(config.url, server.url);
    assert.match(config.api_key, KEY);
    assert.ok(!run.stdout.includes(config.api_key), 'the key is not printed in full');
    const keys = await server.request('GET', '/v1/api-keys');
    const record = keys.body.keys.find((key: { id: string }) => key.id === config.key_id);
    assert.equal(record.name, hostname().slice(0, 100));
    assert.deepEqual(record.scopes, ['admin']);
    const asKey = await server.request('GET', '/v1/collections', undefined, { authorization: `Bearer ${config.api_key}` });
    assert.equal(asKey.status, 200);
  });

  test('config list shows the URL and the key masked', async () => {
    const { api_key: key } = await savedConfig();
    const run = ok(await folio(['config', 'list']));
    assert.ok(run.stdout.includes(server.url));
    assert.ok(run.stdout.includes(`${key.slice(0, 10)}…${key.slice(-4)}`), run.stdout);
    assert.ok(!run.stdout.includes(key));
    assert.ok(run.stdout.includes(configFile()));
    const overridden = ok(await folio(['config', 'list'], { env: { FOLIO_API_KEY: 'folio_FromTheEnvironment000000000000000wxyz' } }));
    assert.match(overridden.stdout, /folio_From…wxyz\s+\(FOLIO_API_KEY\)/);
  });

  test('collections create, list and delete', async () => {
    const created = ok(await folio(['collections', 'create', 'docs']));
    assert.match(created.stdout, /Created collection docs \(english\)/);
    ok(await folio(['collections', 'create', 'livres', '--language', 'french']));
    const exists = await folio(['collections', 'create', 'docs']);
    assert.equal(exists.code, 1);
    assert.match(exists.stderr, /^folio: collection_exists: /);
    const list = ok(await folio(['collections', 'list']));
    assert.match(list.stdout, /^NAME\s+LANGUAGE\s+DOCUMENTS/);
    assert.match(list.stdout, /\ndocs\s+english\s+0\s/);
    assert.match(list.stdout, /\nlivres\s+french\s/);
    const json = JSON.parse(ok(await folio(['collections', 'list', '--json'])).stdout);
    assert.deepEqual(json.collections.map((c: { name: string }) => c.name), ['docs', 'livres']);
    ok(await folio(['collections', 'delete', 'livres']));
    assert.doesNotMatch(ok(await folio(['collections', 'list'])).stdout, /livres/);
    const missing = await folio(['collections', 'delete', 'livres']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^folio: collection_not_found: /);
  });

  test('keys create prints the key once; list and delete', async () => {
    const created = ok(await folio(['keys', 'create', '--name', 'ci', '--scopes', 'search,write', '--collections', 'docs']));
    assert.match(created.stdout, /^folio_[0-9A-Za-z]{40}\n$/);
    const key = created.stdout.trim();
    const id = /key_[0-9A-Za-z]{16}/.exec(created.stderr)?.[0];
    assert.ok(id, created.stderr);
    const list = ok(await folio(['keys', 'list']));
    assert.match(list.stdout, new RegExp(`${id}\\s+ci\\s+${key.slice(0, 10)}…\\s+search,write\\s+docs\\s`));
    assert.ok(!list.stdout.includes(key));

    // The environment wins over the saved key: this key may not create collections.
    const limited = await folio(['collections', 'create', 'other'], { env: { FOLIO_API_KEY: key } });
    assert.equal(limited.code, 1);
    assert.match(limited.stderr, /^folio: forbidden: /);

    ok(await folio(['keys', 'delete', id]));
    assert.ok(!ok(await folio(['keys', 'list'])).stdout.includes(id));
    const gone = await folio(['collections', 'list'], { env: { FOLIO_API_KEY: key } });
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /^folio: unauthorized: /);
    const again = await folio(['keys', 'delete', id]);
    assert.match(again.stderr, /^folio: key_not_found: /);
  });

  test('keys create --filter: a key that sees only the matching documents', async () => {
    const created = ok(await folio(['keys', 'create', '--name', 'acme', '--filter', '{"tenant":"acme"}']));
    assert.match(created.stderr, /scopes search; collections: all; sees only documents matching \{"tenant":"acme"\}/);
    const list = ok(await folio(['keys', 'list']));
    assert.match(list.stdout, /acme\s+folio_\S+…\s+search\s+all\s+\{"tenant":"acme"\}/);
    const bad = await folio(['keys', 'create', '--filter', '{"tenant":"acme"}', '--scopes', 'search,write']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /validation_failed[^]*\/body\/scopes: a key with a filter has only the search scope/);
  });

  test('FOLIO_URL overrides the saved URL, and the saved key is not sent to another server', async () => {
    const closed = await closedPortUrl();
    const unreachable = await folio(['collections', 'list'], { env: { FOLIO_URL: closed, FOLIO_API_KEY: TEST_MASTER_KEY } });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /^folio: network_error: .*ECONNREFUSED/);
    const noKey = await folio(['collections', 'list'], { env: { FOLIO_URL: closed } });
    assert.equal(noKey.code, 1);
    assert.match(noKey.stderr, /^folio: not_logged_in: no API key for http:\/\/127\.0\.0\.1:\d+:/);
    const asMaster = ok(await folio(['collections', 'list'], { env: { FOLIO_URL: server.url, FOLIO_API_KEY: TEST_MASTER_KEY } }));
    assert.match(asMaster.stdout, /\ndocs\s/);
  });

  test('index uploads a folder tree in parallel, skips hidden files and unsupported ones, reports failures', async () => {
    const tree = join(root, 'tree');
    await mkdir(join(tree, 'sub', 'deeper'), { recursive: true });
    await mkdir(join(tree, '.hidden'));
    await writeFile(join(tree, 'guide.md'), '# Gardening guide\n\nPrune the quince trees in late winter.\n');
    await writeFile(join(tree, 'sub', 'notes.txt'), 'The quince jelly needs plenty of pectin.\n');
    await writeFile(join(tree, 'sub', 'deeper', 'recipes.md'), '# Quince recipes\n\nPoach quince slowly in syrup.\n');
    await writeFile(join(tree, 'sub', 'blob.xyz'), Buffer.from([0, 1, 2, 0, 0, 0, 0xfe, 0xff, 0, 7]));
    await writeFile(join(tree, '.hidden', 'secret.txt'), 'quince hidden away\n');
    await writeFile(join(tree, '.dotfile.txt'), 'quince dotfile\n');

    const run = ok(await folio(['index', 'docs', tree, '--concurrency', '3', '--refresh']));
    assert.match(run.stdout, /^Synced docs with \S+tree in \d+\.\d s: 3 new, 0 updated, 0 unchanged, 0 deleted, 1 skipped \(unsupported\), 0 failed\. Searchable now\.\n$/);
    assert.match(run.stderr, /Skipped \(not a type the server reads\):\n {2}\S*sub\/blob\.xyz\n/);
    assert.doesNotMatch(run.stderr, /Failed|\n\s+at /);

    const found = await server.request('GET', '/v1/collections/docs/search?q=quince&limit=10');
    assert.equal(found.body.total, 3, 'searchable at once (--refresh), hidden files left out');
    const hits = found.body.hits.map((hit: { id: string; metadata: { path: string } }) => [hit.id, hit.metadata.path]).sort();
    assert.deepEqual(hits, [['guide.md', 'guide.md'], ['sub:deeper:recipes.md', 'sub/deeper/recipes.md'], ['sub:notes.txt', 'sub/notes.txt']]);

    const missing = await folio(['index', 'nope', tree]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^folio: collection_not_found: /);
    const noSuchPath = await folio(['index', 'docs', tree, join(tree, 'absent.md')]);
    assert.equal(noSuchPath.code, 1, 'a real failure');
    assert.match(noSuchPath.stdout, /: 0 new, 0 updated, 3 unchanged, 0 deleted, 1 skipped \(unsupported\), 1 failed\./);
    assert.match(noSuchPath.stderr, /absent\.md: file_not_found: /);
  });

  test('search prints a list with title, page and snippet, facets after; --json parses', async () => {
    const run = ok(await folio(['search', 'docs', 'poach quince', '--facets', 'path', '--limit', '2']));
    assert.match(run.stdout, /^3 matches in docs, showing 1-2/);
    assert.match(run.stdout, /\n1\. Quince recipes\n {3}md · page 1 · score \d+\.\d{3} · sub:deeper:recipes\.md\n {3}Quince recipes Poach quince slowly in syrup\./);
    assert.doesNotMatch(run.stdout, /<mark>|\x1b\[/, 'plain text when not a terminal');
    assert.match(run.stdout, /More: --offset 2/);
    assert.match(run.stdout, /\nFacets\n {2}path: .*recipes\.md \(1\)/);

    const json = JSON.parse(ok(await folio(['search', 'docs', 'quince', '--json'])).stdout);
    assert.equal(json.total, 3);
    assert.match(json.hits[0].highlight, /<mark>/);

    const filtered = JSON.parse(
      ok(await folio(['search', 'docs', 'quince', '--json', '--filter', JSON.stringify({ path: 'sub/notes.txt' })])).stdout,
    );
    assert.equal(filtered.total, 1);
    const none = ok(await folio(['search', 'docs', 'zzzzz']));
    assert.match(none.stdout, /^No results in docs/);
    // Typos: on by default, off with --typos 0, which then suggests the word.
    assert.equal(JSON.parse(ok(await folio(['search', 'docs', 'quinse', '--json'])).stdout).total, 3);
    const strict = ok(await folio(['search', 'docs', 'quinse', '--typos', '0']));
    assert.match(strict.stdout, /^No results in docs .*\nDid you mean: quince\n/);
    const badTypos = await folio(['search', 'docs', 'quince', '--typos', '3']);
    assert.equal(badTypos.code, 2);
    assert.match(badTypos.stderr, /--typos/);
    // Search as you type: the last word is a prefix with --prefix last.
    assert.equal(JSON.parse(ok(await folio(['search', 'docs', 'quin', '--json'])).stdout).total, 0);
    assert.equal(JSON.parse(ok(await folio(['search', 'docs', 'quin', '--prefix', 'last', '--json'])).stdout).total, 3);
    assert.equal((await folio(['search', 'docs', 'quin', '--prefix', 'first'])).code, 2);
    const badFilter = await folio(['search', 'docs', 'quince', '--filter', '{"$and":[]}']);
    assert.equal(badFilter.code, 1);
    assert.match(badFilter.stderr, /^folio: invalid_filter: /);
  });

  test('search --match all asks for every word', async () => {
    assert.equal(JSON.parse(ok(await folio(['search', 'docs', 'quince pectin', '--json'])).stdout).total, 3);
    assert.equal(JSON.parse(ok(await folio(['search', 'docs', 'quince pectin', '--match', 'all', '--json'])).stdout).total, 1);
    assert.equal((await folio(['search', 'docs', 'quince', '--match', 'most'])).code, 2);
  });

  test('search over several collections, comma-separated: one list merged by relevance, each hit naming its collection', async () => {
    assert.equal((await server.request('POST', '/v1/collections', { name: 'pantry' })).status, 201);
    const written = await server.request('POST', '/v1/collections/pantry/documents?refresh=wait_for', [{ id: 'jar', title: 'Quince jelly', text: 'quince jelly in a jar', metadata: { shelf: 'top' } }]);
    assert.equal(written.status, 200, written.text);
    const run = ok(await folio(['search', 'docs,pantry', 'quince', '--facets', 'shelf']));
    assert.match(run.stdout, /^4 matches in docs, pantry, showing 1-4/);
    assert.match(run.stdout, /\n\d\. Quince jelly\n {3}pantry · score \d+\.\d{3} · jar\n/);
    assert.match(run.stdout, /\nFacets in pantry\n {2}shelf: top \(1\)/);
    const json = JSON.parse(ok(await folio(['search', 'docs,pantry', 'quince', '--json', '--limit', '2'])).stdout);
    assert.equal(json.total, 4);
    assert.equal(json.hits.length, 2);
    assert.ok(json.hits.every((hit: { collection: string }) => ['docs', 'pantry'].includes(hit.collection)));
    // A facet's values as one types them.
    const values = ok(await folio(['facets', 'pantry', 'shelf', 'to']));
    assert.match(values.stdout, /^Values of shelf matching "to" \(\d+ ms\):\n {2}1 {2}top\n$/);
    assert.match(ok(await folio(['facets', 'pantry', 'shelf', 'x'])).stdout, /^Values of shelf matching "x": none/);
    assert.deepEqual(JSON.parse(ok(await folio(['facets', 'pantry', 'shelf', '--json'])).stdout).values, [{ value: 'top', count: 1 }]);
    assert.equal((await folio(['facets', 'pantry', 'shelf', '--limit', '0'])).code, 2);
    const sorted = await folio(['search', 'docs,pantry', 'quince', '--sort', 'title:asc']);
    assert.equal(sorted.code, 2);
    assert.match(sorted.stderr, /--sort applies to one collection/);
  });

  test('collections settings shows and changes settings; synonyms from a file, --no-synonyms per search', async () => {
    const shown = ok(await folio(['collections', 'settings', 'docs']));
    assert.match(shown.stdout, /typo tolerance: on, one typo from 5 letters, two from 9/);
    assert.match(shown.stdout, /synonyms: none/);
    const file = join(root, 'synonyms.json');
    await writeFile(file, JSON.stringify([{ input: ['membrillo'], words: ['quince'] }]));
    const changed = ok(await folio(['collections', 'settings', 'docs', '--synonyms', file, '--set', '{"typo_tolerance":{"enabled":false}}']));
    assert.match(changed.stdout, /Changed the settings of docs/);
    assert.match(changed.stdout, /typo tolerance: off/);
    assert.match(changed.stdout, /synonyms: 1 entry\n\s+membrillo -> quince/);
    const json = JSON.parse(ok(await folio(['collections', 'settings', 'docs', '--json'])).stdout);
    assert.deepEqual(json.synonyms, [{ input: ['membrillo'], words: ['quince'] }]);
    assert.equal(JSON.parse(ok(await folio(['search', 'docs', 'membrillo', '--json'])).stdout).total, 3);
    assert.equal(JSON.parse(ok(await folio(['search', 'docs', 'membrillo', '--no-synonyms', '--json'])).stdout).total, 0);
    const boosted = JSON.parse(ok(await folio(['search', 'docs', 'quince', '--boost', '[{"field":"metadata.sales","modifier":"log1p"}]', '--json'])).stdout);
    assert.equal(boosted.total, 3);
    assert.equal((await folio(['search', 'docs', 'quince', '--boost', '{"field":"x"}'])).code, 2, 'not an array: a usage error');
    const grouped = JSON.parse(ok(await folio(['search', 'docs', 'quince', '--distinct', 'nothing-here', '--group-size', '2', '--json'])).stdout);
    assert.equal(grouped.total, 3, 'documents without the field: a group each');
    assert.equal((await folio(['search', 'docs', 'quince', '--distinct', 'x', '--group-size', '0'])).code, 2);
    assert.equal(JSON.parse(ok(await folio(['search', 'docs', 'quince', '--search-fields', 'text^2', '--json'])).stdout).total, 3);
    const badFields = await folio(['search', 'docs', 'quince', '--search-fields', 'author']);
    assert.equal(badFields.code, 1);
    assert.match(badFields.stderr, /^folio: validation_failed: /);
    await writeFile(file, '[{"words": ["alone"]}]');
    const refused = await folio(['collections', 'settings', 'docs', '--synonyms', file]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^folio: validation_failed: /);
    ok(await folio(['collections', 'settings', 'docs', '--set', '{"typo_tolerance":{"enabled":true},"synonyms":[]}']));
  });

  test('documents list pages in id order, get shows one, delete removes it; stats shows the server', async () => {
    const page = ok(await folio(['documents', 'list', 'docs', '--limit', '2']));
    const lines = page.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^ID\s+TITLE OR PATH\s+FORMAT\s+PAGES\s+SIZE\s+INDEXED$/);
    assert.equal(lines.length, 3);
    const cursor = /More: --cursor (\S+)/.exec(page.stderr)?.[1];
    assert.ok(cursor, page.stderr);
    const rest = ok(await folio(['documents', 'list', 'docs', '--cursor', cursor]));
    assert.equal(rest.stdout.trimEnd().split('\n').length, 2, 'the third document on the second page');
    const all = ok(await folio(['documents', 'list', 'docs', '--all', '--json'])).stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    assert.equal(all.length, 3);
    assert.deepEqual(all.map((d: { id: string }) => d.id), all.map((d: { id: string }) => d.id).sort());
    const recipes = all.find((d: { title: string | null }) => d.title === 'Quince recipes');
    const shown = ok(await folio(['documents', 'get', 'docs', recipes.id]));
    assert.match(shown.stdout, /^Quince recipes\nsub:deeper:recipes\.md · md · 1 page · \d+ B · indexed \d{4}-\d\d-\d\d \d\d:\d\d\n {2}path: sub\/deeper\/recipes\.md\n {2}folder: sub, sub\/deeper\n {2}modified_at: \S+\n {2}root: \S+tree\n {2}sha256: [0-9a-f]{64}\n {2}format: md\n {2}size: 48\n {2}extension: md\n/);
    assert.match(shown.stdout, /Poach quince slowly in syrup\./);
    const filtered = JSON.parse(ok(await folio(['documents', 'list', 'docs', '--json', '--filter', JSON.stringify({ path: recipes.metadata.path })])).stdout);
    assert.deepEqual(filtered.documents.map((d: { id: string }) => d.id), [recipes.id]);

    const stats = ok(await folio(['stats']));
    assert.match(stats.stdout, /^Folio \S+, up \d+ (s|min)/);
    assert.match(stats.stdout, /\nCOLLECTION\s+DOCUMENTS\s+SEGMENTS\s+SIZE\s+STATE\s+EMBEDDING\n(.*\n)*docs\s+3\s+\d+\s+\S+ \S+\s+ok\s+-\n/);
    assert.equal(JSON.parse(ok(await folio(['stats', '--json'])).stdout).collections.find((c: { name: string }) => c.name === 'docs').documents, 3);

    assert.match(ok(await folio(['documents', 'delete', 'docs', recipes.id])).stdout, /^Deleted sub:deeper:recipes\.md from docs\.\n$/);
    const missing = await folio(['documents', 'get', 'docs', recipes.id]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^folio: document_not_found: /);
  });

  test('search --semantic and --hybrid search by meaning', async () => {
    const created = await server.request('POST', '/v1/collections', { name: 'meaning', embedders: { use: { source: 'builtin' } } });
    assert.equal(created.status, 201, created.text);
    const docs = [{ id: 'cat', title: 'Cat', text: 'The cat sat on the mat.' }, { id: 'stocks', title: 'Markets', text: 'Stock markets fell sharply on Monday.' }];
    assert.equal((await server.request('POST', '/v1/collections/meaning/documents?refresh=wait_for', docs)).status, 200);
    const deadline = Date.now() + 60_000;
    while ((await server.request('GET', '/v1/collections/meaning')).body.embedding.use.embedded < 2) {
      assert.ok(Date.now() < deadline, 'embedded within a minute');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const semantic = ok(await folio(['search', 'meaning', 'feline resting on a rug', '--semantic', '--limit', '1']));
    assert.match(semantic.stdout, /\n1\. Cat\n/);
    const hybrid = JSON.parse(ok(await folio(['search', 'meaning', 'markets', '--hybrid', '--ratio', '0.5', '--json'])).stdout);
    assert.equal(hybrid.hits[0].id, 'stocks');
    assert.equal(hybrid.semantic_coverage, 1);
    const both = await folio(['search', 'meaning', 'cat', '--semantic', '--hybrid']);
    assert.equal(both.code, 2);
    assert.equal((await folio(['search', 'meaning', 'cat', '--ratio', '0.5'])).code, 2);
    assert.equal((await folio(['search', 'meaning', 'cat', '--hybrid', '--ratio', '2'])).code, 2);
    const noEmbedder = await folio(['search', 'docs', 'quince', '--semantic']);
    assert.equal(noEmbedder.code, 1);
    assert.match(noEmbedder.stderr, /validation_failed: .*embedder/);
  });

  test('webhooks add prints the secret once; list and delete', async () => {
    const added = ok(
      await folio(['webhooks', 'add', 'https://hooks.example.com/folio', '--events', 'collection.deleted', '--description', 'sync']),
    );
    assert.match(added.stdout, /^whsec_\S+\n$/);
    const id = /wh_[0-9A-Za-z]+/.exec(added.stderr)?.[0];
    assert.ok(id, added.stderr);
    const list = ok(await folio(['webhooks', 'list']));
    assert.match(list.stdout, new RegExp(`${id}\\s+https://hooks\\.example\\.com/folio\\s+collection\\.deleted\\s+active\\s.*sync`));
    assert.ok(!list.stdout.includes(added.stdout.trim()));
    const unknown = await folio(['webhooks', 'add', 'https://hooks.example.com/x', '--events', 'nope.event']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^folio: validation_failed: /);
    assert.equal((await folio(['webhooks', 'add', 'https://hooks.example.com/x'])).code, 2, '--events is required');
    ok(await folio(['webhooks', 'delete', id]));
    assert.ok(!ok(await folio(['webhooks', 'list'])).stdout.includes(id));
  });
});
