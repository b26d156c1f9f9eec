// The web dashboard in a real browser: Debian's Chromium driven by playwright-core against a
// real server, as a newcomer would go: open the URL, sign in with the master key, create a
// collection, create an API key (shown once, and it works), drop files on the Documents page,
// search them (as you type, page numbers, a clicked facet), open and delete a document, add a
// webhook and see its deliveries, read the stats; signing out and in with an admin key. Along
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

const CHROMIUM = process.env.FOLIO_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const SCREENSHOTS = join(PROJECT_ROOT, 'docs', 'screenshots');
const WAIT_MS = 15_000;
const skip = CHROMIUM === undefined ? 'no Chromium here (apt-get install chromium, or set FOLIO_CHROMIUM); .ci/run installs it' : false;

describe('the dashboard in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const receiver = new Receiver();
  /** Script errors and CSP violations the page reported. */
  const problems: string[] = [];

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
    assert.equal(await page.locator('.hits img, .hits b, .hits script').count(), 0);
    const shown = await page.locator('.hits').innerText();
    assert.match(shown, /<img src=x onerror=alert\(1\)> Kelpie <b>notes<\/b>/);
    assert.match(shown, /kelpies & <script>alert\(2\)<\/script>/);
    await page.click('.facet >> text=md (1)');
    await page.getByRole('button', { name: 'Remove filter format: md' }).waitFor();
    await pollUntil('one hit once narrowed', WAIT_MS, async () => (await page.locator('.hit').count()) === 1);
    assert.match(await page.locator('.curl').textContent() ?? '', /"filter":\{"format":"md"\}/);
    await shot('search');
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

  test('readable on a phone: no sideways scrolling on any page', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const route of ['collections', 'search/notes', 'documents/notes', 'keys', 'webhooks', 'stats']) {
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
    await page.click('text=Sign out');
    await page.locator('#secret').waitFor();
    await page.fill('#secret', key);
    await page.press('#secret', 'Enter');
    await page.locator('nav >> text=Stats').waitFor();
    await page.click('nav >> text=Collections');
    await page.getByRole('cell', { name: 'notes', exact: true }).waitFor();
  });

  test('no script error and no Content-Security-Policy violation on any page', () => {
    assert.deepEqual(problems, []);
  });
});
