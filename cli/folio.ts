// The `folio` command (SPEC §10). For now it has `serve`; auth, config, keys, collections,
// index, search and webhooks join later. `npm start` runs `folio serve`, and
// `npm start -- --port 7711 --data ./x` passes flags through. Flags win over FOLIO_*
// environment variables, which win over defaults, so no flag has a commander default here.

import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, FOLIO_VERSION, resolveConfig, startServer } from '../server/index.ts';
import type { ConfigFlags } from '../server/index.ts';

/** Exit status for unusable flags or environment variables. */
const EXIT_USAGE = 2;
const EXIT_FAILURE = 1;

function portArgument(value: string): string {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a port number (0 picks a free port)');
  return value;
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
    process.stdout.write(`Folio listening on ${server.url}\n`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`folio: could not start the server: ${message}\n`);
    process.exit(EXIT_FAILURE);
  }
}

const program = new Command('folio')
  .description('Folio: a self-hosted document search server')
  .version(FOLIO_VERSION);

program
  .command('serve')
  .description('start the HTTP server')
  .option('-p, --port <port>', 'port to listen on; 0 picks a free port (env FOLIO_PORT, default 7700)', portArgument)
  .option('--host <host>', 'address to bind (env FOLIO_HOST, default 127.0.0.1; 0.0.0.0 for every interface)')
  .option('-d, --data <dir>', 'data directory (env FOLIO_DATA_DIR, default ./folio-data)')
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (env FOLIO_LOG_LEVEL, default info)')
  .option('--allow-private-webhooks', 'let webhooks reach loopback and private addresses (env FOLIO_ALLOW_PRIVATE_WEBHOOKS)')
  .option('--search-threads <n>', 'search worker threads (env FOLIO_SEARCH_THREADS, default one per core)')
  .option('--index-threads <n>', 'refresh and merge worker threads (env FOLIO_INDEX_THREADS, default 2)')
  .option('--max-file-size <size>', "largest file upload, e.g. '100MiB' (env FOLIO_MAX_FILE_SIZE, default 100MiB)")
  .option('--keep-files', 'keep the original of every uploaded file for download (env FOLIO_KEEP_FILES)')
  .option('--extraction-timeout <seconds>', 'longest one file may take to read, OCR included (env FOLIO_EXTRACTION_TIMEOUT, default 120)')
  .option('--extraction-threads <n>', 'file extraction worker threads (env FOLIO_EXTRACTION_THREADS, default 1)')
  .option('--rate-limit <rate>', "requests per credential, e.g. '100/s' or '100/s,burst=200'; 'off' disables (env FOLIO_RATE_LIMIT, default 100/s, burst 200)")
  .option('--search-cache-mb <mb>', 'MiB of recent search answers kept for repeated searches; 0 disables (env FOLIO_SEARCH_CACHE_MB, default 32)')
  .addHelpText('after', '\nThe master key comes from FOLIO_MASTER_KEY, else <data>/master.key (generated on first start).')
  .action(serve);

await program.parseAsync(process.argv);
