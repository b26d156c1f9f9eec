// `folio ocr list|add|remove` on a real add-ons directory, as child processes: English ships
// with Folio and is listed always; `add eng` copies it beside the others (no download); a
// language file in tessdata/ is listed and removed; bad codes are usage errors and English
// cannot be removed. (`add` of another language fetches its npm package from the registry:
// `.ci/run` runs `folio ocr add deu fra jpn`, and the OCR tests use them.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledOcrDataDir } from '../../extract/index.ts';
import { runCli } from '../helpers/spawn-cli.ts';

test('folio ocr: list, add English, remove a language; bad codes are usage errors', async () => {
  const addons = mkdtempSync(join(tmpdir(), 'folio-addons-'));
  try {
    const listed = await runCli(['ocr', 'list', '--addons-dir', addons]);
    assert.equal(listed.code, 0, listed.output);
    assert.match(listed.output, /eng\s+Folio/);

    const english = await runCli(['ocr', 'add', 'eng', '--addons-dir', addons]);
    assert.equal(english.code, 0, english.output);
    assert.match(english.output, /eng is installed already \(it ships with Folio\)/);
    assert.ok(existsSync(join(addons, 'tessdata', 'eng.traineddata.gz')), 'English copied beside the others');

    // A language as `folio ocr add` leaves it: its model in tessdata/.
    copyFileSync(join(bundledOcrDataDir(), 'eng.traineddata.gz'), join(addons, 'tessdata', 'fin.traineddata.gz'));
    const withFinnish = await runCli(['ocr', 'list', '--addons-dir', addons]);
    assert.match(withFinnish.output, /fin\s+\S*tessdata/);
    const removed = await runCli(['ocr', 'remove', 'fin', '--addons-dir', addons]);
    assert.equal(removed.code, 0, removed.output);
    assert.ok(!existsSync(join(addons, 'tessdata', 'fin.traineddata.gz')));
    assert.doesNotMatch((await runCli(['ocr', 'list', '--addons-dir', addons])).output, /fin/);

    const bad = await runCli(['ocr', 'add', 'German', '../x', '--addons-dir', addons]);
    assert.equal(bad.code, 2, bad.output);
    assert.match(bad.output, /not a Tesseract language code: German, \.\.\/x/);
    assert.equal((await runCli(['ocr', 'remove', 'eng', '--addons-dir', addons])).code, 2);
    const absent = await runCli(['ocr', 'remove', 'fin', '--addons-dir', addons]);
    assert.equal(absent.code, 1);
    assert.match(absent.output, /not_installed: OCR language 'fin' is not installed/);
  } finally {
    rmSync(addons, { recursive: true, force: true });
  }
});
