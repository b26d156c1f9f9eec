// How the `folio` command fails: every error becomes one line `folio: <code>: <message>`
// on standard error (the server's stable code for its errors, `network_error` when the server
// could not be reached, plus the `errors` of a validation failure), never a stack trace,
// and exit status 1; usage errors exit with 2.

import { FolioError } from '../clients/typescript/index.ts';
import { clean, note } from './output.ts';

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** An error of the command itself, with a code in the style of the server's (docs/api.md, "Errors"). */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A mistake in how the command was called (exit status 2). */
export class UsageError extends CliError {
  constructor(message: string) {
    super('usage', message, EXIT_USAGE);
  }
}

export interface ErrorReport {
  code: string;
  message: string;
  /** Further lines, such as each field of a validation failure. */
  details: string[];
  exitCode: number;
}

/** What to print for an error. */
export function describeError(error: unknown): ErrorReport {
  if (error instanceof FolioError) {
    const details = (error.errors ?? []).map((item) => `  ${item.path || '/'}: ${item.message}`);
    return { code: error.code, message: error.detail || error.message, details, exitCode: EXIT_FAILURE };
  }
  if (error instanceof CliError) return { code: error.code, message: error.message, details: [], exitCode: error.exitCode };
  if (error instanceof Error) {
    const system = typeof (error as NodeJS.ErrnoException).code === 'string';
    return { code: system ? 'io_error' : 'error', message: error.message, details: [], exitCode: EXIT_FAILURE };
  }
  return { code: 'error', message: String(error), details: [], exitCode: EXIT_FAILURE };
}

/** One line `<code>: <message>` for an error (used in summaries too). */
export function errorLine(error: unknown): string {
  const { code, message } = describeError(error);
  return clean(`${code}: ${message}`);
}

/** Prints an error as `folio: <code>: <message>` (and its details) and sets the exit status. */
export function reportError(error: unknown): void {
  const report = describeError(error);
  note(`folio: ${errorLine(error)}`);
  for (const line of report.details) note(clean(line));
  process.exitCode = report.exitCode;
}

/**
 * Wraps a command's action so that whatever it throws is reported the one way above. The
 * exit status is set, not forced, so buffered output still reaches a pipe.
 */
export function action<Args extends unknown[]>(run: (...args: Args) => Promise<void> | void): (...args: Args) => Promise<void> {
  return async (...args: Args) => {
    try {
      await run(...args);
    } catch (error) {
      reportError(error);
    }
  };
}
