// OCR in the user's languages over real HTTP (docs/api.md, "OCR languages"): the collection
// setting `ocr_languages` and the upload's form part of the same name, checked against what the
// server has installed (`GET /v1/formats` lists it; a language it lacks is a 400 naming
// `folio ocr add`, and nothing is created or indexed). Then scans made here from real German,
// French and Japanese text (drawn in DejaVu Sans and Noto Sans CJK, as PNG images and a scanned
// PDF) are each found by a word from the page, read in their language and analysed with the
// collection's language — and English OCR cannot read the Japanese one. The scans need the
// languages installed (`folio ocr add deu fra jpn`) and the fonts; `.ci/run` provides both,
// elsewhere those tests skip, saying so.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { scannedPdf } from '../../benchmarks/extraction-pdf-writer.ts';
import { DEFAULT_ADDONS_DIR } from '../../server/config/index.ts';
import { installedOcrLanguages } from '../../extract/index.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestResponse, TestServer } from '../helpers/test-server.ts';
import { missingFont, scanGrey, scanPng } from '../helpers/text-scan.ts';

const TESSDATA = join(DEFAULT_ADDONS_DIR, 'tessdata');
const NEEDED = ['deu', 'fra', 'jpn'];
const notInstalled = NEEDED.filter((language) => !installedOcrLanguages(TESSDATA).includes(language));
const scansSkip =
  notInstalled.length > 0 ? `OCR languages ${notInstalled.join(', ')} are not installed in ${TESSDATA}: run \`folio ocr add ${notInstalled.join(' ')}\` (.ci/run does)` : missingFont('latin', 'cjk');

const GERMAN = ['Die Kündigungsfrist beträgt drei Monate zum Quartalsende.', 'Größere Änderungen bedürfen der Schriftform.'];
const FRENCH = ["La facture doit être réglée avant l'échéance du trente novembre.", 'Les pénalités de retard sont calculées chaque semaine.'];
const JAPANESE = ['東京都の天気予報によると、明日は雨が降るでしょう。', '傘を忘れないでください。'];

describe('OCR languages', () => {
  let server: TestServer;

  async function upload(collection: string, fileName: string, content: Uint8Array, fields: Record<string, string> = {}): Promise<TestResponse> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([content]), fileName);
    const response = await fetch(`${server.url}/v1/collections/${collection}/files?refresh=wait_for`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      body: form,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text), text };
  }

  async function hits(collection: string, q: string): Promise<string[]> {
    const response = await server.request('GET', `/v1/collections/${collection}/search?${new URLSearchParams({ q })}`);
    assert.equal(response.status, 200, response.text);
    return response.body.hits.map((hit: { id: string }) => hit.id);
  }

  before(async () => {
    server = await startTestServer({ refreshIntervalMs: 50 });
  });
  after(() => server.close());

  test('GET /v1/formats lists the installed OCR languages, English always', async () => {
    const response = await server.request('GET', '/v1/formats');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.ocr_languages, installedOcrLanguages(TESSDATA));
    assert.ok(response.body.ocr_languages.includes('eng'));
  });

  test('a collection defaults to English and takes installed languages; a missing one is a 400 naming the command', async () => {
    const plain = await server.request('POST', '/v1/collections', { name: 'plain' });
    assert.equal(plain.status, 201, plain.text);
    assert.deepEqual(plain.body.settings.ocr_languages, ['eng']);

    const missing = await server.request('POST', '/v1/collections', { name: 'klingon', ocr_languages: ['tlh', 'eng'] });
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.body.code, 'validation_failed');
    assert.equal(missing.body.errors[0].path, '/body/ocr_languages');
    assert.match(missing.body.errors[0].message, /'tlh' is not installed.*folio ocr add tlh/);
    assert.equal((await server.request('GET', '/v1/collections/klingon')).status, 404, 'nothing created');

    for (const bad of [[], ['EN'], ['eng', 'eng'], ['../x'], ['eng', 'deu', 'fra', 'spa', 'ita', 'por']]) {
      const refused = await server.request('PATCH', '/v1/collections/plain', { ocr_languages: bad });
      assert.equal(refused.status, 400, `${JSON.stringify(bad)}: ${refused.text}`);
      assert.match(refused.body.errors[0].path, /^\/body\/ocr_languages/);
    }
    const patched = await server.request('PATCH', '/v1/collections/plain', { ocr_languages: ['eng'] });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await server.request('PATCH', '/v1/collections/plain', { ocr_languages: ['tlh'] })).status, 400);
    assert.deepEqual((await server.request('GET', '/v1/collections/plain')).body.settings.ocr_languages, ['eng'], 'a refused patch changes nothing');
  });

  test("an upload's ocr_languages must be well formed and installed; a refused upload indexes nothing", async () => {
    const png = scanPng(['nothing to read'], 'latin');
    const missing = await upload('plain', 'scan.png', png, { ocr_languages: 'tlh+eng' });
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.body.errors[0].path, '/body/ocr_languages');
    assert.match(missing.text, /folio ocr add tlh/);
    for (const bad of ['', 'deu+', 'eng+eng', 'EN', 'a+b+c+d+e+f']) {
      const refused = await upload('plain', 'scan.png', png, { ocr_languages: bad });
      assert.equal(refused.status, 400, `${JSON.stringify(bad)}: ${refused.text}`);
      assert.equal(refused.body.errors[0].path, '/body/ocr_languages');
    }
    assert.equal((await server.request('GET', '/v1/collections/plain')).body.documents, 0);
  });

  describe('scans in German, French and Japanese', { skip: scansSkip }, () => {
    test('German: a scanned PDF read in German, found by its words, stemmed as German', async () => {
      const created = await server.request('POST', '/v1/collections', { name: 'vertraege', language: 'german', ocr_languages: ['deu', 'eng'] });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body.settings.ocr_languages, ['deu', 'eng']);
      const uploaded = await upload('vertraege', 'vertrag.pdf', scannedPdf([scanGrey(GERMAN, 'latin')]), { id: 'vertrag' });
      assert.equal(uploaded.status, 201, uploaded.text);
      assert.deepEqual(await hits('vertraege', 'Größere'), ['vertrag'], 'ß read as ß (English OCR reads "GroRere")');
      assert.deepEqual(await hits('vertraege', 'bedürfen'), ['vertrag']);
      assert.deepEqual(await hits('vertraege', 'Kündigungsfristen'), ['vertrag'], 'the German stemmer: Kündigungsfristen → Kündigungsfrist');
      const page = await server.request('GET', '/v1/collections/vertraege/search?q=Quartalsende');
      assert.equal(page.body.hits[0].page, 1);
    });

    test('French: an invoice image read in French, found by its accented words', async () => {
      assert.equal((await server.request('POST', '/v1/collections', { name: 'factures', language: 'french', ocr_languages: ['fra'] })).status, 201);
      const uploaded = await upload('factures', 'facture.png', scanPng(FRENCH, 'latin'), { id: 'facture' });
      assert.equal(uploaded.status, 201, uploaded.text);
      assert.deepEqual(await hits('factures', 'échéance'), ['facture']);
      assert.deepEqual(await hits('factures', 'pénalités'), ['facture']);
      assert.deepEqual(await hits('factures', 'calculée'), ['facture'], 'the French stemmer: calculée ~ calculées');
    });

    test('Japanese: the upload names its language; English OCR reads nonsense where Japanese finds the words', async () => {
      assert.equal((await server.request('POST', '/v1/collections', { name: 'manuals' })).status, 201);
      const japanese = scanPng(JAPANESE, 'cjk');
      const read = await upload('manuals', 'tenki.png', japanese, { id: 'tenki-jpn', ocr_languages: 'jpn' });
      assert.equal(read.status, 201, read.text);
      const inEnglish = await upload('manuals', 'tenki-eng.png', japanese, { id: 'tenki-eng' });
      assert.equal(inEnglish.status, 201, inEnglish.text);
      assert.deepEqual(await hits('manuals', '"天気予報"'), ['tenki-jpn']);
      assert.deepEqual(await hits('manuals', '"傘"'), ['tenki-jpn']);
      const document = await server.request('GET', '/v1/collections/manuals/documents/tenki-eng');
      assert.doesNotMatch(JSON.stringify(document.body), /天気/, 'English OCR cannot read it');
    });
  });
});
