// The dashboard's shell: the sign-in gate, the navigation (Collections, Search, Documents,
// Settings, API keys, Webhooks, Stats) and a hash router (`#/search/notes`), so every page has a
// URL, the back button works and nothing reloads. Each page is a module in pages/ that renders
// into the main element; they all talk to the server through api.ts only.

import { signOut, token, whenUnauthorized, api } from './api.ts';
import { h, replace } from './dom.ts';
import { renderCollections } from './pages/collections.ts';
import { renderDocuments } from './pages/documents.ts';
import { renderKeys } from './pages/keys.ts';
import { renderSearch } from './pages/search.ts';
import { renderSettings } from './pages/settings.ts';
import { renderSignIn } from './pages/sign-in.ts';
import { renderStats } from './pages/stats.ts';
import { renderWebhooks } from './pages/webhooks.ts';
import type { Page } from './page.ts';


const PAGES: Record<string, { title: string; render: (page: Page) => void | Promise<void> }> = {
  collections: { title: 'Collections', render: renderCollections },
  search: { title: 'Search', render: renderSearch },
  documents: { title: 'Documents', render: renderDocuments },
  settings: { title: 'Settings', render: renderSettings },
  keys: { title: 'API keys', render: renderKeys },
  webhooks: { title: 'Webhooks', render: renderWebhooks },
  stats: { title: 'Stats', render: renderStats },
};

/** Pages of one collection: their links carry the collection being looked at. */
const COLLECTION_PAGES = new Set(['search', 'documents', 'settings']);

const root = document.getElementById('app')!;

function go(route: string): void {
  location.hash = `#/${route}`;
}

function currentRoute(): { name: string; argument: string } {
  const [name = '', ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  return { name: PAGES[name] ? name : 'collections', argument: decodeURIComponent(rest.join('/')) };
}

async function logOut(): Promise<void> {
  // Signed out here first, so the sign-in form is drawn once: a late 401 of a request that still
  // carried the session is then not this tab's (api.ts) and redraws nothing.
  const ended = token();
  signOut();
  render();
  // A session is ended on the server too; an API key simply stops being used here.
  if (ended?.startsWith('folio_sess_')) await api('/v1/sessions/current', { method: 'DELETE', bearer: ended }).catch(() => undefined);
}

function render(): void {
  if (token() === null) {
    renderSignIn(root, render);
    return;
  }
  const { name, argument } = currentRoute();
  const collection = argument.split('/')[0].split(',')[0]; // `notes` of `#/documents/notes/n1` and of `#/search/notes,tickets` too
  const main = h('main', { id: 'main', tabindex: '-1' });
  const links = Object.entries(PAGES).map(([route, { title }]) =>
    h('a', { href: `#/${route}${collection && COLLECTION_PAGES.has(route) ? `/${encodeURIComponent(collection)}` : ''}`, 'aria-current': route === name ? 'page' : null }, title),
  );
  replace(
    root,
    h('a', { class: 'skip', href: '#main', onclick: (event: Event) => { event.preventDefault(); main.focus(); } }, 'Skip to content'),
    h('header', {}, h('span', { class: 'brand' }, 'Folio'), h('nav', { 'aria-label': 'Sections' }, ...links), h('button', { type: 'button', class: 'secondary', onclick: () => void logOut() }, 'Sign out')),
    main,
  );
  document.title = `${PAGES[name].title} · Folio`;
  void PAGES[name].render({ main, argument, go });
}

whenUnauthorized(() => {
  signOut();
  render();
});
window.addEventListener('hashchange', render);
render();
