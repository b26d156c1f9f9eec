// Collections: each with its documents, size, segments and embedding progress, links to search
// it, browse it and change its settings, and delete (after a confirmation naming it); a form
// creates one.

import { api, errorText } from '../api.ts';
import { askInPlace } from '../confirm.ts';
import { formatBytes, formatTime } from '../../../format/index.ts';
import { h, message, replace, table } from '../dom.ts';
import type { Page } from '../page.ts';
import type { Collection, ListCollectionsResponse } from '../../../clients/typescript/api-types.ts';

function embeddingText(embedding: Collection['embedding']): string {
  const parts = Object.entries(embedding).map(([name, p]) => `${name}: ${p.embedded} embedded${p.pending ? `, ${p.pending} waiting` : ''}${p.failed ? `, ${p.failed} failed` : ''}`);
  return parts.length === 0 ? '—' : parts.join('; ');
}

export async function renderCollections(page: Page): Promise<void> {
  const status = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  const nameInput = h('input', { id: 'new-collection', name: 'name', required: true, pattern: '[a-z0-9][a-z0-9_\\-]{0,63}', autocomplete: 'off', placeholder: 'notes' });
  const language = h('select', { id: 'new-language', name: 'language' }, ...['english', 'french', 'german', 'spanish', 'italian', 'portuguese', 'dutch', 'none'].map((l) => h('option', { value: l }, l)));

  const load = async (): Promise<void> => {
    try {
      const { collections } = await api<ListCollectionsResponse>('/v1/collections');
      if (collections.length === 0) {
        replace(list, message('No collections yet. Create one below, then upload files on its Documents page.'));
        return;
      }
      const rows = collections.map((c) => {
        const actions = h('span', { class: 'actions' });
        const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${c.name}`, onclick: () => askInPlace(actions, {
          question: `Delete ${c.name} and its ${c.documents} documents?`,
          yes: 'Yes, delete',
          run: () => api(`/v1/collections/${encodeURIComponent(c.name)}`, { method: 'DELETE' }),
          done: `Deleted ${c.name}.`,
          status,
          then: () => void load(),
          cancel: () => void load(),
        }) }, 'Delete');
        actions.append(
          h('a', { href: `#/search/${encodeURIComponent(c.name)}` }, 'Search'),
          h('a', { href: `#/documents/${encodeURIComponent(c.name)}` }, 'Documents'),
          h('a', { href: `#/settings/${encodeURIComponent(c.name)}` }, 'Settings'),
          remove,
        );
        return [h('strong', {}, c.name), c.language, String(c.documents), formatBytes(c.size_bytes), String(c.segments), embeddingText(c.embedding), formatTime(c.created_at), actions];
      });
      replace(list, table(['Name', 'Language', 'Documents', 'Size', 'Segments', 'Embedding', 'Created', ''], rows, 'Collections'));
    } catch (error) {
      replace(list, message(errorText(error), 'error'));
    }
  };

  const form = h(
    'form',
    { class: 'card inline', onsubmit: (event: Event) => {
      event.preventDefault();
      api('/v1/collections', { method: 'POST', body: { name: nameInput.value.trim(), language: language.value } }).then(
        () => {
          replace(status, message(`Created ${nameInput.value.trim()}.`));
          nameInput.value = '';
          void load();
        },
        (error: unknown) => replace(status, message(errorText(error), 'error')),
      );
    } },
    h('h2', {}, 'New collection'),
    h('label', { for: 'new-collection' }, 'Name'),
    nameInput,
    h('label', { for: 'new-language' }, 'Language'),
    language,
    h('button', { type: 'submit' }, 'Create collection'),
  );
  replace(page.main, h('h1', {}, 'Collections'), status, list, form);
  await load();
}
