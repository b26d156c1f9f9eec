// Runs npm for the commands that install add-ons on demand (`folio models runtime`, `folio ocr
// add`): the npm that runs Folio, from the npm registry the user's npm config names, output
// shown as it comes (errors only, unless npm fails). A failure is a CliError naming the command.

import { spawnSync } from 'node:child_process';
import { CliError } from './errors.ts';

/** Runs `npm <args>` in `cwd`; its standard output, or a CliError `npm_failed`. */
export function runNpm(args: readonly string[], cwd: string, { captureOutput = false } = {}): string {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    stdio: ['ignore', captureOutput ? 'pipe' : 'inherit', 'inherit'],
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (result.error !== undefined) throw new CliError('npm_failed', `could not run npm (${result.error.message}): it comes with Node.js`);
  if (result.status !== 0) throw new CliError('npm_failed', `\`npm ${args.join(' ')}\` failed (exit ${result.status}) in ${cwd}`);
  return result.stdout ?? '';
}
