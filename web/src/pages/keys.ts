// Settings → API keys: create a key with its scopes, collection limits, expiry, rate limit and
// filter (a key that sees only the matching documents: search scope only), shown once with a
// copy button (the server keeps only its hash); list the keys with their last use and filter,
// and revoke one after a confirmation.

import { api, errorText } from '../api.ts';
import { askInPlace } from '../confirm.ts';
import { formatTime } from '../../../format/index.ts';
import { h, message, replace, table } from '../dom.ts';
import type { Page } from '../page.ts';
import type { ApiKey, ListKeysResponse } from '../../../clients/typescript/api-types.ts';

const SCOPES = ['search', 'write', 'admin'] as const;

export async function renderKeys(page: Page): Promise<void> {
  const status = h('div', { 'aria-live': 'polite' });
  const created = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  const name = h('input', { id: 'key-name', required: true, maxlength: 100, autocomplete: 'off', placeholder: 'website' });
  const scopeBoxes = SCOPES.map((scope) => h('input', { type: 'checkbox', id: `scope-${scope}`, value: scope, checked: scope === 'search' }));
  const collections = h('input', { id: 'key-collections', autocomplete: 'off', placeholder: 'all collections (or: notes, manuals)' });
  const expires = h('input', { id: 'key-expires', type: 'date' });
  const rate = h('input', { id: 'key-rate', type: 'number', min: 1, max: 1000000, placeholder: 'server default' });
  const filter = h('input', { id: 'key-filter', autocomplete: 'off', spellcheck: 'false', placeholder: 'every document (or: {"tenant": "acme"})' });

  const load = async (): Promise<void> => {
    try {
      const { keys } = await api<ListKeysResponse>('/v1/api-keys');
      if (keys.length === 0) {
        replace(list, message('No API keys yet.'));
        return;
      }
      const rows = keys.map((key) => {
        const cell = h('span', { class: 'actions' });
        cell.append(h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke ${key.name}`, onclick: () => askInPlace(cell, {
          question: `Revoke ${key.name}? Programs using it stop working.`,
          yes: 'Yes, revoke',
          run: () => api(`/v1/api-keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' }),
          done: `Revoked ${key.name}.`,
          status,
          then: () => void load(),
          cancel: () => void load(),
        }) }, 'Revoke'));
        return [
          h('strong', {}, key.name),
          h('code', {}, `${key.prefix}…`),
          key.scopes.join(', '),
          key.collections === null ? 'all' : key.collections.join(', '),
          key.filter === null ? 'every document' : h('code', {}, JSON.stringify(key.filter)),
          key.rate_limit === null ? 'default' : `${key.rate_limit.per_second}/s`,
          formatTime(key.expires_at, 'never'),
          formatTime(key.last_used_at, 'never'),
          cell,
        ];
      });
      replace(list, table(['Name', 'Key', 'Scopes', 'Collections', 'Sees', 'Rate limit', 'Expires', 'Last used', ''], rows, 'API keys'));
    } catch (error) {
      replace(list, message(errorText(error), 'error'));
    }
  };

  const showOnce = (key: string, keyName: string): void => {
    const field = h('input', { id: 'created-key', readonly: true, value: key, 'aria-label': `The new key ${keyName}` });
    const copied = h('span', { 'aria-live': 'polite' });
    replace(created, h('div', { class: 'card once' },
      h('h2', {}, `Key ${keyName} created`),
      h('p', {}, 'Copy it now: it is not shown again (the server keeps only its hash).'),
      field,
      h('button', { type: 'button', onclick: () => {
        field.select();
        const done = (): void => { copied.textContent = ' Copied.'; };
        navigator.clipboard?.writeText(key).then(done, () => { document.execCommand?.('copy'); done(); }) ?? done();
      } }, 'Copy'),
      copied));
    field.select();
  };

  const form = h('form', { class: 'card', onsubmit: (event: Event) => {
    event.preventDefault();
    const scopes = scopeBoxes.filter((box) => box.checked).map((box) => box.value);
    const limited = collections.value.split(',').map((c) => c.trim()).filter(Boolean);
    let sees: unknown = null;
    if (filter.value.trim() !== '') {
      try {
        sees = JSON.parse(filter.value);
      } catch (error) {
        replace(status, message(`The filter is not JSON: ${errorText(error)}`, 'error'));
        return;
      }
    }
    const body = {
      name: name.value.trim(),
      scopes: scopes.length > 0 ? scopes : ['search'],
      ...(sees !== null && { filter: sees }),
      ...(limited.length > 0 && { collections: limited }),
      ...(expires.value !== '' && { expires_at: new Date(`${expires.value}T23:59:59Z`).toISOString() }),
      ...(rate.value !== '' && { rate_limit: { per_second: Number(rate.value), burst: Number(rate.value) * 2 } }),
    };
    api<ApiKey & { key: string }>('/v1/api-keys', { method: 'POST', body }).then(
      (key) => { showOnce(key.key, key.name); replace(status); name.value = ''; filter.value = ''; void load(); },
      (error: unknown) => replace(status, message(errorText(error), 'error')),
    );
  } },
    h('h2', {}, 'Create key'),
    h('label', { for: 'key-name' }, 'Name'), name,
    h('fieldset', {}, h('legend', {}, 'Scopes'), ...scopeBoxes.map((box, i) => h('label', { class: 'check', for: box.id }, box, ` ${SCOPES[i]}`))),
    h('label', { for: 'key-collections' }, 'Collections (comma-separated; empty: all)'), collections,
    h('label', { for: 'key-expires' }, 'Expires (end of that day, UTC; empty: never)'), expires,
    h('label', { for: 'key-rate' }, 'Requests per second (empty: the server default)'), rate,
    h('label', { for: 'key-filter' }, 'Sees only documents matching (a filter, as a search takes it; the key can then only search)'), filter,
    h('button', { type: 'submit' }, 'Create key'));

  replace(page.main, h('h1', {}, 'API keys'), created, status, list, form);
  await load();
}
