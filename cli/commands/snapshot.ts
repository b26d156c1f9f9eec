// `folio snapshot [--output FILE]` saves the server's consistent online copy of its data
// directory (POST /v1/snapshots, admin key) as a tar, to a file or standard output;
// `folio restore FILE --data DIR` unpacks one into a new data directory (no server needed;
// `-` reads standard input) and checks every file, ready for `folio serve --data DIR`.

import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { restoreDataDirectory, serverUsing } from '../../server/index.ts';
import { connect } from '../connect.ts';
import { CliError, UsageError, action } from '../errors.ts';
import { formatBytes } from '../../format/index.ts';
import { note } from '../output.ts';

async function snapshot(options: { output?: string }): Promise<void> {
  if (options.output === undefined && process.stdout.isTTY) throw new UsageError('a snapshot is a tar: give --output FILE, or send standard output to a file (folio snapshot > backup.tar)');
  const body = await (await connect()).snapshot();
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
  if (options.output === undefined) {
    await pipeline(source, process.stdout);
    return;
  }
  // Written beside the file and renamed: a cut-off transfer never looks like a whole snapshot.
  const partial = `${options.output}.partial`;
  await pipeline(source, fs.createWriteStream(partial, { mode: 0o600 }));
  fs.renameSync(partial, options.output);
  note(`Saved the snapshot to ${options.output} (${formatBytes(fs.statSync(options.output).size)}). Restore it with 'folio restore ${options.output} --data NEW_DIR'.`);
}

async function restore(file: string, options: { data?: string }): Promise<void> {
  if (options.data === undefined) throw new UsageError('give the new data directory: folio restore FILE --data DIR');
  const pid = await serverUsing(options.data);
  if (pid !== null) throw new CliError('server_running', `a server (pid ${pid}) is using ${options.data}: restore into a new directory`);
  const source = file === '-' ? process.stdin : fs.createReadStream(file);
  const outcome = await restoreDataDirectory(source, options.data);
  const damaged = outcome.checks.filter((check) => check.problems.length > 0);
  note(`Restored ${outcome.info.collections.length} collection${outcome.info.collections.length === 1 ? '' : 's'} (${outcome.files} files) into ${options.data}, as of ${outcome.info.created_at}.`);
  for (const skipped of outcome.info.skipped) note(`  left out of the snapshot: ${skipped.name} (${skipped.reason})`);
  if (damaged.length > 0) {
    note(`  damaged: ${damaged.map((check) => check.name).join(', ')} — run 'folio check --data ${options.data}'`);
    process.exitCode = 1;
  }
  note(`Start it with: folio serve --data ${options.data}`);
}

export function registerSnapshots(program: Command): void {
  program
    .command('snapshot')
    .description("save a consistent copy of the server's data as a tar (admin key)")
    .option('-o, --output <file>', 'write to this file (default: standard output)')
    .action(action(snapshot));
  program
    .command('restore')
    .description('unpack a snapshot into a new data directory, ready for folio serve --data DIR')
    .argument('<file>', "the snapshot's tar ('-' for standard input)")
    .requiredOption('-d, --data <dir>', 'the new data directory (must not exist or be empty)')
    .action(action(restore));
}
