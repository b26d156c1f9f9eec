// Reading a secret for `folio auth login`: typed at a hidden prompt when standard input is a
// terminal (nothing is echoed), or read from standard input when it is a pipe or a file
// (`folio auth login < master.key`), so scripts never put the secret on a command line.

import { CliError } from './errors.ts';

/** Exit status after Ctrl-C, as shells report it. */
const EXIT_INTERRUPTED = 130;
const ENTER = new Set(['\r', '\n', '\u0004']);
const ERASE = new Set(['\u007f', '\b']);
const CTRL_C = '\u0003';
const CTRL_U = '\u0015';
/** Terminal escape sequences (arrow keys and the like), which are not part of a secret. */
const ESCAPE_SEQUENCE = /\u001b(\[[0-9;?]*[ -/]*[@-~]|O.|.)?/g;

/** A terminal input stream: what readHidden needs of process.stdin. */
export interface TerminalInput extends NodeJS.ReadableStream {
  isRaw?: boolean;
  setRawMode(mode: boolean): unknown;
}

/** Reads a line at a prompt without echoing it. Backspace and Ctrl-U edit; Ctrl-C cancels. */
export function readHidden(prompt: string, input: TerminalInput, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let characters: string[] = [];
    const wasRaw = input.isRaw === true;
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write('\n');
      if (error === undefined) resolve(characters.join(''));
      else reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      for (const character of String(chunk).replace(ESCAPE_SEQUENCE, '')) {
        if (ENTER.has(character)) return finish();
        if (character === CTRL_C) return finish(new CliError('cancelled', 'interrupted; nothing was done', EXIT_INTERRUPTED));
        if (ERASE.has(character)) characters.pop();
        else if (character === CTRL_U) characters = [];
        else if (character >= ' ') characters.push(character);
      }
    };
    output.write(prompt);
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.resume();
  });
}

/** The first non-empty line of a stream, trimmed ('' when there is none). */
export async function readFirstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  input.setEncoding('utf8');
  for await (const chunk of input) text += String(chunk);
  return text.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== '') ?? '';
}

/** A secret from the terminal (hidden) or from standard input when that is not a terminal. */
export async function readSecret(prompt: string): Promise<string> {
  const input = process.stdin;
  if (input.isTTY) return (await readHidden(prompt, input, process.stderr)).trim();
  return readFirstLine(input);
}
