// Collection settings over HTTP (docs/api.md, "Typo tolerance", issue 14 point 4): `typo_tolerance` given at creation
// or changed with PATCH /v1/collections/{c} (what a body leaves out is kept) is returned in the
// record as `settings`, governs searches at once, is validated, survives a restart, and a
// collection.json written before settings existed reads as the defaults.

import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { assertFieldError } from '../helpers/problem-assertions.ts';

const DEFAULTS = {
  enabled: true,
  min_word_size: { one_typo: 5, two_typos: 9 },
  disable_on_numbers: true,
  disable_on_fields: [],
};

const DOCUMENTS = [
  { id: 'gnuplot', title: 'Histogram', text: 'Plotting a histogram with gnuplot: set logscale y.' },
  { id: 'titled', title: 'Receive', text: 'nothing else here' },
  { id: 'report', title: 'Annual report', text: 'The figure 12345.' },
];

describe('collection settings', () => {
  let server: TestServer;
  const ids = async (collection: string, q: string, extra = ''): Promise<string[]> => {
    const response = await server.request('GET', `/v1/collections/${collection}/search?q=${encodeURIComponent(q)}${extra}`);
    assert.equal(response.status, 200, response.text);
    return response.body.hits.map((hit: { id: string }) => hit.id).sort();
  };
  const patch = (collection: string, body: unknown) => server.request('PATCH', `/v1/collections/${collection}`, body);

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('a new collection has the default typo tolerance; create may set some of it', async () => {
    const plain = await server.request('POST', '/v1/collections', { name: 'plain' });
    assert.equal(plain.status, 201);
    assert.deepEqual(plain.body.settings, { typo_tolerance: DEFAULTS, embedders: {}, synonyms: [], ranking: { boost: [] }, searchable_fields: [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }], ocr_languages: ['eng'] });
    const strict = await server.request('POST', '/v1/collections', { name: 'strict', typo_tolerance: { min_word_size: { one_typo: 7 } } });
    assert.equal(strict.status, 201, strict.text);
    assert.deepEqual(strict.body.settings.typo_tolerance, { ...DEFAULTS, min_word_size: { one_typo: 7, two_typos: 9 } });
    assert.deepEqual((await server.request('GET', '/v1/collections/strict')).body.settings, strict.body.settings);
    const listed = (await server.request('GET', '/v1/collections')).body.collections;
    assert.deepEqual(listed.find((c: { name: string }) => c.name === 'strict').settings, strict.body.settings);
    for (const name of ['plain', 'strict']) {
      assert.equal((await server.request('POST', `/v1/collections/${name}/documents?refresh=wait_for`, DOCUMENTS)).status, 200);
    }
    // With one typo from 7 letters, "recieve" (7) is still found, "gnplot" (6) no longer.
    assert.deepEqual(await ids('plain', 'recieve'), ['titled']);
    assert.deepEqual(await ids('strict', 'recieve'), ['titled']);
    assert.deepEqual(await ids('plain', 'gnplot'), ['gnuplot']);
    assert.deepEqual(await ids('strict', 'gnplot'), []);
  });

  test('PATCH changes settings, keeps what it leaves out, and searches follow at once', async () => {
    const off = await patch('plain', { typo_tolerance: { enabled: false } });
    assert.equal(off.status, 200, off.text);
    assert.deepEqual(off.body.settings.typo_tolerance, { ...DEFAULTS, enabled: false });
    assert.equal(off.body.name, 'plain');
    assert.deepEqual(await ids('plain', 'histgram'), []);
    // A search may still ask for typos explicitly.
    assert.deepEqual(await ids('plain', 'histgram', '&typos=1'), ['gnuplot']);

    const fields = await patch('plain', { typo_tolerance: { enabled: true, disable_on_fields: ['title'] } });
    assert.deepEqual(fields.body.settings.typo_tolerance, { ...DEFAULTS, disable_on_fields: ['title'] });
    assert.deepEqual(await ids('plain', 'histgram'), ['gnuplot']); // in its text
    assert.deepEqual(await ids('plain', 'recieve'), []); // only in a title
    assert.deepEqual(await ids('plain', 'receive'), ['titled']); // exact words still match anywhere

    const numbers = await patch('plain', { typo_tolerance: { disable_on_numbers: false, disable_on_fields: [] } });
    assert.deepEqual(numbers.body.settings.typo_tolerance, { ...DEFAULTS, disable_on_numbers: false });
    assert.deepEqual(await ids('plain', '12346'), ['report']);

    const sizes = await patch('plain', { typo_tolerance: { min_word_size: { one_typo: 3, two_typos: 5 } } });
    assert.deepEqual(sizes.body.settings.typo_tolerance.min_word_size, { one_typo: 3, two_typos: 5 });
    assert.deepEqual(await ids('plain', 'hstogrm'), ['gnuplot']); // 7 letters: two typos now

    // An empty body changes nothing.
    const same = await patch('plain', {});
    assert.equal(same.status, 200);
    assert.deepEqual(same.body.settings, sizes.body.settings);
  });

  test('bad settings are refused and change nothing', async () => {
    const before = (await server.request('GET', '/v1/collections/strict')).body.settings;
    // two_typos below one_typo, after merging with what the collection has (one_typo 7).
    assertFieldError(await patch('strict', { typo_tolerance: { min_word_size: { two_typos: 6 } } }), '/body/typo_tolerance/min_word_size/two_typos');
    assertFieldError(await patch('strict', { typo_tolerance: { disable_on_fields: ['body'] } }), '/body/typo_tolerance/disable_on_fields/0');
    assertFieldError(await patch('strict', { typo_tolerance: { enabled: 'yes' } }), '/body/typo_tolerance/enabled');
    assertFieldError(await patch('strict', { typo_tolerance: { min_word_size: { one_typo: -1 } } }), '/body/typo_tolerance/min_word_size/one_typo');
    assertFieldError(await patch('strict', { name: 'renamed' }), '/body/name');
    assertFieldError(
      await server.request('POST', '/v1/collections', { name: 'bad', typo_tolerance: { min_word_size: { one_typo: 10 } } }),
      '/body/typo_tolerance/min_word_size/two_typos',
    );
    assert.equal((await server.request('GET', '/v1/collections/bad')).status, 404);
    assert.deepEqual((await server.request('GET', '/v1/collections/strict')).body.settings, before);
    assert.equal((await patch('missing', { typo_tolerance: { enabled: false } })).status, 404);
  });

  test('settings survive a restart; a collection.json without settings reads as the defaults', async () => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    try {
      await first.request('POST', '/v1/collections', { name: 'kept' });
      await first.request('POST', '/v1/collections', { name: 'old' });
      const changed = await first.request('PATCH', '/v1/collections/kept', { typo_tolerance: { enabled: false, disable_on_fields: ['text'] } });
      assert.equal(changed.status, 200, changed.text);
      assert.equal((await first.request('POST', '/v1/collections/kept/documents?refresh=wait_for', DOCUMENTS)).status, 200);
      await first.app.close();
      // A collection made before settings existed.
      const oldConfig = join(dataDir, 'collections', 'old', 'collection.json');
      const { settings, ...rest } = JSON.parse(await readFile(oldConfig, 'utf8'));
      assert.ok(settings !== undefined);
      await writeFile(oldConfig, JSON.stringify(rest));

      const second = await startTestServer({ dataDir });
      try {
        const kept = (await second.request('GET', '/v1/collections/kept')).body;
        assert.deepEqual(kept.settings.typo_tolerance, { ...DEFAULTS, enabled: false, disable_on_fields: ['text'] });
        const search = await second.request('GET', '/v1/collections/kept/search?q=histgram');
        assert.deepEqual(search.body.hits, []);
        assert.deepEqual((await second.request('GET', '/v1/collections/old')).body.settings, { typo_tolerance: DEFAULTS, embedders: {}, synonyms: [], ranking: { boost: [] }, searchable_fields: [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }], ocr_languages: ['eng'] });
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
