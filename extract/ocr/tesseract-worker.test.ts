// Tests the offline OCR helper: the English model comes from the local npm package (never a
// URL or the CDN), text is read from PNG and JPEG fixtures, a damaged image fails cleanly
// without killing the process, and one worker serves every call (including concurrent ones).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ocrWorkerOptions, recognizeImage, terminateOcrWorker } from './tesseract-worker.ts';
import { bundledOcrDataDir } from './ocr-languages.ts';
import { extractFile } from '../index.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/files/', import.meta.url));
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, name)));

after(() => terminateOcrWorker());

test('the language data is a local file in the @tesseract.js-data/eng package', () => {
  const langPath = bundledOcrDataDir();
  assert.ok(isAbsolute(langPath), langPath);
  assert.ok(!langPath.includes('://'), langPath);
  assert.ok(langPath.endsWith(join('node_modules', '@tesseract.js-data', 'eng', '4.0.0_best_int')), langPath);
  assert.ok(existsSync(join(langPath, 'eng.traineddata.gz')));
  const options = ocrWorkerOptions();
  assert.equal(options.langPath, langPath);
  assert.equal(options.gzip, true);
  assert.equal(options.cacheMethod, 'none');
});

test('OCR reads the words in a PNG', async () => {
  const text = await recognizeImage(fixture('sample.png'));
  assert.match(text, /folioquokka/);
  assert.match(text, /pngwombat/);
});

test('OCR reads the words in a JPEG', async () => {
  const text = await recognizeImage(fixture('sample.jpg'));
  assert.match(text, /folioquokka/);
  assert.match(text, /jpgwombat/);
});

test('concurrent calls share the worker and each gets its own text', async () => {
  const [png, gif] = await Promise.all([recognizeImage(fixture('sample.png')), recognizeImage(fixture('sample.gif'))]);
  assert.match(png, /pngwombat/);
  assert.match(gif, /gifwombat/);
});

test('a damaged image is an extraction error, and OCR still works afterwards', async () => {
  const broken = fixture('sample.png').slice(0, 60);
  await assert.rejects(extractFile(broken, 'broken.png'), { name: 'ExtractionError', code: 'extraction_failed' });
  const extraction = await extractFile(fixture('sample.jpeg'), 'sample.jpeg');
  assert.equal(extraction.format, 'jpeg');
  assert.equal(extraction.title, null);
  assert.deepEqual(extraction.pages, [{ number: 1, label: null, text: 'folioquokka\njpegwombat' }]);
});

test('no model cache file is written to the working directory', () => {
  assert.ok(!existsSync(join(process.cwd(), 'eng.traineddata')));
  assert.ok(!process.cwd().includes(`${sep}node_modules${sep}`));
});
