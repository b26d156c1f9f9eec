// Checks docs/architecture.md's import rules ("Folders and who may import whom") over the real source tree,
// and, in "the checker itself", feeds small synthetic trees through the pure checker in
// test/helpers/import-rules.ts to show every rule fails where it should, naming file and line.
// The rules themselves are described on checkImportRules.

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
  SOURCE_FOLDERS,
  STORAGE_WRITE_PATH_FILES,
  WRITE_PATH_ROOMS,
  checkImportRules,
  exportedNames,
  findModuleReferences,
  formatViolations,
  isSourceFile,
  resolveSpecifier,
} from './helpers/import-rules.ts';
import type { ImportRule, ImportViolation, SourceText } from './helpers/import-rules.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const NEVER_SCANNED = new Set(['node_modules', 'dist', 'fixtures', '.git']);

/** The source folders' files: tracked and not-yet-added files git knows of, or a walk when git is absent. */
function listSourceFiles(): string[] {
  let files: string[];
  try {
    files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...SOURCE_FOLDERS], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .filter((file) => file !== '');
  } catch {
    files = SOURCE_FOLDERS.flatMap((folder) => walk(folder));
  }
  return files.filter(
    (file) => isSourceFile(file) && !file.split('/').some((part) => NEVER_SCANNED.has(part)) && existsSync(join(root, file)),
  );
}

function walk(relativeDir: string): string[] {
  const dir = join(root, relativeDir);
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (NEVER_SCANNED.has(entry)) continue;
    const file = `${relativeDir}/${entry}`;
    if (statSync(join(root, file)).isDirectory()) found.push(...walk(file));
    else found.push(file);
  }
  return found;
}

function readSources(files: string[]): SourceText[] {
  const sources: SourceText[] = [];
  for (const file of files) {
    try {
      sources.push({ file, text: readFileSync(join(root, file), 'utf8') });
    } catch (error) {
      // A file removed between listing and reading (someone else's edit in progress) is gone.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return sources;
}

test('the source tree follows the import rules', () => {
  const sources = readSources(listSourceFiles());
  assert.ok(sources.some((source) => source.file === 'storage/index.ts'), 'found the source folders');
  const violations = checkImportRules(sources);
  assert.equal(
    violations.length,
    0,
    `${violations.length} import rule violation(s) (see docs/architecture.md, "Folders and who may import whom"):\n` +
      formatViolations(violations),
  );
});

test('deletes files are read one way: engine/segment/deletes-file.ts, by workers and indexing alike', () => {
  const sources = readSources(listSourceFiles()).filter((source) => !/\.test(-worker)?\.ts$/.test(source.file));
  const readers = sources.filter((source) =>
    source.file !== 'engine/segment/deletes-file.ts' &&
    findModuleReferences(source.file, source.text).some((reference) => (reference.names ?? []).some(({ name }) => name === 'readBitmapFile')),
  );
  assert.deepEqual(readers.map((source) => source.file), [], 'these read deletes files past readDeletesFile');
});

test("every import between server/'s rooms is an arrow of docs/architecture.md's rooms table, and every arrow is used", () => {
  const architecture = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const allowed = new Map<string, Set<string> | 'every room'>();
  for (const [, room, column] of architecture.matchAll(/^\| `([a-z-]+)\/` \|.*\| ([^|]*) \|$/gm)) {
    // The last column: rooms by name (a note after `;` or in parentheses names no room), `—` for none.
    const names = column.split(';')[0].split(',').map((name) => name.replace(/\(.*\)/, '').trim()).filter((name) => name !== '' && name !== '—');
    allowed.set(room, column.trim() === 'every room' ? 'every room' : new Set(names));
  }
  const used = new Map<string, Set<string>>();
  for (const source of readSources(listSourceFiles())) {
    const [top, room] = source.file.split('/');
    if (top !== 'server' || source.file.split('/').length < 3 || /\.test(-worker)?\.ts$/.test(source.file)) continue;
    for (const reference of findModuleReferences(source.file, source.text)) {
      const target = resolveSpecifier(source.file, reference.specifier)?.split('/');
      if (target === undefined || target[0] !== 'server' || target.length < 3 || target[1] === room) continue;
      if (!used.has(room)) used.set(room, new Set());
      used.get(room)!.add(target[1]);
    }
  }
  const problems: string[] = [];
  for (const [room, targets] of used) {
    const arrows = allowed.get(room);
    if (arrows === undefined) problems.push(`${room}/ has no row`);
    else if (arrows !== 'every room') for (const target of targets) if (!arrows.has(target)) problems.push(`${room}/ imports ${target}/, which its row does not list`);
  }
  for (const [room, arrows] of allowed) {
    if (arrows === 'every room') continue;
    for (const target of arrows) if (!used.get(room)?.has(target)) problems.push(`${room}/'s row lists ${target}/, which it does not import`);
  }
  assert.deepEqual(problems, []);
});

test("docs/architecture.md names what exists: server/'s rooms, storage's files, the write path's rooms", () => {
  const architecture = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const section = (heading: string): string => {
    const start = architecture.indexOf(`\n## ${heading}`);
    assert.ok(start >= 0, `docs/architecture.md has a section "${heading}"`);
    const end = architecture.indexOf('\n## ', start + 1);
    return architecture.slice(start, end < 0 ? undefined : end);
  };
  // The rooms table of "server/ — rooms": a row per folder of server/, and no other.
  const rooms = [...section('server/ — rooms').matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((match) => match[1]).sort();
  const folders = readdirSync(join(root, 'server'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  assert.deepEqual(rooms, folders, 'the rooms docs/architecture.md lists are the rooms that exist');
  // The storage table names every file of storage/ (its door aside).
  const storageTable = section('storage/ — bytes on disk');
  const unnamed = readdirSync(join(root, 'storage')).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'index.ts' && !storageTable.includes(`\`${name}\``));
  assert.deepEqual(unnamed, [], 'storage files docs/architecture.md does not name');
  // The rooms allowed storage's write path are the ones the text names.
  const rules = section('Folders and who may import whom');
  for (const room of WRITE_PATH_ROOMS) assert.ok(rules.includes(`\`server/${room}/\``), `the rules name server/${room}/ as a user of the write path`);
  // server/index.ts's comment counts and names the rooms.
  const door = readFileSync(join(root, 'server', 'index.ts'), 'utf8').split('\n').filter((line) => line.startsWith('//')).join(' ');
  for (const room of folders) assert.match(door, new RegExp(`\\b${room}\\b`), `server/index.ts's comment names ${room}`);
});

// ---------------------------------------------------------------------------------------------
// The checker itself, on synthetic trees

/** A small tree that keeps every rule: each case below adds or replaces a file or two. */
const CLEAN: Record<string, string> = {
  'storage/index.ts': [
    "export * from './atomic-file.ts';",
    "export * from './roaring.ts';",
    "export * from './wal-frame.ts';",
    "export * from './wal.ts';",
    "export * from './manifest.ts';",
  ].join('\n'),
  'storage/atomic-file.ts': 'export function writeFileAtomic(): void {}\nexport const PRIVATE_FILE_MODE = 0o600;',
  'storage/wal.ts': 'export class WriteAheadLog {}\nexport const FIRST_WAL_GENERATION = 1;\nexport interface WalStats { bytes: number }',
  'storage/wal-frame.ts':
    "export { WAL_FRAME_HEADER_BYTES } from './frame-header.ts';\nexport function encodeWalFrame(): void {}",
  'storage/frame-header.ts': 'export const WAL_FRAME_HEADER_BYTES = 8;\nexport const UNRELATED = 1;',
  'storage/manifest.ts':
    'export type Manifest = { segments: string[] };\nfunction readManifest(): Manifest | null { return null; }\nexport { readManifest as loadManifest };',
  'storage/roaring.ts': [
    "import roaring from 'roaring';",
    "export * from './bitmap-section.ts';",
    'export const RoaringBitmap32 = roaring.RoaringBitmap32;',
    'export type RoaringBitmap32 = InstanceType<typeof roaring.RoaringBitmap32>;',
    'export function readBitmapFile(): void {}',
  ].join('\n'),
  'storage/bitmap-section.ts': "export const BITMAP_SECTION = 'bitmap';",
  'engine/index.ts': "export * from './document.ts';\nexport { RoaringBitmap32 } from '../storage/index.ts';",
  'engine/document.ts': "import { readBitmapFile } from '../storage/index.ts';\nexport interface Doc { id: string }",
  'extract/index.ts': "import { XMLParser } from 'fast-xml-parser';\nexport const extract = XMLParser;",
  'server/index.ts': "export { buildApp } from './http/index.ts';\nexport type { Settings } from './config/index.ts';",
  'server/config/index.ts': 'export interface Settings { port: number }',
  'server/http/index.ts': "export { buildApp } from './app.ts';",
  'server/http/app.ts': [
    "import Fastify from 'fastify';",
    "import type { Settings } from '../config/index.ts';",
    "import { openRegistry } from '../indexing/index.ts';",
    "import type { Doc } from '../../engine/index.ts';",
    "import { extract } from '../../extract/index.ts';",
    "const worker = new URL('../pools/worker.ts', import.meta.url);",
    'export const buildApp = () => [Fastify, openRegistry, extract, worker];',
  ].join('\n'),
  'server/indexing/index.ts': "export { openRegistry } from './collection.ts';",
  'server/indexing/collection.ts': [
    "import { WriteAheadLog, readBitmapFile, writeFileAtomic } from '../../storage/index.ts';",
    "import type { Manifest } from '../../storage/index.ts';",
    "import * as storage from '../../storage/index.ts';",
    'export const openRegistry = () => [WriteAheadLog, readBitmapFile, writeFileAtomic, storage];',
  ].join('\n'),
  'server/auth/index.ts': "export { saveKeys } from './keys.ts';",
  'server/auth/keys.ts': [
    "import { PRIVATE_FILE_MODE, writeFileAtomic } from '../../storage/index.ts';",
    'export const saveKeys = () => [PRIVATE_FILE_MODE, writeFileAtomic];',
  ].join('\n'),
  'cli/folio.ts': [
    "import { buildApp } from '../server/index.ts';",
    "import { FolioClient } from '../clients/typescript/index.ts';",
    "const lazy = () => import('../server/index.js');",
    'export const main = () => [buildApp, FolioClient, lazy];',
  ].join('\n'),
  'clients/typescript/index.ts': "export { FolioClient } from './transport.ts';",
  'clients/typescript/transport.ts': 'export class FolioClient {}',
  // Tests, benchmarks and scripts may import anything.
  'server/http/app.test.ts':
    "import { openRegistry } from '../indexing/collection.ts';\nimport { main } from '../../cli/folio.ts';\nimport { readBitmapFile } from '../../storage/roaring.ts';",
  'engine/document.test.ts': "import { buildApp } from '../server/http/app.ts';",
  'test/helpers/deep.ts': "import { WriteAheadLog } from '../../storage/wal.ts';",
  'benchmarks/load.ts': "import { Doc } from '../engine/document.ts';",
  'scripts/tool.ts': "import { main } from '../cli/folio.ts';",
};

function tree(changes: Record<string, string> = {}): SourceText[] {
  return Object.entries({ ...CLEAN, ...changes }).map(([file, text]) => ({ file, text }));
}

interface Expected {
  at: string;
  rule: ImportRule;
  message?: RegExp;
}

/** Runs the checker over the clean tree plus `changes` and asserts exactly `expected` comes out. */
function expectViolations(changes: Record<string, string>, expected: Expected[]): ImportViolation[] {
  const violations = checkImportRules(tree(changes));
  const got = violations.map((v) => `${v.file}:${v.line} ${v.rule}`).sort();
  const want = expected.map((e) => `${e.at} ${e.rule}`).sort();
  assert.deepEqual(got, want, `violations:\n${formatViolations(violations)}`);
  for (const e of expected) {
    if (!e.message) continue;
    const messages = violations.filter((v) => `${v.file}:${v.line}` === e.at && v.rule === e.rule).map((v) => v.message);
    assert.ok(
      messages.some((message) => e.message!.test(message)),
      `${e.at} [${e.rule}]: expected a message matching ${e.message}, got:\n${messages.join('\n')}`,
    );
  }
  return violations;
}

describe('the checker itself', () => {
  test('a clean tree reports nothing (tests, benchmarks, scripts, packages and worker URLs exempt)', () => {
    assert.deepEqual(checkImportRules(tree()), []);
  });

  describe('direction', () => {
    test('upward: storage imports engine', () => {
      expectViolations(
        { 'storage/segment-file.ts': "// A segment.\nimport type { Doc } from '../engine/index.ts';" },
        [{ at: 'storage/segment-file.ts:2', rule: 'direction', message: /^upward: storage imports engine/ }],
      );
    });

    test('upward: engine imports server', () => {
      expectViolations(
        { 'engine/merge.ts': "\n\nimport { buildApp } from '../server/index.ts';" },
        [{ at: 'engine/merge.ts:3', rule: 'direction', message: /^upward: engine imports server/ }],
      );
    });

    test('extract imports engine: extract is pure (engine and extract are siblings, so sideways)', () => {
      expectViolations(
        { 'extract/pdf/pdf.ts': "import type { Doc } from '../../engine/index.ts';" },
        [{ at: 'extract/pdf/pdf.ts:1', rule: 'direction', message: /^sideways: extract imports engine.*no other folder/ }],
      );
    });

    test('extract imports storage: extract is pure', () => {
      expectViolations(
        { 'extract/zip/crc.ts': "import { writeFileAtomic } from '../../storage/index.ts';" },
        [{ at: 'extract/zip/crc.ts:1', rule: 'direction', message: /^sideways: extract imports storage/ }],
      );
    });

    test('sideways: engine imports extract', () => {
      expectViolations(
        { 'engine/analysis/text.ts': "import { extract } from '../../extract/index.ts';" },
        [{ at: 'engine/analysis/text.ts:1', rule: 'direction', message: /^sideways: engine imports extract/ }],
      );
    });

    test('anything → cli: server imports cli', () => {
      expectViolations(
        { 'server/http/serve.ts': "import { main } from '../../cli/folio.ts';" },
        [{ at: 'server/http/serve.ts:1', rule: 'direction', message: /^anything → cli: server imports cli/ }],
      );
    });

    test('cli imports engine, skipping the server', () => {
      expectViolations(
        { 'cli/commands/search.ts': "import type { Doc } from '../../engine/index.ts';" },
        [{ at: 'cli/commands/search.ts:1', rule: 'direction', message: /^skips a layer: cli imports engine/ }],
      );
    });

    test('code importing something outside the source folders', () => {
      expectViolations(
        { 'server/config/version.ts': "import { zip } from '../../test/helpers/zip-writer.ts';" },
        [{ at: 'server/config/version.ts:1', rule: 'direction', message: /outside the source folders/ }],
      );
    });
  });

  describe('doors', () => {
    test('a deep import past engine/index.ts', () => {
      expectViolations(
        { 'server/http/search.ts': "import type { Doc } from '../../engine/document.ts';" },
        [{ at: 'server/http/search.ts:1', rule: 'door', message: /engine\/document\.ts past engine's door; import engine\/index\.ts/ }],
      );
    });

    test('an engine subfolder with an index.ts is entered through it, from a sibling and from engine/ itself', () => {
      expectViolations(
        {
          'engine/analysis/index.ts': "export { Analyzer } from './analyzer.ts';",
          'engine/analysis/analyzer.ts': 'export class Analyzer {}',
          'engine/search/searcher.ts': "import type { Analyzer } from '../analysis/analyzer.ts';\nimport { Analyzer as Door } from '../analysis/index.ts';",
          'engine/merge.ts': "import { Analyzer } from './analysis/analyzer.ts';",
          'engine/vectors/graph.ts': "import { walk } from '../search/walk.ts';",
          'engine/search/walk.ts': 'export const walk = 1;',
        },
        [
          { at: 'engine/merge.ts:1', rule: 'door', message: /engine\/merge\.ts imports engine\/analysis\/analyzer\.ts past engine\/analysis's door; import engine\/analysis\/index\.ts/ },
          { at: 'engine/search/searcher.ts:1', rule: 'door', message: /engine\/search imports engine\/analysis\/analyzer\.ts past engine\/analysis's door/ },
        ],
      );
    });

    test('a multi-line import is reported where it starts', () => {
      expectViolations(
        {
          'server/http/search.ts': [
            '// Search routes.',
            '',
            'import {',
            '  type Doc,',
            '  parseQuery,',
            "} from '../../engine/document.ts';",
          ].join('\n'),
        },
        [{ at: 'server/http/search.ts:3', rule: 'door' }],
      );
    });

    test('a dynamic import past a door', () => {
      expectViolations(
        {
          'server/pools/search-worker.ts':
            "export async function load() {\n  const reader = await import('../../engine/segment/reader.ts');\n  return reader;\n}",
        },
        [{ at: 'server/pools/search-worker.ts:2', rule: 'door', message: /engine\/segment\/reader\.ts/ }],
      );
    });

    test('export … from, export * from, side-effect imports and typeof import() past a door', () => {
      expectViolations(
        {
          'server/api/document.ts': [
            "export { type Doc } from '../../engine/document.ts';",
            "export * from '../../extract/pdf/pdf.ts';",
            "import '../../engine/analysis/register.ts';",
            "type Reader = typeof import('../../engine/segment/reader.ts');",
          ].join('\n'),
        },
        [
          { at: 'server/api/document.ts:1', rule: 'door' },
          { at: 'server/api/document.ts:2', rule: 'door', message: /past extract's door/ },
          { at: 'server/api/document.ts:3', rule: 'door' },
          { at: 'server/api/document.ts:4', rule: 'door' },
        ],
      );
    });

    test('the CLI enters clients/ through clients/typescript/index.ts and server/ through server/index.ts', () => {
      expectViolations(
        {
          'cli/connect.ts': [
            "import { FolioClient } from '../clients/typescript/transport.ts';",
            "import { buildApp } from '../server/http/index.ts';",
            "import { buildApp as build } from '../server/index.ts';",
          ].join('\n'),
        },
        [
          { at: 'cli/connect.ts:1', rule: 'door', message: /import clients\/typescript\/index\.ts/ },
          { at: 'cli/connect.ts:2', rule: 'door', message: /import server\/index\.ts/ },
        ],
      );
    });

    test('a door written as .js or as the folder itself is still the door', () => {
      expectViolations(
        { 'server/http/search.ts': "import type { Doc } from '../../engine/index.js';\nimport { extract } from '../../extract';" },
        [],
      );
    });
  });

  describe('rooms inside server/', () => {
    test('a deep room import: server/http → server/indexing/collection.ts', () => {
      expectViolations(
        { 'server/http/routes/documents.ts': "import { type Settings } from '../../config/index.ts';\nimport { openRegistry } from '../../indexing/collection.ts';" },
        [
          {
            at: 'server/http/routes/documents.ts:2',
            rule: 'room',
            message: /room http imports server\/indexing\/collection\.ts past room indexing's door; import server\/indexing\/index\.ts/,
          },
        ],
      );
    });

    test('rooms come from the directories: a new room is guarded too, and re-exports count', () => {
      expectViolations(
        {
          'server/search/planner.ts': 'export const plan = 1;',
          'server/http/index.ts': "export { buildApp } from './app.ts';\nexport { plan } from '../search/planner.ts';",
        },
        [{ at: 'server/http/index.ts:2', rule: 'room', message: /past room search's door/ }],
      );
    });

    test("a worker door: pools may use api's search-wire.ts; another room may not, nor may the door load server code", () => {
      expectViolations(
        {
          'server/api/search-wire.ts': "import type { SearchHitSchema } from './search.ts';\nimport { FolioError } from '../errors/index.ts';",
          'server/pools/search-page.ts': "import { searchResultMembers } from '../api/search-wire.ts';",
          'server/indexing/collection.ts': "import { searchResultMembers } from '../api/search-wire.ts';",
        },
        [
          { at: 'server/api/search-wire.ts:2', rule: 'door', message: /a door for workers, imports server\/errors\/index\.ts at runtime/ },
          { at: 'server/indexing/collection.ts:1', rule: 'room', message: /room indexing imports server\/api\/search-wire\.ts, room api's door for pools's workers/ },
        ],
      );
    });

    test("the dashboard takes the generated API types, as types only, and nothing else of the client", () => {
      expectViolations(
        {
          'web/src/pages/keys.ts': "import type { ApiKey } from '../../../clients/typescript/api-types.ts';\nimport { ApiError } from '../../../clients/typescript/api-types.ts';\nimport type { FolioClient } from '../../../clients/typescript/index.ts';",
        },
        [
          { at: 'web/src/pages/keys.ts:2', rule: 'direction', message: /web imports clients/ },
          { at: 'web/src/pages/keys.ts:3', rule: 'direction', message: /web imports clients/ },
        ],
      );
    });

    test("a room importing server/index.ts is upward", () => {
      expectViolations(
        { 'server/webhooks/dispatcher.ts': "import type { Settings } from '../index.ts';" },
        [{ at: 'server/webhooks/dispatcher.ts:1', rule: 'room', message: /^upward: room webhooks imports server\/index\.ts/ }],
      );
    });

    test('server/index.ts enters rooms only through their index.ts', () => {
      expectViolations(
        { 'server/index.ts': "export { buildApp } from './http/app.ts';\nexport type { Settings } from './config/index.ts';" },
        [{ at: 'server/index.ts:1', rule: 'room', message: /^server\/index\.ts imports server\/http\/app\.ts past room http's door/ }],
      );
    });

    test('a cycle between rooms is reported once, with the imports that close it', () => {
      const violations = expectViolations(
        {
          'server/auth/keys.ts': "import { notify } from '../webhooks/index.ts';\nexport const saveKeys = notify;",
          'server/webhooks/index.ts': "export { notify } from './notify.ts';",
          'server/webhooks/notify.ts': "import type { Settings } from '../config/index.ts';\nimport { saveKeys } from '../auth/index.ts';\nexport const notify = saveKeys;",
        },
        [{ at: 'server/auth/keys.ts:1', rule: 'room-cycle', message: /auth → webhooks → auth/ }],
      );
      assert.match(violations[0]!.message, /server\/webhooks\/notify\.ts:2 imports \.\.\/auth\/index\.ts/);
    });

    test('a longer cycle, even one closed by a type-only import', () => {
      expectViolations(
        {
          'server/auth/keys.ts': "import { notify } from '../webhooks/index.ts';\nexport const saveKeys = notify;",
          'server/webhooks/index.ts': "import { openRegistry } from '../indexing/index.ts';\nexport const notify = openRegistry;",
          'server/indexing/types.ts': "import type { saveKeys } from '../auth/index.ts';",
        },
        [{ at: 'server/auth/keys.ts:1', rule: 'room-cycle', message: /auth → webhooks → indexing → auth.*\[types only\]/ }],
      );
    });

    test("engine's subfolders import each other without a cycle (search may use vectors, not the reverse)", () => {
      expectViolations(
        {
          'engine/search/searcher.ts': "import { walk } from '../vectors/walk.ts';\nexport const search = walk;",
          'engine/vectors/walk.ts': "import type { SegmentView } from '../search/segment-view.ts';\nexport const walk = 1;",
          'engine/vectors/walk.test.ts': "import { search } from '../search/searcher.ts';",
        },
        [{ at: 'engine/search/searcher.ts:1', rule: 'engine-cycle', message: /engine's subfolders import each other in a cycle: search → vectors → search/ }],
      );
    });

    test("engine's files import each other without a cycle, type-only imports included", () => {
      expectViolations(
        {
          'engine/search/search-types.ts': "import type { FieldWeights } from './bm25.ts';\nexport interface SearchRequest { weights: FieldWeights }",
          'engine/search/bm25.ts': "import type { SearchRequest } from './search-types.ts';\nexport interface FieldWeights { title: number }",
          'engine/search/bm25.test.ts': "import type { SearchRequest } from './search-types.ts';",
        },
        [
          {
            at: 'engine/search/bm25.ts:1',
            rule: 'engine-file-cycle',
            message: /engine's files import each other in a cycle: engine\/search\/bm25 → engine\/search\/search-types → engine\/search\/bm25;.*\[types only\]/,
          },
        ],
      );
    });
  });

  describe("storage's write path", () => {
    test('the write-path names are what the four files export, re-exports included', () => {
      const texts = new Map(Object.entries(CLEAN));
      const names = new Set(STORAGE_WRITE_PATH_FILES.flatMap((file) => [...exportedNames(file, texts)]));
      assert.deepEqual(
        [...names].sort(),
        [
          'BITMAP_SECTION',
          'FIRST_WAL_GENERATION',
          'Manifest',
          'RoaringBitmap32',
          'WAL_FRAME_HEADER_BYTES',
          'WalStats',
          'WriteAheadLog',
          'encodeWalFrame',
          'loadManifest',
          'readBitmapFile',
        ],
      );
    });

    test('a write-path name imported in server/auth, reported at the name', () => {
      expectViolations(
        {
          'server/auth/keys.ts': [
            'import {',
            '  PRIVATE_FILE_MODE,',
            '  readBitmapFile,',
            '  writeFileAtomic,',
            "} from '../../storage/index.ts';",
            "import type { Manifest, WalStats as Stats } from '../../storage/index.ts';",
            "export { loadManifest, WAL_FRAME_HEADER_BYTES, BITMAP_SECTION } from '../../storage/index.ts';",
          ].join('\n'),
        },
        [
          { at: 'server/auth/keys.ts:3', rule: 'write-path', message: /server\/auth imports readBitmapFile \(from storage\/roaring\.ts\)/ },
          { at: 'server/auth/keys.ts:6', rule: 'write-path', message: /Manifest \(from storage\/manifest\.ts\)/ },
          { at: 'server/auth/keys.ts:6', rule: 'write-path', message: /WalStats \(from storage\/wal\.ts\)/ },
          { at: 'server/auth/keys.ts:7', rule: 'write-path' },
          { at: 'server/auth/keys.ts:7', rule: 'write-path' },
          { at: 'server/auth/keys.ts:7', rule: 'write-path' },
        ],
      );
    });

    test('a namespace, export * or dynamic import of storage outside indexing', () => {
      expectViolations(
        {
          'server/webhooks/outbox.ts': [
            "import * as storage from '../../storage/index.ts';",
            "export * from '../../storage/index.ts';",
            "const later = () => import('../../storage/index.ts');",
          ].join('\n'),
        },
        [
          { at: 'server/webhooks/outbox.ts:1', rule: 'write-path', message: /namespace import/ },
          { at: 'server/webhooks/outbox.ts:2', rule: 'write-path' },
          { at: 'server/webhooks/outbox.ts:3', rule: 'write-path', message: /dynamic import/ },
        ],
      );
    });

    test('importing a write-path file directly breaks the door rule too; indexing and cluster may use the names', () => {
      expectViolations(
        {
          'server/pools/reader-cache.ts': "import { readBitmapFile } from '../../storage/roaring.ts';",
          'server/indexing/commit.ts': "import { writeManifest } from '../../storage/manifest.ts';",
          'server/cluster/catalog.ts': "import { WriteAheadLog, type Manifest } from '../../storage/index.ts';",
        },
        [
          { at: 'server/pools/reader-cache.ts:1', rule: 'door' },
          { at: 'server/pools/reader-cache.ts:1', rule: 'write-path', message: /server\/pools imports readBitmapFile/ },
          { at: 'server/indexing/commit.ts:1', rule: 'door' },
        ],
      );
    });
  });

  test('module references: every kind of import is found, with its line', () => {
    const references = findModuleReferences(
      'server/x.ts',
      [
        "import a from './a.ts';",
        "import type { B } from './b.ts';",
        "import './c.ts';",
        "export { d } from './d.ts';",
        "export * from './e.ts';",
        "const f = await import('./f.ts');",
        "type G = typeof import('./g.ts');",
        "const url = new URL('./h.ts', import.meta.url);",
        "const name = './i.ts'; await import(name);",
        "import fastify from 'fastify';",
      ].join('\n'),
    );
    assert.deepEqual(
      references.map((r) => `${r.line} ${r.kind} ${r.specifier}${r.typeOnly ? ' (types)' : ''}`),
      [
        '1 import ./a.ts',
        '2 import ./b.ts (types)',
        '3 import ./c.ts',
        '4 export-from ./d.ts',
        '5 export-from ./e.ts',
        '6 dynamic ./f.ts',
        '7 import-type ./g.ts (types)',
        '10 import fastify',
      ],
    );
  });
});
