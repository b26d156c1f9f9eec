// The `folio` command's building blocks, without a server: highlight rendering (colour on a
// terminal, plain text otherwise, entities unescaped, control characters removed), masking,
// tables, the progress line, the hidden prompt, option parsers, and the config file's path,
// mode and atomic replacement.

import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { integerArgument, jsonObjectArgument, listArgument, urlArgument } from '../../cli/arguments.ts';
import { configPath, readConfig, writeConfig } from '../../cli/config-file.ts';
import { describeError, UsageError } from '../../cli/errors.ts';
import { clean, colorEnabled, formatTable, maskSecret, renderHighlight, unescapeHtml } from '../../cli/output.ts';
import { formatClock, progressBar, progressText } from '../../cli/progress.ts';
import { readFirstLine, readHidden } from '../../cli/prompt.ts';
import type { TerminalInput } from '../../cli/prompt.ts';
import { FolioError } from '../../clients/typescript/index.ts';

test('highlights: <mark> becomes bold yellow on a terminal and plain text otherwise; entities unescaped', () => {
  const html = 'Tom &amp; Jerry say &lt;b&gt; &quot;<mark>hi</mark>&quot; &#39;x&#x27; <mark>caf&eacute;</mark>';
  assert.equal(renderHighlight(html, false), 'Tom & Jerry say <b> "hi" \'x\' caf&eacute;');
  assert.equal(renderHighlight('a <mark>b</mark> c', true), 'a \x1b[1;33mb\x1b[0m c');
  assert.equal(unescapeHtml('&#128512; &unknown; &#xZZ;'), '😀 &unknown; &#xZZ;');
  assert.equal(renderHighlight('evil \x1b[2J<mark>x\x07</mark>', false), 'evil  [2Jx ', 'control characters are removed');
  assert.equal(clean('a\tb\u009bc'), 'a b c');
});

test('colour only on a terminal without NO_COLOR', () => {
  const tty = { isTTY: true } as NodeJS.WriteStream;
  assert.equal(colorEnabled(tty, {}), true);
  assert.equal(colorEnabled(tty, { NO_COLOR: '1' }), false);
  assert.equal(colorEnabled(tty, { NO_COLOR: '' }), true);
  assert.equal(colorEnabled(tty, { TERM: 'dumb' }), false);
  assert.equal(colorEnabled({ isTTY: false } as NodeJS.WriteStream, {}), false);
});

test('masking and tables', () => {
  assert.equal(maskSecret('folio_AbCdEFGHIJKLMNOPQRSTUVWXYZ0123456789wxyz'), 'folio_AbCd…wxyz');
  assert.equal(maskSecret('short'), '…');
  assert.equal(formatTable(['A', 'BB'], [['xyz', '1'], ['q', '22']], false), 'A    BB\nxyz  1\nq    22\n');
});

test('the progress line counts files, bytes, pages, rate, time left, failures and names the current file', () => {
  const counts = { done: 12, failed: 1, total: 40, bytesDone: 3 * 1024 * 1024, bytesTotal: 9 * 1024 * 1024, pages: 57, current: 'docs/guide.md' };
  assert.equal(progressText(counts, 4000), '12/40 files, 3.0 MiB/9.0 MiB, 57 pages, 3.0 files/s, 0:08 left, 1 failed · docs/guide.md');
  const none = { done: 0, failed: 0, total: 3, bytesDone: 0, bytesTotal: 100, pages: 0, current: '' };
  assert.equal(progressText(none, 0), '0/3 files, 0 B/100 B, 0 pages, 0.0 files/s');
  assert.equal(progressText({ ...none, done: 3, bytesDone: 100, current: 'last.md' }, 1000), '3/3 files, 100 B/100 B, 0 pages, 3.0 files/s');
  assert.equal(formatClock(3725), '1:02:05');
  assert.equal(progressBar({ ...none, done: 5, total: 10 }, 10), '[█████░░░░░]');
  assert.equal(progressBar({ ...none, total: 0 }, 4), '[████]');
});

function fakeTerminal(): TerminalInput & PassThrough & { modes: boolean[] } {
  const input = new PassThrough() as unknown as TerminalInput & PassThrough & { modes: boolean[] };
  input.modes = [];
  input.setRawMode = (mode: boolean) => input.modes.push(mode);
  return input;
}

test('the hidden prompt echoes nothing, edits with backspace and Ctrl-U, and restores the terminal', async () => {
  const input = fakeTerminal();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk) => (shown += chunk));
  const secret = readHidden('Key: ', input, output);
  input.write('wrong\u0015sec');
  input.write('rx\u007f\u001b[Aet\r ignored');
  assert.equal(await secret, 'secret');
  assert.equal(shown, 'Key: \n');
  assert.deepEqual(input.modes, [true, false]);

  const terminal = fakeTerminal();
  const interrupted = readHidden('Key: ', terminal, new PassThrough());
  terminal.write('abc\u0003');
  await assert.rejects(interrupted, { code: 'cancelled', exitCode: 130 });
});

test('piped secrets: the first non-empty line, trimmed', async () => {
  const input = new PassThrough();
  input.end('\n  folio_key  \nsecond line\n');
  assert.equal(await readFirstLine(input), 'folio_key');
});

test('option parsers refuse bad values', () => {
  assert.deepEqual(listArgument(' search, write ,,'), ['search', 'write']);
  assert.throws(() => listArgument(' , '), /comma-separated/);
  assert.equal(integerArgument(1, 64)('8'), 8);
  assert.throws(() => integerArgument(1, 64)('0'), /1 to 64/);
  assert.throws(() => integerArgument(1, 64)('2.5'), /1 to 64/);
  assert.deepEqual(jsonObjectArgument('{"a":1}'), { a: 1 });
  assert.throws(() => jsonObjectArgument('[1]'), /JSON object/);
  assert.throws(() => jsonObjectArgument('{'), /not valid JSON/);
  assert.equal(urlArgument('http://h:1/'), 'http://h:1');
  assert.throws(() => urlArgument('ftp://h'), /http/);
});

test('errors: the stable code and detail, with validation errors listed', () => {
  const problem = new FolioError(400, 'validation_failed', 'invalid request body', [{ path: '/body/name', message: 'must match pattern' }]);
  assert.deepEqual(describeError(problem), {
    code: 'validation_failed',
    message: 'invalid request body',
    details: ['  /body/name: must match pattern'],
    exitCode: 1,
  });
  assert.deepEqual(describeError(new UsageError('bad')), { code: 'usage', message: 'bad', details: [], exitCode: 2 });
  assert.equal(describeError(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })).code, 'io_error');
});

test('the config file: XDG_CONFIG_HOME or ~/.config, written 0600 in a 0700 folder, atomically', async () => {
  assert.equal(configPath({ XDG_CONFIG_HOME: '/x/y' }), '/x/y/folio/config.json');
  assert.equal(configPath({ XDG_CONFIG_HOME: 'relative' }), join(homedir(), '.config', 'folio', 'config.json'));
  assert.equal(configPath({}), join(homedir(), '.config', 'folio', 'config.json'));

  const dir = await mkdtemp(join(tmpdir(), 'folio-config-'));
  try {
    const file = join(dir, 'folio', 'config.json');
    assert.equal(await readConfig(file), null);
    await writeConfig({ url: 'http://a', api_key: 'k1' }, file);
    await writeConfig({ url: 'http://b', api_key: 'k2', key_id: 'key_1' }, file);
    assert.deepEqual(await readConfig(file), { url: 'http://b', api_key: 'k2', key_id: 'key_1' });
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'folio'))).mode & 0o777, 0o700);
    assert.deepEqual(await readdir(join(dir, 'folio')), ['config.json'], 'no temporary file is left behind');
    await rm(file);
    await writeFile(file, '{"url":1}');
    await assert.rejects(readConfig(file), { code: 'invalid_config' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
