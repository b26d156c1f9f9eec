// The `folio` command (README.md, "Command line"): `serve` runs the server (defined here); auth, config,
// keys, collections, index, documents, search, stats, webhooks and models talk to one through
// the TypeScript client, one command group per file in cli/commands/. `npm start` runs `folio serve`, and
// `npm start -- --port 7711 --data ./x` passes flags through. For serve, flags win over
// FOLIO_* environment variables, which win over defaults, so no flag has a commander default
// here. A usage error (unknown command or option, bad value) exits with status 2.

import { isAbsolute, relative } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
// server/index.ts loads the server itself only when `serve` starts one, so the client
// commands start quickly.
import { ConfigError, FOLIO_VERSION, resolveConfig, startServer } from '../server/index.ts';
import type { ConfigFlags } from '../server/index.ts';
import { registerAuth } from './commands/auth.ts';
import { registerCheck } from './commands/check.ts';
import { registerSnapshots } from './commands/snapshot.ts';
import { registerCollections } from './commands/collections.ts';
import { registerConfig } from './commands/config.ts';
import { registerDocuments } from './commands/documents.ts';
import { registerFacets } from './commands/facets.ts';
import { registerIndex } from './commands/index-files.ts';
import { registerKeys } from './commands/keys.ts';
import { registerModels } from './commands/models.ts';
import { registerOcr } from './commands/ocr.ts';
import { registerSearch } from './commands/search.ts';
import { registerStats } from './commands/stats.ts';
import { registerWebhooks } from './commands/webhooks.ts';
import { EXIT_FAILURE, EXIT_USAGE } from './errors.ts';

function portArgument(value: string): string {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a port number (0 picks a free port)');
  return value;
}

/** What to do once the server runs: the dashboard's URL, or log the CLI in (which makes an admin key), then a first collection. */
function nextSteps(url: string, masterKeyFile: string | null): string {
  const login = masterKeyFile === null ? `folio auth login --url ${url}     (it asks for FOLIO_MASTER_KEY)` : `folio auth login --url ${url} < ${relativeToHere(masterKeyFile)}`;
  return [
    '',
    `Dashboard: open ${url}/ in a browser and sign in with the master key${masterKeyFile === null ? ' (FOLIO_MASTER_KEY)' : ` (in ${relativeToHere(masterKeyFile)})`}.`,
    '',
    'Or from the command line, in another terminal:',
    `  ${login}`,
    '  folio collections create notes',
    '  folio index notes ./some-folder --refresh',
    "  folio search notes 'words to find'",
    '',
  ].join('\n') + '\n';
}

/** `path` relative to the working directory when it is inside it (shorter to copy). */
function relativeToHere(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

async function serve(flags: ConfigFlags): Promise<void> {
  let config;
  try {
    config = resolveConfig(flags);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`folio: ${error.message}\n`);
    process.exit(EXIT_USAGE);
  }
  try {
    const server = await startServer(config);
    process.stdout.write(`Folio listening on ${server.url}\n${nextSteps(server.url, server.masterKeyFile)}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`folio: could not start the server: ${message}\n`);
    process.exit(EXIT_FAILURE);
  }
}

const program = new Command('folio')
  .description('Folio: a self-hosted document search server')
  .version(FOLIO_VERSION)
  // Subcommands inherit these: usage errors read `folio: usage: …` and exit with 2.
  .configureOutput({ outputError: (message, write) => write(`folio: usage: ${message.replace(/^error: /, '')}`) })
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT_USAGE));

program
  .command('serve')
  .description('start the HTTP server')
  .option('-p, --port <port>', 'port to listen on; 0 picks a free port (env FOLIO_PORT, default 7700)', portArgument)
  .option('--host <host>', 'address to bind (env FOLIO_HOST, default 127.0.0.1; 0.0.0.0 for every interface)')
  .option('-d, --data <dir>', 'data directory (env FOLIO_DATA_DIR, default ./folio-data)')
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (env FOLIO_LOG_LEVEL, default info)')
  .option('--log-format <format>', 'pretty (lines for people) or json (env FOLIO_LOG_FORMAT, default pretty on a terminal, else json)')
  .option('--allow-private-webhooks', 'let webhooks reach loopback and private addresses (env FOLIO_ALLOW_PRIVATE_WEBHOOKS)')
  .option('--search-threads <n>', 'search worker threads (env FOLIO_SEARCH_THREADS, default one per core)')
  .option('--index-threads <n>', 'refresh and merge worker threads (env FOLIO_INDEX_THREADS, default 2)')
  .option('--max-file-size <size>', "largest file upload, e.g. '100MiB' (env FOLIO_MAX_FILE_SIZE, default 100MiB)")
  .option('--keep-files', 'keep the original of every uploaded file for download (env FOLIO_KEEP_FILES)')
  .option('--extraction-timeout <seconds>', 'longest one file may take to read, OCR included (env FOLIO_EXTRACTION_TIMEOUT, default 120)')
  .option('--extraction-threads <n>', 'file extraction worker threads (env FOLIO_EXTRACTION_THREADS, default one per two cores)')
  .option('--rate-limit <rate>', "requests per credential, e.g. '100/s' or '100/s,burst=200'; 'off' disables (env FOLIO_RATE_LIMIT, default 100/s, burst 200)")
  .option('--search-timeout <seconds>', 'a search answers with what it found after this long (timed_out); 0: no limit (env FOLIO_SEARCH_TIMEOUT, default 2)')
  .option('--key-search-concurrency <n>', 'searches one API key may run at once (env FOLIO_KEY_SEARCH_CONCURRENCY, default search threads - 1, at least 1)')
  .option('--search-cache-mb <mb>', 'MiB of recent search answers kept for repeated searches; 0 disables (env FOLIO_SEARCH_CACHE_MB, default 32)')
  .option('--preview-cache-mb <mb>', 'MiB of page pictures (previews) kept on disk (env FOLIO_PREVIEW_CACHE_MB, default 256)')
  .option('--open-collections <n>', 'collections kept open at once; others open when used and close when idle (env FOLIO_OPEN_COLLECTIONS, default 500, or half of ulimit -n if lower)')
  .option('--models-dir <dir>', 'where local embedding models are (env FOLIO_MODELS_DIR, default <data>/models)')
  .option('--addons-dir <dir>', "where add-ons are installed: the local embedder's runtime, OCR languages (env FOLIO_ADDONS_DIR, default <Folio>/addons)")
  .option('--cluster <url>', 'cluster mode: postgres://… holding collections, the write log, manifests and leases (env FOLIO_CLUSTER; docs/cluster.md)')
  .option('--object-store <url>', 'cluster mode: s3://bucket/prefix for segment files (env FOLIO_OBJECT_STORE; credentials from AWS_* variables)')
  .option('--s3-endpoint <url>', 'cluster mode: an S3 endpoint other than AWS, e.g. MinIO (env FOLIO_S3_ENDPOINT)')
  .option('--redis <url>', 'cluster mode: redis://… for rate limits shared by all nodes (env FOLIO_REDIS)')
  .option('--cluster-role <role>', "cluster mode: 'writer' (may take writer leases) or 'replica' (searches only) (env FOLIO_CLUSTER_ROLE, default writer)")
  .option('--cluster-lease <seconds>', 'cluster mode: how long a writer lease lasts unrenewed, about the failover time (env FOLIO_CLUSTER_LEASE, default 5)')
  .option('--cluster-grace <seconds>', 'cluster mode: how long superseded segment files stay in the object store for replicas still fetching them (env FOLIO_CLUSTER_GRACE, default 600)')
  .addHelpText('after', '\nThe master key comes from FOLIO_MASTER_KEY, else <data>/master.key (generated on first start).')
  .action(serve);

registerAuth(program);
registerConfig(program);
registerKeys(program);
registerCollections(program);
registerIndex(program);
registerDocuments(program);
registerSearch(program);
registerFacets(program);
registerStats(program);
registerCheck(program);
registerSnapshots(program);
registerWebhooks(program);
registerModels(program);
registerOcr(program);
program.addHelpText(
  'after',
  '\nThe commands other than serve use the server and API key saved by `folio auth login`;\n' +
    'FOLIO_URL and FOLIO_API_KEY override them for one command.',
);

await program.parseAsync(process.argv);
