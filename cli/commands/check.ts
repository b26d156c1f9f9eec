// `folio check [--data DIR] [--repair]` (issue 18): verifies every file of every collection of a
// data directory and lists the damaged ones with the document ids they held. `--repair` sets the
// damaged files aside so each collection serves again and prints what must be re-indexed; it
// refuses while a server uses the directory. Works on the files, not over HTTP: the server
// need not (and for a repair must not) run. Exit status 1 while damage remains.

import type { Command } from 'commander';
import { checkDataDirectory, repairCheckedCollection, resolveConfig, serverUsing } from '../../server/index.ts';
import type { CollectionCheck, RepairOutcome } from '../../server/index.ts';
import { CliError, EXIT_FAILURE, action } from '../errors.ts';
import { printJson, say } from '../output.ts';

/** Ids shown per damaged file; `--json` lists them all. */
const IDS_SHOWN = 20;

interface CheckOptions {
  data?: string;
  repair?: boolean;
  json?: boolean;
}

function idList(ids: string[] | null): string {
  if (ids === null) return 'the ids of its documents cannot be read';
  if (ids.length === 0) return 'no documents';
  const shown = ids.slice(0, IDS_SHOWN).join(', ');
  return `${ids.length} document${ids.length === 1 ? '' : 's'}: ${shown}${ids.length > IDS_SHOWN ? `, … (${ids.length - IDS_SHOWN} more; --json lists all)` : ''}`;
}

function printCheck(check: CollectionCheck): void {
  if (check.problems.length === 0) {
    say(`ok       ${check.name} (${check.checked} files)`);
    return;
  }
  say(`DAMAGED  ${check.name} (${check.checked} files, ${check.problems.length} damaged)`);
  for (const problem of check.problems) say(`  ${problem.file}: ${problem.problem}\n    held ${idList(problem.documentIds)}`);
}

function printRepair(check: CollectionCheck, outcome: RepairOutcome): void {
  say(`repaired ${check.name}:`);
  for (const file of outcome.setAside) say(`  set aside ${file}`);
  for (const line of outcome.notes) say(`  note: ${line}`);
  if (outcome.reindex.length > 0) say(`  re-index ${idList(outcome.reindex)}`);
}

async function check(options: CheckOptions): Promise<void> {
  const { dataDir } = resolveConfig({ data: options.data });
  const checks = await checkDataDirectory(dataDir);
  const damaged = checks.filter((c) => c.problems.length > 0);
  if (!options.repair) {
    if (options.json) printJson({ data: dataDir, collections: checks });
    else {
      say(`Checked ${checks.length} collection${checks.length === 1 ? '' : 's'} in ${dataDir}`);
      checks.forEach(printCheck);
      if (damaged.length > 0) say("\nRun 'folio check --repair' with the server stopped to set the damaged files aside.");
    }
    if (damaged.length > 0) process.exitCode = EXIT_FAILURE;
    return;
  }
  const pid = await serverUsing(dataDir);
  if (pid !== null) throw new CliError('server_running', `a server (pid ${pid}) is using ${dataDir}: stop it before 'folio check --repair'`);
  const repairs: (RepairOutcome & { collection: string })[] = [];
  for (const collection of damaged) repairs.push({ collection: collection.name, ...(await repairCheckedCollection(collection)) });
  if (options.json) return printJson({ data: dataDir, collections: checks.map((c) => ({ name: c.name, checked: c.checked, damaged: c.problems.length })), repairs });
  say(`Checked ${checks.length} collection${checks.length === 1 ? '' : 's'} in ${dataDir}`);
  checks.forEach(printCheck);
  if (damaged.length === 0) return;
  say('');
  damaged.forEach((collection, i) => printRepair(collection, repairs[i]));
  say('\nStart the server: the repaired collections serve again.');
}

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description('verify every file of a data directory; --repair sets damaged files aside (server stopped)')
    .option('-d, --data <dir>', 'data directory (env FOLIO_DATA_DIR, default ./folio-data)')
    .option('--repair', 'set damaged files aside so every collection serves again, and list what to re-index')
    .option('--json', 'print the findings as JSON')
    .action(action(check));
}
