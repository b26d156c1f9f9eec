// The web dashboard in a real browser: Debian's Chromium driven by playwright-core against a
// real server, as a newcomer would go: open the URL, sign in with the master key, create a
// collection, create an API key (shown once, and it works), drop files on the Documents page,
// search them (as you type, page numbers, a clicked facet; several collections as one, a facet
// value found by facet value search), open and delete a document, add a
// webhook and see its deliveries (and a key with a filter), read the stats, change a collection's settings (synonyms, typo
// tolerance, searchable fields, ranking, embedders; a refused save shows the server's field
// errors), make a metadata field searchable (the re-index's progress shown) and find a document
// by it with its highlighted line; signing out and in with an admin key. Along
// the way: no Content-Security-Policy violation and no script error, hostile text shown as
// text, the keyboard reaches the navigation, and a phone-sized window needs no sideways
// scrolling. Each page is saved as a screenshot in docs/screenshots/ (made here, not by hand).
// Skips, saying why, where no Chromium is installed (.ci/run installs it).

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_ROOT } from '../helpers/spawn-cli.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { Receiver } from '../helpers/webhook-receiver.ts';
import { pollUntil } from '../helpers/poll.ts';
import { textPdf } from '../../benchmarks/extraction-pdf-writer.ts';
import { parseSynonymLines, synonymLines, wordsLinesCannotHold } from '../../web/src/synonym-lines.ts';

const CHROMIUM = process.env.FOLIO_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const SCREENSHOTS = join(PROJECT_ROOT, 'docs', 'screenshots');
const WAIT_MS = 15_000;
const skip = CHROMIUM === undefined ? 'no Chromium here (apt-get install chromium, or set FOLIO_CHROMIUM); .ci/run installs it' : false;

describe('the dashboard in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const receiver = new Receiver();
  /** Script errors, CSP violations and files of the page (its icon too) the server refused. */
  const problems: string[] = [];
  /** The page's last API answers, said when a step times out (what the page was told). */
  const answers: string[] = [];
  const explained = async <T>(step: Promise<T>): Promise<T> => {
    try {
      return await step;
    } catch (error) {
      const shown = await page.locator('body').innerText().catch(() => '(unreadable)');
      throw new Error(`${(error as Error).message}\n-- the page shows:\n${shown}\n-- its last API answers:\n${answers.join('\n')}`);
    }
  };

  const shot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  };
  const text = async (selector: string): Promise<string> => (await page.locator(selector).first().textContent()) ?? '';

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    await receiver.listen();
    server = await startTestServer({ keepFiles: true, webhooks: { allowPrivateWebhooks: true } });
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('response', (response) => {
      if (!response.url().includes('/v1/')) {
        if (response.status() >= 400) problems.push(`${response.status()} for ${response.url()}`);
        return;
      }
      answers.push(`${new Date().toISOString().slice(11, 23)} ${response.status()} ${response.request().method()} ${response.url().replace(server.url, '')}`);
      if (answers.length > 40) answers.shift();
    });
    page.on('console', (entry) => {
      if (entry.type() === 'error' && !/Failed to load resource/.test(entry.text())) problems.push(`console: ${entry.text()}`);
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await receiver.close();
  });

  test('signing in with the master key opens the collections page; a wrong key is refused', async () => {
    const response = await page.goto(server.url);
    assert.equal(response?.status(), 200);
    assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    await page.locator('#secret').waitFor();
    await shot('sign-in');
    await page.fill('#secret', 'folio_notTheMasterKeyAtAll0123456789abcdef');
    await page.press('#secret', 'Enter');
    await page.getByText('That is neither the master key nor an admin API key.').waitFor();
    await page.fill('#secret', TEST_MASTER_KEY);
    await page.press('#secret', 'Enter');
    await page.getByRole('heading', { name: 'Collections' }).waitFor();
    const stored = String(await page.evaluate('JSON.stringify(sessionStorage)'));
    assert.ok(stored.includes('folio_sess_'), 'a session token is kept');
    assert.ok(!stored.includes(TEST_MASTER_KEY), 'the master key is not');
  });

  test('create a collection; the keyboard reaches the navigation', async () => {
    await page.fill('#new-collection', 'notes');
    await page.click('text=Create collection');
    await page.getByRole('cell', { name: 'notes', exact: true }).waitFor();
    await page.reload();
    await page.getByRole('cell', { name: 'notes', exact: true }).waitFor();
    const focused = async (): Promise<string> => String(await page.evaluate('document.activeElement && document.activeElement.textContent'));
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Skip to content');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Collections');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Search');
    await shot('collections');
  });

  test('Settings → API keys → Create Key: the key is shown once with a copy button, and it works', async () => {
    await page.click('nav >> text=API keys');
    await page.fill('#key-name', 'website');
    await page.fill('#key-collections', 'notes');
    await page.click('button:has-text("Create key")');
    const key = await page.inputValue('#created-key');
    assert.match(key, /^folio_[0-9A-Za-z]{40}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'website', exact: true }).waitFor();
    await shot('api-keys');
    const used = await fetch(`${server.url}/v1/collections/notes/search?q=x`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(used.status, 200, 'the new key searches notes');
    const other = await fetch(`${server.url}/v1/collections`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"name":"x"}' });
    assert.equal(other.status, 403, 'a search key cannot create collections');
    // Shown once: after a reload only its prefix is listed.
    await page.reload();
    await page.getByRole('cell', { name: 'website', exact: true }).waitFor();
    assert.equal(await page.locator('#created-key').count(), 0);
    assert.ok(!(await page.content()).includes(key));

    // A key with a filter: it sees only the matching documents, and the list says so.
    await page.fill('#key-name', 'tenant-a');
    await page.fill('#key-filter', '{"tenant": "a"}');
    await page.click('button:has-text("Create key")');
    const tenantKey = await page.inputValue('#created-key');
    await page.getByRole('cell', { name: '{"tenant":"a"}', exact: true }).waitFor();
    const seen = await fetch(`${server.url}/v1/collections/notes/documents`, { headers: { authorization: `Bearer ${tenantKey}` } });
    assert.deepEqual(((await seen.json()) as { documents: unknown[] }).documents, [], 'no document of notes has tenant "a"');
    await page.fill('#key-name', 'broken');
    await page.fill('#key-filter', '{"tenant": ');
    await page.click('button:has-text("Create key")');
    await page.getByText('The filter is not JSON').waitFor();
    await page.fill('#key-filter', '');
  });

  test('drop files on the Documents page: each uploads with progress and is indexed', async () => {
    await page.click('nav >> text=Documents');
    await page.locator('.drop').waitFor();
    // A real drop event carrying two files (what a file manager's drag hands the page).
    const dataTransfer = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['Page one talks about kelpies.\\fPage two is about aardwolves and kelpies.\\fPage three: aardwolves again, aardwolves.'], 'field-notes.txt', { type: 'text/plain' }));
      transfer.items.add(new File(['# <img src=x onerror=alert(1)> Recipes\\n\\nPoach the quince slowly; kelpies love quince.'], 'recipes.md', { type: 'text/markdown' }));
      return transfer;
    })()`);
    await page.dispatchEvent('.drop', 'drop', { dataTransfer });
    await page.getByText('field-notes.txt: indexed as').waitFor();
    await page.getByText('recipes.md: indexed as').waitFor();
    await page.setInputFiles('#files', { name: 'chosen.md', mimeType: 'text/markdown', buffer: Buffer.from('# Chosen file\n\nUploaded with the file chooser, about aardwolves.') });
    await page.getByText('chosen.md: indexed as').waitFor();
    await pollUntil('three documents listed', WAIT_MS, async () => (await page.locator('tbody tr').count()) === 3);
    await shot('documents');
  });

  test('search as you type: pages and their labels, highlights as text, a clicked facet narrows', async () => {
    await page.click('nav >> text=Search');
    await page.locator('#q').waitFor();
    await page.locator('#q').pressSequentially('aardwol', { delay: 20 });
    await pollUntil('hits for the prefix', WAIT_MS, async () => (await page.locator('.hit').count()) === 2);
    const notes = page.locator('.hit', { hasText: 'field-notes.txt' });
    assert.match((await notes.locator('.details').textContent()) ?? '', /txt · page 3 · also page 2 · score/);
    assert.equal(await notes.locator('mark').first().textContent(), 'aardwolves');
    // A document whose title is markup: it must show as text.
    const hostile = await fetch(`${server.url}/v1/collections/notes/documents/hostile?refresh=wait_for`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: '<img src=x onerror=alert(1)> Kelpie <b>notes</b>', text: 'kelpies & <script>alert(2)</script>' }),
    });
    assert.equal(hostile.status, 200);
    await page.fill('#q', 'kelpies');
    await pollUntil('three kelpie hits', WAIT_MS, async () => (await page.locator('.hit').count()) === 3);
    assert.equal(await page.locator('.hits img:not(.page-thumb), .hits b, .hits script').count(), 0);
    const shown = await page.locator('.hits').innerText();
    assert.match(shown, /<img src=x onerror=alert\(1\)> Kelpie <b>notes<\/b>/);
    assert.match(shown, /kelpies & <script>alert\(2\)<\/script>/);
    await page.click('.facet >> text=md (1)');
    await page.getByRole('button', { name: 'Remove filter format: md' }).waitFor();
    await pollUntil('one hit once narrowed', WAIT_MS, async () => (await page.locator('.hit').count()) === 1);
    assert.match(await page.locator('.curl').textContent() ?? '', /"filter":\{"format":"md"\}/);
    await shot('search');
  });

  test('several collections searched as one; a facet with more values than shown finds one as you type', async () => {
    const created = await server.request('POST', '/v1/collections', { name: 'postbox' });
    assert.equal(created.status, 201, created.text);
    const senders = ['Knuth', ...Array.from({ length: 11 }, (_, i) => `Sender ${String(i + 1).padStart(2, '0')}`)];
    const written = await server.request('POST', '/v1/collections/postbox/documents?refresh=wait_for', senders.map((sender, i) => ({ id: `letter-${i}`, title: `Letter ${i}`, text: 'a letter about kelpies', metadata: { sender } })));
    assert.equal(written.status, 200, written.text);
    // Away and back: the search page lists the collections as it opens.
    await page.click('nav >> text=Collections');
    await page.click('nav >> text=Search');
    await page.locator('#several summary').click();
    await page.check('#also-postbox');
    await page.getByText('Searching 2 collections as one').waitFor();
    await page.locator('.search-form details:not(#several) summary').click();
    await page.fill('#facets', 'sender');
    await page.fill('#q', 'kelpies');
    await pollUntil('hits of both collections', WAIT_MS, async () => /15 matches in 2 collections/.test(await page.locator('.total').innerText()));
    assert.equal(await page.locator('.hit').count(), 10, 'one page of the merged hits');
    assert.ok((await page.locator('.hit .details', { hasText: 'postbox · ' }).count()) > 0, 'hits name their collection');
    assert.match(await page.locator('.curl').textContent() ?? '', /\/v1\/multi-search/);
    // Ten values shown for a facet of twelve: a box finds the others by facet value search.
    await page.getByRole('heading', { name: 'sender · postbox' }).waitFor();
    await page.getByLabel('Find a value of sender in postbox').fill('knu');
    await page.locator('.facet button', { hasText: 'Knuth (1)' }).waitFor();
    await shot('search-several');
    await page.locator('.facet button', { hasText: 'Knuth (1)' }).click();
    await page.getByRole('button', { name: 'Remove filter sender: Knuth' }).waitFor();
    await pollUntil('one hit once narrowed', WAIT_MS, async () => (await page.locator('.hit').count()) === 1);
    assert.match(await page.locator('.hit .details').innerText(), /^postbox · /);
    await page.locator('.hit a', { hasText: 'Open' }).click();
    await page.getByRole('heading', { name: 'Letter 0' }).waitFor();
    // Back to notes, where the next steps work.
    await page.evaluate("location.hash = '#/search/notes'");
    await page.locator('#q').waitFor();
  });

  test('open a document, then delete it after the confirmation', async () => {
    await page.click('nav >> text=Documents');
    await page.click('button.link:has-text("field-notes.txt")');
    await page.getByRole('heading', { name: 'field-notes.txt' }).waitFor();
    assert.match(await text('.document pre'), /aardwolves again/);
    await page.click('.document >> button:has-text("Delete")');
    await page.click('button:has-text("Yes, delete")');
    await page.getByText('Deleted field-notes.txt.').waitFor();
    await pollUntil('three documents left', WAIT_MS, async () => (await page.locator('tbody tr').count()) === 3);
    const gone = await fetch(`${server.url}/v1/collections/notes/documents/field-notes.txt`, { headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });
    assert.equal(gone.status, 404);
  });

  test('webhooks: add one (its secret shown once), see its deliveries', async () => {
    await page.click('nav >> text=Webhooks');
    await page.fill('#hook-url', receiver.url('/hook'));
    await page.click('button:has-text("Add webhook")');
    const secret = await page.inputValue('input[aria-label="Signing secret"]');
    assert.match(secret, /^whsec_/);
    const start = receiver.received.length;
    await fetch(`${server.url}/v1/collections/notes/documents/hooked?refresh=wait_for`, { method: 'PUT', headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' }, body: '{"text":"hooked"}' });
    await receiver.waitFor(start + 1, WAIT_MS);
    await page.click('button:has-text("Deliveries")');
    await page.getByRole('cell', { name: 'document.indexed' }).first().waitFor();
    await pollUntil('the delivery delivered', WAIT_MS, async () => {
      await page.click('button:has-text("Deliveries")');
      return (await page.getByRole('cell', { name: 'delivered' }).count()) > 0;
    });
    await shot('webhooks');
  });

  test('stats show the server and the collection', async () => {
    await page.click('nav >> text=Stats');
    await page.getByText('Version').waitFor();
    await page.getByRole('cell', { name: 'notes' }).waitFor();
    assert.match(await page.locator('.facts').innerText(), /Searches\s+\d+ answered/);
    await shot('stats');
  });

  test('a collection\'s settings: synonyms, typo tolerance, searchable fields, ranking and embedders saved; a refused save shows why', async () => {
    interface Settings { synonyms: unknown[]; typo_tolerance: { enabled: boolean }; searchable_fields: { field: string; weight: number }[]; ranking: { boost: unknown[] }; embedders: Record<string, { source: string; dimensions: number | null }> }
    const settings = async (): Promise<Settings> => ((await server.request('GET', '/v1/collections/notes')).body as { settings: Settings }).settings;
    const hitsFor = async (q: string): Promise<string[]> =>
      ((await server.request('GET', `/v1/collections/notes/search?q=${encodeURIComponent(q)}`)).body as { hits: { id: string }[] }).hits.map((hit) => hit.id);
    // A document that says "notebook" only, and an embedder to remove.
    assert.equal((await server.request('PUT', '/v1/collections/notes/documents/gadget?refresh=wait_for', { title: 'Gadget', text: 'A notebook with a long battery life.' })).status, 200);
    assert.equal((await server.request('PATCH', '/v1/collections/notes', { embedders: { mine: { source: 'user', dimensions: 3 } } })).status, 200);
    assert.deepEqual(await hitsFor('laptop'), []);

    // From the collections table, the row's Settings link.
    await page.click('nav >> text=Collections');
    await page.getByRole('row', { name: /notes/ }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    assert.match(page.url(), /#\/settings\/notes$/);
    assert.equal(await page.inputValue('#collection'), 'notes');
    assert.equal(await page.getAttribute('nav >> text=Settings', 'aria-current'), 'page');
    const synonymsForm = page.locator('form', { has: page.locator('#synonyms') });
    const saveSynonyms = (): Promise<void> => synonymsForm.getByRole('button', { name: 'Save synonyms' }).click();

    // A long list still works in the text box: 10,000 entries pasted, saved and shown back.
    const pasted = Array.from({ length: 10_000 }, (_, i) => `word${i}a, word${i}b`).join('\n');
    await page.evaluate(`(() => {
      const box = document.getElementById('synonyms');
      box.value = ${JSON.stringify(pasted)};
      box.dispatchEvent(new Event('input', { bubbles: true }));
    })()`);
    assert.equal(await text('#synonyms-count'), '0 entries saved · changed, not saved yet.');
    await saveSynonyms();
    await page.getByText('Synonyms saved: 10,000 entries.').waitFor();
    assert.equal(await text('#synonyms-count'), '10,000 entries saved.');
    assert.equal((await settings()).synonyms.length, 10_000);
    assert.equal((await page.inputValue('#synonyms')).split('\n').length, 10_000);

    // A group and a one-way entry: saved exactly, and laptop now finds the notebook.
    await page.fill('#synonyms', 'laptop, notebook\nnyc -> new york\n');
    await saveSynonyms();
    await page.getByText('Synonyms saved: 2 entries.').waitFor();
    const saved = [{ words: ['laptop', 'notebook'] }, { input: ['nyc'], words: ['new york'] }];
    assert.deepEqual((await settings()).synonyms, saved);
    assert.equal(await page.inputValue('#synonyms'), 'laptop, notebook\nnyc -> new york');
    assert.deepEqual(await hitsFor('laptop'), ['gadget']);

    // Typo tolerance off.
    assert.equal(await page.isChecked('#typo-enabled'), true);
    await page.uncheck('#typo-enabled');
    await page.click('button:has-text("Save typo tolerance")');
    await page.getByText('Typo tolerance saved.').waitFor();
    assert.equal((await settings()).typo_tolerance.enabled, false);
    assert.equal(await page.isChecked('#typo-enabled'), false);

    // Searchable fields: the default shown; title weighed 5; then text left out, so a word only in
    // a document's text no longer finds it (the title still does); then the default again.
    const fieldsForm = page.locator('form', { has: page.locator('#weight-title') });
    const saveFields = (): Promise<void> => fieldsForm.getByRole('button', { name: 'Save searchable fields' }).click();
    const defaultFields = [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }];
    assert.deepEqual((await settings()).searchable_fields, defaultFields);
    assert.deepEqual([await page.isChecked('#searched-title'), await page.inputValue('#weight-title'), await page.isChecked('#searched-text'), await page.inputValue('#weight-text')], [true, '3', true, '1']);
    assert.deepEqual(await hitsFor('battery'), ['gadget']);
    await page.fill('#weight-title', '5');
    await page.fill('#weight-text', '1');
    await saveFields();
    await fieldsForm.getByText('Searchable fields saved: title 5, text 1.').waitFor();
    assert.deepEqual((await settings()).searchable_fields, [{ field: 'title', weight: 5 }, { field: 'text', weight: 1 }]);
    await page.uncheck('#searched-text');
    assert.equal(await page.isDisabled('#weight-text'), true, 'a field left out has no weight to give');
    await saveFields();
    await fieldsForm.getByText('Searchable fields saved: title 5.').waitFor();
    assert.deepEqual((await settings()).searchable_fields, [{ field: 'title', weight: 5 }]);
    assert.deepEqual(await hitsFor('battery'), [], 'text is not searched');
    assert.deepEqual(await hitsFor('gadget'), ['gadget'], 'the title still is');
    assert.deepEqual(await hitsFor('text:battery'), ['gadget'], 'text:word still searches the text');
    assert.equal(await page.isChecked('#searched-text'), false);
    assert.equal(await page.inputValue('#weight-text'), '1', 'the weight shown stays, to search it again with');
    // Neither field: refused in the page, nothing sent.
    const patches: string[] = [];
    const countPatch = (request: { method(): string; url(): string }): void => {
      if (request.method() === 'PATCH') patches.push(request.url());
    };
    page.on('request', countPatch);
    await page.uncheck('#searched-title');
    await saveFields();
    await fieldsForm.getByText('Nothing saved: check at least one field to search.').waitFor();
    page.off('request', countPatch);
    assert.deepEqual(patches, []);
    assert.deepEqual((await settings()).searchable_fields, [{ field: 'title', weight: 5 }]);
    // Back to the default, so what follows searches as before.
    await page.check('#searched-title');
    await page.check('#searched-text');
    await page.fill('#weight-title', '3');
    await saveFields();
    await fieldsForm.getByText('Searchable fields saved: title 3, text 1.').waitFor();
    assert.deepEqual((await settings()).searchable_fields, defaultFields);
    assert.deepEqual(await hitsFor('battery'), ['gadget']);

    // Refused: a group of one word, and a word of markup characters only (nothing to search).
    // The field errors are shown beside the form, by line, as text; nothing changed.
    await page.fill('#synonyms', 'laptop, notebook\n\nnyc -> new york\nalone\n<>&, fine');
    await saveSynonyms();
    const refusal = synonymsForm.getByRole('alert');
    await refusal.waitFor();
    const said = await refusal.innerText();
    assert.match(said, /^validation_failed: /);
    assert.match(said, /\/body\/synonyms\/2\/words \(line 4\): a group of synonyms needs at least two words/);
    assert.match(said, /\/body\/synonyms\/3\/words\/0 \(line 5\): "<>&" has no word to search/);
    assert.deepEqual((await settings()).synonyms, saved);
    assert.match(await page.inputValue('#synonyms'), /alone/, 'what was typed stays to be corrected');
    // A line the syntax cannot read is named before anything is sent.
    await page.fill('#synonyms', 'a -> b -> c');
    await saveSynonyms();
    await synonymsForm.getByText('line 1: more than one "->"').waitFor();
    assert.deepEqual((await settings()).synonyms, saved);

    // Ranking by fields: a boost saved; a bad one refused with its field's path.
    await page.fill('#boost', '[{"field": "metadata.sales", "modifier": "log1p"}]');
    await page.click('button:has-text("Save ranking")');
    await page.getByText('Ranking saved: 1 boost.').waitFor();
    assert.deepEqual((await settings()).ranking.boost, [{ field: 'metadata.sales', modifier: 'log1p' }]);
    await page.fill('#boost', '[{"field": "sales"}]');
    await page.click('button:has-text("Save ranking")');
    await page.locator('form', { has: page.locator('#boost') }).getByText('/body/ranking/boost/0/field').waitFor();
    assert.equal((await settings()).ranking.boost.length, 1);

    // Embedders: remove one (after the confirmation), add a user one with its dimensions.
    await page.getByRole('cell', { name: 'mine', exact: true }).waitFor();
    await page.click('button[aria-label="Remove embedder mine"]');
    await page.click('button:has-text("Yes, remove")');
    await page.getByText('Removed embedder mine.').waitFor();
    assert.deepEqual(await settings().then((s) => Object.keys(s.embedders)), []);
    await page.fill('#embedder-name', 'own');
    await page.selectOption('#embedder-source', 'user');
    await page.fill('#embedder-dimensions', '4');
    await page.click('button:has-text("Add embedder")');
    await page.getByText('Added embedder own').waitFor();
    const own = (await settings()).embedders.own;
    assert.deepEqual([own?.source, own?.dimensions], ['user', 4]);
    const ownRow = page.getByRole('row', { name: /^own/ });
    await ownRow.waitFor();
    assert.match(await ownRow.innerText(), /user[\s\S]*4[\s\S]*0\.5[\s\S]*\d+ embedded/);

    // Reloaded, the page shows what the server holds.
    await page.reload();
    await page.locator('#synonyms').waitFor();
    assert.equal(await page.inputValue('#synonyms'), 'laptop, notebook\nnyc -> new york');
    assert.equal(await page.isChecked('#typo-enabled'), false);
    assert.deepEqual([await page.isChecked('#searched-title'), await page.inputValue('#weight-title'), await page.isChecked('#searched-text'), await page.inputValue('#weight-text')], [true, '3', true, '1']);
    await shot('settings');
  });

  test('a metadata field made searchable on the Settings page: indexed again with its progress shown, then found and highlighted on the Search page', async () => {
    const booksRequest = (method: string, route: string, body?: unknown) => server.request(method, `/v1/collections/books${route}`, body);
    const hitsFor = async (q: string): Promise<string[]> =>
      ((await booksRequest('GET', `/search?q=${encodeURIComponent(q)}`)).body as { hits: { id: string }[] }).hits.map((hit) => hit.id);
    assert.equal((await server.request('POST', '/v1/collections', { name: 'books' })).status, 201);
    const books = [
      { id: 'taocp', title: 'The Art of Computer Programming', text: 'Fundamental algorithms, volume one.', metadata: { author: 'Donald E. Knuth', year: 1968 } },
      { id: 'sicp', title: 'Structure and Interpretation of Computer Programs', text: 'Procedures and the processes they generate.', metadata: { author: ['Harold Abelson', 'Gerald Jay Sussman'] } },
      { id: 'kr', title: 'The C Programming Language', text: 'A tutorial introduction to C.', metadata: { author: 'Brian W. Kernighan' } },
      { id: 'hostile', title: 'Hostile', text: 'Markup in the metadata.', metadata: { author: '<img src=x onerror=alert(3)> Mallory & Eve' } },
    ];
    for (const { id, ...book } of books) assert.equal((await booksRequest('PUT', `/documents/${id}?refresh=wait_for`, book)).status, 200);
    assert.deepEqual(await hitsFor('knuth'), [], 'the author is not searched yet');

    await page.goto(`${server.url}/#/settings/books`);
    const fieldsForm = page.locator('form', { has: page.locator('#weight-title') });
    await fieldsForm.getByText('No metadata field is searched.').waitFor();
    await page.locator('#metadata-field-names option[value="author"]').waitFor({ state: 'attached' });
    assert.equal(await page.locator('#metadata-field-names option[value="year"]').count(), 0, 'a number is not text to suggest');

    // Names the server would refuse, or a field listed already, are not added.
    await page.fill('#metadata-field-name', '$price');
    await fieldsForm.getByRole('button', { name: 'Add field' }).click();
    await fieldsForm.getByText('Not added: a metadata field\'s name is not empty, does not start with $ and has no , or :.').waitFor();
    await page.fill('#metadata-field-name', 'author');
    await page.fill('#metadata-field-weight', '2');
    await page.press('#metadata-field-name', 'Enter');
    await fieldsForm.getByText('Added metadata.author to the list: save to search it.').waitFor();
    const authorRow = fieldsForm.getByRole('group', { name: 'metadata.author', exact: true });
    assert.equal(await authorRow.getByLabel('Weight').inputValue(), '2');
    assert.equal(await page.inputValue('#metadata-field-name'), '', 'the name box is emptied for the next one');
    await page.fill('#metadata-field-name', 'author');
    await page.press('#metadata-field-name', 'Enter');
    await fieldsForm.getByText('Not added: metadata.author is in the list already.').waitFor();

    // A name too long for the server: its field error names that row; nothing changed. Removed.
    const longName = 'a'.repeat(129);
    await page.fill('#metadata-field-name', longName);
    await page.press('#metadata-field-name', 'Enter');
    await fieldsForm.getByRole('group', { name: `metadata.${longName}` }).waitFor();
    await fieldsForm.getByRole('button', { name: 'Save searchable fields' }).click();
    const refusal = fieldsForm.getByRole('alert');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), new RegExp(`/body/searchable_fields/3/field \\(metadata\\.${longName}\\): `));
    assert.equal(((await booksRequest('GET', '')).body as { settings: { searchable_fields: unknown[] } }).settings.searchable_fields.length, 2);
    await fieldsForm.getByRole('button', { name: `Remove metadata.${longName}` }).click();
    await fieldsForm.getByText(`Removed metadata.${longName} from the list: save to stop searching it.`).waitFor();
    assert.equal(await fieldsForm.getByRole('group', { name: `metadata.${longName}` }).count(), 0);

    // Saved: the collection is indexed again; the page follows it to the end.
    await page.evaluate(`(() => {
      const status = document.getElementById('reindex-status');
      window.reindexShown = [];
      new MutationObserver(() => window.reindexShown.push(status.innerText + (status.querySelector('progress') ? ' [progress]' : '')))
        .observe(status, { childList: true, subtree: true, characterData: true });
    })()`);
    await fieldsForm.getByRole('button', { name: 'Save searchable fields' }).click();
    await fieldsForm.getByText('Searchable fields saved: title 3, text 1, metadata.author 2.').waitFor();
    await fieldsForm.getByText('Searchable fields are up to date.').waitFor();
    const shown = (await page.evaluate('window.reindexShown')) as string[];
    assert.match(shown[0] ?? '', /^Indexing metadata\.author: \d of 4 documents \(\d+ %\)\s*\[progress\]$/);
    const record = (await booksRequest('GET', '')).body as { settings: { searchable_fields: unknown[] }; reindexing: unknown };
    assert.deepEqual(record.settings.searchable_fields, [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }, { field: 'metadata.author', weight: 2 }]);
    assert.equal(record.reindexing, null);
    assert.deepEqual(await hitsFor('knuth'), ['taocp']);
    await page.reload();
    assert.equal(await fieldsForm.getByRole('group', { name: 'metadata.author', exact: true }).getByLabel('Weight').inputValue(), '2');
    assert.equal(await page.locator('#reindex-status').innerText(), '', 'nothing to say when no re-index runs');

    // The Search page: the matched author as a highlighted line, an array's strings joined, markup as text.
    await page.goto(`${server.url}/#/search/books`);
    await page.fill('#q', 'knuth');
    await pollUntil('the Knuth hit', WAIT_MS, async () => (await page.locator('.hit').count()) === 1 && (await page.locator('.hit h3').textContent()) === 'The Art of Computer Programming');
    const authorLine = page.locator('.hit .field-highlight');
    assert.equal(await authorLine.innerText(), 'author: Donald E. Knuth');
    assert.equal(await authorLine.locator('mark').textContent(), 'Knuth');
    await page.fill('#q', 'sussman');
    await pollUntil('the Sussman hit', WAIT_MS, async () => (await page.locator('.hit h3').allTextContents()).join() === 'Structure and Interpretation of Computer Programs');
    assert.equal(await authorLine.innerText(), 'author: Harold Abelson, Gerald Jay Sussman');
    assert.equal(await authorLine.locator('mark').textContent(), 'Sussman');
    await page.fill('#q', 'mallory');
    await pollUntil('the hostile hit', WAIT_MS, async () => (await page.locator('.hit h3').allTextContents()).join() === 'Hostile');
    assert.equal(await page.locator('.hits img').count(), 0);
    assert.equal(await authorLine.innerText(), 'author: <img src=x onerror=alert(3)> Mallory & Eve');
  });

  test("a PDF's hit shows its page beside it and the other matching pages; a click opens the original at that page", async () => {
    assert.equal((await server.request('POST', '/v1/collections', { name: 'manuals' })).status, 201);
    const form = new FormData();
    form.append('id', 'pump.pdf');
    form.append('file', new Blob([textPdf([['Pump manual: contents.'], ['Priming the pump: open the valve, then prime it twice.'], ['After winter storage, prime the pump again.']])]), 'pump.pdf');
    const uploaded = await fetch(`${server.url}/v1/collections/manuals/files?refresh=wait_for`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}` }, body: form });
    assert.equal(uploaded.status, 201, await uploaded.text());
    await page.goto(`${server.url}/#/search/manuals`);
    await page.locator('#q').fill('prime');
    // The answer for the word (not the one for the empty box before it): two matching pages.
    await explained(pollUntil('the hit of the word', WAIT_MS, async () => /· also page \d/.test((await page.locator('.hit.pictured .details').textContent().catch(() => '')) ?? '')));
    const best = Number(/page (\d)/.exec((await page.locator('.hit .details').textContent()) ?? '')?.[1]);
    assert.ok(best === 2 || best === 3, `the best page is one of the two with the word (${best})`);
    // The pictures are the server's: the page drawn at twice the shown width, for sharp screens.
    const loaded = (): Promise<boolean> =>
      page.locator('.page-pictures img').evaluateAll((images) => images.length > 0 && images.every((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0));
    await explained(pollUntil('the page pictures loaded', WAIT_MS, loaded));
    assert.equal(await page.locator('.page-main img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), 280);
    assert.equal(await page.locator('.page-main img').getAttribute('alt'), `Page ${best}`);
    const other = best === 2 ? 3 : 2;
    assert.deepEqual(await page.locator('.other-pages button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('title'))), [`Open page ${other} of the original`]);
    await shot('search-pages');
    // A click opens the kept PDF in a new tab at that page, the query's words asked to be found.
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.click('.page-main')]);
    await pollUntil('the original opened in the tab', WAIT_MS, async () => tab.url().startsWith('blob:'));
    assert.match(tab.url(), new RegExp(`^blob:${server.url.replace(/[.]/g, '\\.')}/[0-9a-f-]+#page=${best}&search=prime$`));
    await tab.close();
    const [otherTab] = await Promise.all([page.context().waitForEvent('page'), page.click('.other-pages button')]);
    await pollUntil('the other page opened', WAIT_MS, async () => otherTab.url().includes(`#page=${other}&`));
    await otherTab.close();

    // Its OCR languages on the Settings page: the server's installed ones to pick from; none is refused.
    await page.goto(`${server.url}/#/settings/manuals`);
    const english = page.locator('.ocr-languages input[value="eng"]');
    await english.waitFor();
    assert.equal(await english.isChecked(), true, 'English by default');
    await english.uncheck();
    await page.click('text=Save OCR languages');
    await explained(page.getByText(/validation_failed.*ocr_languages/).waitFor());
    await english.check();
    await page.click('text=Save OCR languages');
    await explained(page.getByText('OCR languages saved: eng.').waitFor());
  });

  test('readable on a phone: no sideways scrolling on any page', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const route of ['collections', 'search/notes', 'documents/notes', 'settings/notes', 'keys', 'webhooks', 'stats']) {
      await page.goto(`${server.url}/#/${route}`);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      assert.ok(overflow <= 0, `${route} scrolls sideways by ${overflow} px on a phone`);
    }
    await page.goto(`${server.url}/#/search/notes`);
    await page.fill('#q', 'quince');
    await pollUntil('a hit on the phone', WAIT_MS, async () => (await page.locator('.hit').count()) === 1);
    await shot('search-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('sign out, then in with an admin API key', async () => {
    const created = await fetch(`${server.url}/v1/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' }, body: '{"name":"ops","scopes":["admin"]}' });
    const { key } = (await created.json()) as { key: string };
    // A search still on its way when the user signs out: its late 401 (the session has ended)
    // must not redraw the sign-in form over the key being typed, nor sign out what comes next.
    await page.goto(`${server.url}/#/search/notes`);
    await page.locator('#q').waitFor();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route('**/v1/collections/notes/search', async (route) => { await held; await route.continue(); });
    const heldSearch = page.waitForRequest((request) => request.url().endsWith('/v1/collections/notes/search'));
    await page.fill('#q', 'quince');
    await heldSearch;
    const sessionEnded = page.waitForResponse((response) => response.url().endsWith('/v1/sessions/current'));
    await page.click('text=Sign out');
    await page.locator('#secret').waitFor();
    assert.equal((await sessionEnded).status(), 204);
    await page.fill('#secret', key);
    const lateAnswer = page.waitForResponse((response) => response.url().endsWith('/v1/collections/notes/search'));
    release();
    assert.equal((await lateAnswer).status(), 401, 'the search arrives after its session ended');
    await page.waitForLoadState('networkidle');
    await page.unroute('**/v1/collections/notes/search');
    assert.equal(await page.inputValue('#secret'), key, 'the sign-in form is not drawn again over what was typed');
    await page.press('#secret', 'Enter');
    await explained(page.locator('nav >> text=Stats').waitFor());
    await page.click('nav >> text=Collections');
    await page.getByRole('cell', { name: 'notes', exact: true }).waitFor();
  });

  test('no script error, no Content-Security-Policy violation and no file refused on any page', () => {
    assert.deepEqual(problems, []);
  });
});

describe('synonym lines (the Settings page\'s text box)', () => {
  test('groups and one-way entries read as the API writes them, and are written back the same', () => {
    const parsed = parseSynonymLines('laptop, notebook,  portable computer \r\n\n  nyc, big apple -> new york\nsofa,, couch,\n');
    assert.deepEqual(parsed.entries, [
      { words: ['laptop', 'notebook', 'portable computer'] },
      { input: ['nyc', 'big apple'], words: ['new york'] },
      { words: ['sofa', 'couch'] },
    ]);
    assert.deepEqual(parsed.lines, [1, 3, 4]);
    assert.deepEqual(parsed.problems, []);
    assert.equal(synonymLines(parsed.entries), 'laptop, notebook, portable computer\nnyc, big apple -> new york\nsofa, couch');
    assert.deepEqual(parseSynonymLines(synonymLines(parsed.entries)).entries, parsed.entries);
    assert.deepEqual(parseSynonymLines('').entries, []);
  });

  test('what the syntax cannot read is named by line; what the entries mean is left to the server', () => {
    const parsed = parseSynonymLines('a -> b -> c\nnyc ->\n-> new york\n, ,\nalone');
    assert.deepEqual(parsed.problems, [
      'line 1: more than one "->"',
      'line 2: words are needed on both sides of "->"',
      'line 3: words are needed on both sides of "->"',
      'line 4: no words, only commas',
    ]);
    assert.deepEqual(parsed.entries, [{ words: ['alone'] }], 'a group of one word is the server\'s to refuse');
    assert.deepEqual(parsed.lines, [5]);
  });

  test('stored words the lines cannot hold are found, to be said', () => {
    assert.deepEqual(wordsLinesCannotHold([{ words: ['a, b', 'c'] }, { input: ['x->y'], words: [' d'] }]), ['a, b', 'x->y', ' d']);
    assert.deepEqual(wordsLinesCannotHold([{ words: ['new york', 'nyc'] }]), []);
  });
});
