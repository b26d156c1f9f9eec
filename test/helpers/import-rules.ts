// The import rules of docs/architecture.md ("Folders and who may import whom") as a pure checker: give it
// source files as { file, text } (paths relative to the repository root, with forward slashes)
// and it returns every broken rule as { file, line, rule, message }. It reads no disk, so
// test/import-rules.test.ts can run it over the real tree and also feed it small synthetic
// files to show each rule failing. Imports are parsed with the TypeScript compiler API.
//
// Not for: packages (only relative imports are checked), `new URL('./x.ts', import.meta.url)`
// worker paths, dynamic imports of computed strings. Test files (`*.test.ts`) and everything
// outside the source folders (test/, benchmarks/, scripts/…) are exempt: a test may import
// anything.

import path from 'node:path';
import ts from 'typescript';

/** One broken rule at one place. `line` is 1-based. */
export interface ImportViolation {
  file: string;
  line: number;
  rule: ImportRule;
  message: string;
}

export type ImportRule = 'direction' | 'door' | 'room' | 'write-path' | 'room-cycle' | 'engine-cycle' | 'engine-file-cycle';

export interface SourceText {
  /** Path relative to the repository root, e.g. `server/http/app.ts`. */
  file: string;
  text: string;
}

/** The top-level folders whose code the rules govern. */
export const SOURCE_FOLDERS = ['storage', 'engine', 'extract', 'server', 'cli', 'clients', 'web', 'format'] as const;
type SourceFolder = (typeof SOURCE_FOLDERS)[number];

/** Which other top-level folders each folder may import (all of docs/architecture.md's arrows, nothing more). */
export const ALLOWED_IMPORTS: Readonly<Record<SourceFolder, readonly SourceFolder[]>> = {
  cli: ['clients', 'server', 'format'],
  server: ['engine', 'storage', 'extract'],
  engine: ['storage'],
  extract: [],
  clients: [],
  storage: [],
  // The dashboard talks to the server over HTTP only.
  web: ['format'],
  // What the CLI and the dashboard show people alike (sizes, times): plain functions.
  format: [],
};

/** The one file through which code outside a folder enters it. */
export const FOLDER_DOORS: Readonly<Record<SourceFolder, string>> = {
  storage: 'storage/index.ts',
  engine: 'engine/index.ts',
  extract: 'extract/index.ts',
  server: 'server/index.ts',
  cli: 'cli/index.ts',
  clients: 'clients/typescript/index.ts',
  web: 'web/src/main.ts',
  format: 'format/index.ts',
};

/**
 * Types a folder may take from a folder it may not import: the dashboard uses the API's types
 * generated for the TypeScript client (it still talks to the server over HTTP only). Type-only
 * imports of exactly this file; nothing runs from it.
 */
export const TYPE_ONLY_IMPORTS: Readonly<Partial<Record<SourceFolder, string>>> = {
  web: 'clients/typescript/api-types.ts',
};

/** Storage's write path: every name these files export is for server/indexing/ (and cluster/) only. */
export const STORAGE_WRITE_PATH_FILES = [
  'storage/wal.ts',
  'storage/wal-frame.ts',
  'storage/manifest.ts',
  'storage/roaring.ts',
] as const;

/**
 * A room's second door, for worker threads only: a file a worker may import instead of the
 * room's index.ts because that index loads far more than a worker needs (server/api/index.ts
 * builds every TypeBox schema: about 150 ms and 20 MB per thread). Such a door imports nothing
 * from server/ at runtime (types only), and only the workers' room may use it.
 */
export const WORKER_DOORS: Readonly<Record<string, { room: string; for: string }>> = {
  'server/api/search-wire.ts': { room: 'api', for: 'pools' },
};

/** The server rooms that may use storage's write path. */
export const WRITE_PATH_ROOMS = ['indexing', 'cluster'] as const;

/** File names the checker reads as source; anything else is ignored. */
const SOURCE_EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs'];
/** Folders never scanned, at any depth. */
const SKIPPED_SEGMENTS = new Set(['node_modules', 'dist', 'fixtures']);

/** True for files the rules do not apply to: tests (and the worker modules only tests start, `*.test-worker.ts`) and anything outside the source folders. */
export function isExempt(file: string): boolean {
  if (/\.test(-worker)?\.[cm]?[jt]sx?$/.test(file)) return true;
  const segments = file.split('/');
  if (!(SOURCE_FOLDERS as readonly string[]).includes(segments[0]!)) return true;
  return segments.some((segment) => SKIPPED_SEGMENTS.has(segment));
}

/** True for files the checker parses at all. */
export function isSourceFile(file: string): boolean {
  return SOURCE_EXTENSIONS.some((extension) => file.endsWith(extension));
}

// ---------------------------------------------------------------------------------------------
// Parsing

/** A name brought in by an import or re-export, under its name in the imported module. */
interface ImportedName {
  name: string;
  line: number;
}

/** One module reference found in a file. */
export interface ModuleReference {
  line: number;
  specifier: string;
  kind: 'import' | 'export-from' | 'dynamic' | 'import-type' | 'import-equals';
  /** Named bindings; `null` when the whole module is taken (namespace, `export *`, dynamic). */
  names: ImportedName[] | null;
  /** True when only types come through (`import type`, `export type`, `typeof import(…)`). */
  typeOnly: boolean;
}

function scriptKind(file: string): ts.ScriptKind {
  if (/\.[cm]?js$/.test(file)) return ts.ScriptKind.JS;
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  return ts.ScriptKind.TS;
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

function stringValue(node: ts.Node | undefined): string | null {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  return null;
}

/**
 * Every module a file refers to: `import … from`, `import type`, side-effect imports,
 * `export … from`, `export * from`, `import('…')` with a literal, `typeof import('…')` and
 * `import x = require('…')`. Lines are where the statement (or call) starts; named bindings
 * carry their own lines.
 */
export function findModuleReferences(file: string, text: string): ModuleReference[] {
  const source = parse(file, text);
  const found: ModuleReference[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const specifier = stringValue(node.moduleSpecifier);
      if (specifier !== null) {
        const clause = node.importClause;
        let names: ImportedName[] | null = [];
        if (clause?.name) names.push({ name: 'default', line: lineOf(source, clause.name) });
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names = null;
        else if (bindings) {
          for (const element of bindings.elements) {
            names.push({ name: (element.propertyName ?? element.name).text, line: lineOf(source, element) });
          }
        }
        const typeOnly =
          clause !== undefined &&
          (clause.isTypeOnly ||
            (clause.name === undefined &&
              bindings !== undefined &&
              ts.isNamedImports(bindings) &&
              bindings.elements.length > 0 &&
              bindings.elements.every((element) => element.isTypeOnly)));
        found.push({ line: lineOf(source, node), specifier, kind: 'import', names, typeOnly });
      }
    } else if (ts.isExportDeclaration(node)) {
      const specifier = stringValue(node.moduleSpecifier);
      if (specifier !== null) {
        let names: ImportedName[] | null = null;
        let typeOnly = node.isTypeOnly;
        if (node.exportClause && ts.isNamedExports(node.exportClause)) {
          const elements = node.exportClause.elements;
          names = elements.map((element) => ({
            name: (element.propertyName ?? element.name).text,
            line: lineOf(source, element),
          }));
          typeOnly ||= elements.length > 0 && elements.every((element) => element.isTypeOnly);
        }
        found.push({ line: lineOf(source, node), specifier, kind: 'export-from', names, typeOnly });
      }
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const specifier = stringValue(node.moduleReference.expression);
      if (specifier !== null) found.push({
          line: lineOf(source, node),
          specifier,
          kind: 'import-equals',
          names: null,
          typeOnly: node.isTypeOnly,
        });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const specifier = stringValue(node.arguments[0]);
      if (specifier !== null) found.push({ line: lineOf(source, node), specifier, kind: 'dynamic', names: null, typeOnly: false });
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      const specifier = ts.isLiteralTypeNode(argument) ? stringValue(argument.literal) : null;
      if (specifier !== null) {
        const qualifier = node.qualifier;
        const names = qualifier
          ? [{ name: ts.isIdentifier(qualifier) ? qualifier.text : leftmost(qualifier), line: lineOf(source, node) }]
          : null;
        found.push({ line: lineOf(source, node), specifier, kind: 'import-type', names, typeOnly: true });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function leftmost(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : leftmost(name.left);
}

function hasExportModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  const names: string[] = [];
  for (const element of name.elements) {
    if (ts.isBindingElement(element)) names.push(...bindingNames(element.name));
  }
  return names;
}

/**
 * The names a module exports: exported functions, classes, consts, types, interfaces, enums,
 * namespaces, `export { … }` lists and `export … from` re-exports. `export * from './x.ts'` is
 * followed through `files` when the target is there. A default export is not counted.
 */
export function exportedNames(file: string, files: ReadonlyMap<string, string>, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  const text = files.get(file);
  if (text === undefined || seen.has(file)) return names;
  seen.add(file);
  const source = parse(file, text);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.add(element.name.text);
      } else if (clause && ts.isNamespaceExport(clause)) {
        names.add(clause.name.text);
      } else {
        const specifier = stringValue(statement.moduleSpecifier);
        const target = specifier === null ? null : resolveSpecifier(file, specifier);
        if (target !== null) {
          const targetFile = [...files.keys()].find((candidate) => canonical(candidate) === canonical(target));
          if (targetFile) for (const name of exportedNames(targetFile, files, seen)) names.add(name);
        }
      }
      continue;
    }
    if (!hasExportModifier(statement)) continue;
    const isDefault = (ts.getModifiers(statement as ts.HasModifiers) ?? []).some(
      (m) => m.kind === ts.SyntaxKind.DefaultKeyword,
    );
    if (isDefault) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        for (const name of bindingNames(declaration.name)) names.add(name);
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name &&
      ts.isIdentifier(statement.name)
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Paths

/** The repository-relative path a relative specifier points at, or null for packages and paths leaving the repository. */
export function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') {
    return null;
  }
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  if (resolved === '..' || resolved.startsWith('../')) return null;
  return resolved;
}

/** A path without its script extension, and `x/index` for `x/index.ts`, so `./x.js` and `./x.ts` compare equal. */
function canonical(file: string): string {
  return file.replace(/\.(d\.)?([cm]?[jt]sx?)$/, '');
}

/** True when `target` is the door `door` (`x/index.ts`), written as `x/index.ts`, `x/index.js`, `x/index` or `x`. */
function isDoor(target: string, door: string): boolean {
  const wanted = canonical(door);
  const got = canonical(target);
  return got === wanted || (wanted.endsWith('/index') && got === wanted.slice(0, -'/index'.length));
}

function topFolder(file: string): string {
  return file.split('/')[0]!;
}

function isSourceFolder(folder: string): folder is SourceFolder {
  return (SOURCE_FOLDERS as readonly string[]).includes(folder);
}

/** The engine subfolder an engine file sits in (`engine/search/bm25.ts` → `search`), or null for files directly in engine/. */
function engineFolderOf(file: string): string | null {
  const segments = file.split('/');
  return segments[0] === 'engine' && segments.length > 2 ? segments[1]! : null;
}

/** The server room a server file sits in (`server/http/app.ts` → `http`), or null for files directly in server/. */
function roomOf(file: string): string | null {
  const segments = file.split('/');
  return segments[0] === 'server' && segments.length > 2 ? segments[1]! : null;
}

/** True when `to` can be reached from `from` by following allowed edges (one or more). */
function reaches(from: SourceFolder, to: SourceFolder): boolean {
  const stack: SourceFolder[] = [...ALLOWED_IMPORTS[from]];
  const seen = new Set<SourceFolder>();
  while (stack.length > 0) {
    const folder = stack.pop()!;
    if (folder === to) return true;
    if (seen.has(folder)) continue;
    seen.add(folder);
    stack.push(...ALLOWED_IMPORTS[folder]);
  }
  return false;
}

function allowedList(folder: SourceFolder): string {
  const allowed = ALLOWED_IMPORTS[folder];
  return allowed.length === 0 ? `${folder}/ may import no other folder` : `${folder}/ may import only ${allowed.join(', ')}`;
}

/** Names the way an edge between top-level folders breaks the direction rule. */
function directionMessage(from: SourceFolder, to: SourceFolder, target: string): string {
  let kind: string;
  if (to === 'cli') kind = 'anything → cli';
  else if (reaches(to, from)) kind = 'upward';
  else if (reaches(from, to)) kind = 'skips a layer';
  else kind = 'sideways';
  return `${kind}: ${from} imports ${to} (${target}); ${allowedList(from)}`;
}

// ---------------------------------------------------------------------------------------------
// The rules

/** How a reference takes a whole module, for messages. */
const WHOLE_MODULE_KINDS: Record<ModuleReference['kind'], string> = {
  import: 'namespace import',
  'export-from': 'export *',
  dynamic: 'dynamic import',
  'import-type': 'typeof import()',
  'import-equals': 'import = require()',
};

interface Edge {
  file: string;
  line: number;
  specifier: string;
  target: string;
  reference: ModuleReference;
}

/**
 * Checks every rule over `files` and returns the violations, sorted by file and line:
 * 1. direction: only the edges in ALLOWED_IMPORTS between top-level folders;
 * 2. door: another folder is entered only through its FOLDER_DOORS file (not checked when the
 *    edge already breaks the direction rule: that import has to go, not move);
 * 3. room: inside server/, a room enters another room only through its index.ts, and never
 *    imports the files directly in server/ (server/index.ts is the door for outside code);
 * 4. write-path: server code outside WRITE_PATH_ROOMS imports none of the names exported by
 *    STORAGE_WRITE_PATH_FILES, and takes no whole-module (namespace, `export *`, dynamic) import of
 *    storage;
 * 5. room-cycle: the graph of imports between server rooms has no cycle;
 *    Likewise an engine subfolder that has an index.ts is entered only through it;
 * 6. engine-cycle: nor has the graph of imports between engine's subfolders (`search/` may use
 *    `vectors/`, so `vectors/` may not use `search/`);
 * 7. engine-file-cycle: nor the graph of imports between engine's files, type-only imports
 *    included (a search is layered: the query is prepared, then clauses, scorers, collectors and
 *    hits, and no stage reaches back up). Test files are exempt, as everywhere.
 */
export function checkImportRules(files: readonly SourceText[]): ImportViolation[] {
  const sources = files.filter((source) => isSourceFile(source.file));
  const texts = new Map(sources.map((source) => [source.file, source.text]));
  const violations: ImportViolation[] = [];

  const writePathNames = new Map<string, string>();
  for (const writePathFile of STORAGE_WRITE_PATH_FILES) {
    for (const name of exportedNames(writePathFile, texts)) {
      if (!writePathNames.has(name)) writePathNames.set(name, writePathFile);
    }
  }

  const edges: Edge[] = [];
  for (const source of sources) {
    if (isExempt(source.file)) continue;
    for (const reference of findModuleReferences(source.file, source.text)) {
      const target = resolveSpecifier(source.file, reference.specifier);
      if (target === null) continue;
      edges.push({ file: source.file, line: reference.line, specifier: reference.specifier, target, reference });
    }
  }

  const roomEdges: Edge[] = [];
  const engineEdges: Edge[] = [];
  const engineFileEdges: Edge[] = [];
  for (const edge of edges) {
    const from = topFolder(edge.file) as SourceFolder;
    const to = topFolder(edge.target);
    const at = { file: edge.file, line: edge.line };

    const typesFile = TYPE_ONLY_IMPORTS[from];
    if (typesFile !== undefined && edge.reference.typeOnly && canonical(edge.target) === canonical(typesFile)) continue;
    if (from !== to) {
      if (!isSourceFolder(to)) {
        const message = `imports ${edge.target}, outside the source folders; ${allowedList(from)}`;
        violations.push({ ...at, rule: 'direction', message });
        continue;
      }
      if (!ALLOWED_IMPORTS[from].includes(to)) {
        violations.push({ ...at, rule: 'direction', message: directionMessage(from, to, edge.target) });
        continue;
      }
      if (!isDoor(edge.target, FOLDER_DOORS[to])) {
        violations.push({
          ...at,
          rule: 'door',
          message: `${from} imports ${edge.target} past ${to}'s door; import ${FOLDER_DOORS[to]}`,
        });
      }
    } else if (from === 'engine') {
      const fromFolder = engineFolderOf(edge.file);
      const toFolder = engineFolderOf(edge.target);
      if (fromFolder !== null && toFolder !== null && fromFolder !== toFolder) engineEdges.push(edge);
      if (to === 'engine') engineFileEdges.push(edge);
      // An engine subfolder with an index.ts is entered through it, from its siblings and engine/'s own files.
      const toDoor = toFolder === null ? null : `engine/${toFolder}/index.ts`;
      if (toDoor !== null && fromFolder !== toFolder && texts.has(toDoor) && !isDoor(edge.target, toDoor)) {
        violations.push({
          ...at,
          rule: 'door',
          message: `${fromFolder === null ? edge.file : `engine/${fromFolder}`} imports ${edge.target} past engine/${toFolder}'s door; import ${toDoor}`,
        });
      }
    } else if (from === 'server') {
      const fromRoom = roomOf(edge.file);
      const toRoom = roomOf(edge.target);
      if (fromRoom !== null && toRoom === null) {
        violations.push({
          ...at,
          rule: 'room',
          message: `upward: room ${fromRoom} imports ${edge.target}; server/index.ts is the door for code outside server/`,
        });
      } else if (toRoom !== null && toRoom !== fromRoom) {
        const workerDoor = Object.entries(WORKER_DOORS).find(([door, { room }]) => room === toRoom && isDoor(edge.target, door));
        if (workerDoor !== undefined && workerDoor[1].for !== fromRoom) {
          violations.push({
            ...at,
            rule: 'room',
            message: `${fromRoom === null ? edge.file : `room ${fromRoom}`} imports ${edge.target}, room ${toRoom}'s door for ${workerDoor[1].for}'s workers; import server/${toRoom}/index.ts`,
          });
        } else if (workerDoor === undefined && !isDoor(edge.target, `server/${toRoom}/index.ts`)) {
          const who = fromRoom === null ? edge.file : `room ${fromRoom}`;
          violations.push({
            ...at,
            rule: 'room',
            message: `${who} imports ${edge.target} past room ${toRoom}'s door; import server/${toRoom}/index.ts`,
          });
        }
        if (fromRoom !== null) roomEdges.push(edge);
      }
    }

    const doorOf = Object.keys(WORKER_DOORS).find((door) => canonical(door) === canonical(edge.file));
    if (doorOf !== undefined && !edge.reference.typeOnly && edge.target.startsWith('server/')) {
      violations.push({ ...at, rule: 'door', message: `${edge.file}, a door for workers, imports ${edge.target} at runtime; it may import types only from server/` });
    }

    if (from === 'server' && to === 'storage') {
      const room = roomOf(edge.file);
      if (room !== null && (WRITE_PATH_ROOMS as readonly string[]).includes(room)) continue;
      const where = room === null ? edge.file : `server/${room}`;
      const targetCanonical = canonical(edge.target);
      const directWritePathFile = STORAGE_WRITE_PATH_FILES.find((f) => canonical(f) === targetCanonical);
      const names = edge.reference.names;
      if (names === null) {
        if (directWritePathFile || isDoor(edge.target, FOLDER_DOORS.storage)) {
          const how = WHOLE_MODULE_KINDS[edge.reference.kind];
          violations.push({
            ...at,
            rule: 'write-path',
            message:
              `${where} takes all of ${edge.target} (${how}), storage's write path included; ` +
              'import the names it needs (only server/indexing/ and server/cluster/ may use the write path)',
          });
        }
        continue;
      }
      for (const { name, line } of names) {
        const viaDoor = isDoor(edge.target, FOLDER_DOORS.storage);
        const owner = directWritePathFile ?? (viaDoor ? writePathNames.get(name) : undefined);
        if (owner === undefined) continue;
        violations.push({
          file: edge.file,
          line,
          rule: 'write-path',
          message: `${where} imports ${name} (from ${owner}), storage's write path; only server/indexing/ (and cluster/) may`,
        });
      }
    }
  }

  violations.push(...findCycles(roomEdges, roomOf, 'room-cycle', 'rooms'));
  violations.push(...findCycles(engineEdges, engineFolderOf, 'engine-cycle', "engine's subfolders"));
  violations.push(...findCycles(engineFileEdges, canonical, 'engine-file-cycle', "engine's files"));
  return violations.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

/**
 * One violation per tangle (strongly connected group) of units — server rooms, engine
 * subfolders, engine files; `unitOf` names a file's — naming one cycle and the imports making it.
 */
function findCycles(unitEdges: readonly Edge[], unitOf: (file: string) => string | null, rule: 'room-cycle' | 'engine-cycle' | 'engine-file-cycle', units: string): ImportViolation[] {
  const graph = new Map<string, Map<string, Edge[]>>();
  for (const edge of unitEdges) {
    const from = unitOf(edge.file)!;
    const to = unitOf(edge.target)!;
    if (!graph.has(from)) graph.set(from, new Map());
    if (!graph.has(to)) graph.set(to, new Map());
    const out = graph.get(from)!;
    if (!out.has(to)) out.set(to, []);
    out.get(to)!.push(edge);
  }

  // Tarjan's strongly connected components, rooms visited in name order for stable output.
  const rooms = [...graph.keys()].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const connect = (room: string): void => {
    index.set(room, counter);
    low.set(room, counter);
    counter += 1;
    stack.push(room);
    onStack.add(room);
    for (const next of [...graph.get(room)!.keys()].sort()) {
      if (!index.has(next)) {
        connect(next);
        low.set(room, Math.min(low.get(room)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(room, Math.min(low.get(room)!, index.get(next)!));
      }
    }
    if (low.get(room) === index.get(room)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== room);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const room of rooms) if (!index.has(room)) connect(room);

  return components.map((component) => {
    const members = new Set(component);
    const start = component[0]!;
    // Shortest way back to `start` inside the component (breadth first).
    const previous = new Map<string, string>();
    const queue = [start];
    let closing: string | null = null;
    while (queue.length > 0 && closing === null) {
      const room = queue.shift()!;
      for (const next of [...graph.get(room)!.keys()].sort()) {
        if (!members.has(next)) continue;
        if (next === start) {
          closing = room;
          break;
        }
        if (!previous.has(next)) {
          previous.set(next, room);
          queue.push(next);
        }
      }
    }
    const cycle = [start];
    for (let room = closing!; room !== start; room = previous.get(room)!) cycle.splice(1, 0, room);
    cycle.push(start);
    const steps = cycle.slice(0, -1).map((room, i) => graph.get(room)!.get(cycle[i + 1]!)!);
    const others = component.length > cycle.length - 1 ? ` (${units} in this tangle: ${component.join(', ')})` : '';
    const describe = (edges: Edge[]): string => {
      const first = edges[0]!;
      const more = edges.length > 1 ? ` (+${edges.length - 1} more)` : '';
      const types = edges.every((edge) => edge.reference.typeOnly) ? ' [types only]' : '';
      return `${first.file}:${first.line} imports ${first.specifier}${types}${more}`;
    };
    return {
      file: steps[0]![0]!.file,
      line: steps[0]![0]!.line,
      rule,
      message: `${units} import each other in a cycle: ${cycle.join(' → ')}${others}; ${steps.map(describe).join('; ')}`,
    };
  });
}

/** `file:line [rule] message`, one per line, for a test failure. */
export function formatViolations(violations: readonly ImportViolation[]): string {
  return violations.map((v) => `${v.file}:${v.line} [${v.rule}] ${v.message}`).join('\n');
}
